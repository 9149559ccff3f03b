/** Settings from the environment, read once (documented in the README). */

/** A setting the service cannot start with: main prints its message alone, one line, no stack. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

const port = Number(process.env.PORT ?? 4000);

export const config = {
  port,
  host: process.env.HOST ?? '0.0.0.0',
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || undefined,
  logRequests: process.env.LOG_REQUESTS !== 'false',
  maxConnections: Number(process.env.DATABASE_POOL_SIZE ?? 10),
  /** Where clients reach this service: the base of the links it hands out (SCORM launch URIs). */
  publicUrl: (process.env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
  /** Schools are served at `<subdomain>.<this>`; redirects may go there (and to a school's own domains). */
  schoolsBaseDomain: (process.env.SCHOOLS_BASE_DOMAIN || 'localhost').toLowerCase().replace(/^\.+/, ''),
  /** How long a SCORM launch URI stays valid. */
  scormLaunchTtlSeconds: Number(process.env.SCORM_LAUNCH_TTL_SECONDS ?? 900),
  /**
   * Behind a load balancer, the proxies whose X-Forwarded-For names the client (rate limits and logs
   * key on the client's address): `true` (any), a hop count, or addresses and CIDRs, comma separated.
   * Unset: the peer address is the client.
   */
  trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
  /** Origins whose browser pages may call the service (CORS), comma separated; `*` for any (http/security.ts). */
  corsOrigins: (process.env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
  /** Token buckets per credential, and per client address without a valid one (http/rate-limit.ts). */
  rateLimit: {
    enabled: process.env.RATE_LIMIT_ENABLED !== 'false',
    capacity: Number(process.env.RATE_LIMIT_CAPACITY ?? 300),
    refillPerSecond: Number(process.env.RATE_LIMIT_REFILL_PER_SECOND ?? 10),
    anonymousCapacity: Number(process.env.RATE_LIMIT_ANONYMOUS_CAPACITY ?? 60),
    anonymousRefillPerSecond: Number(process.env.RATE_LIMIT_ANONYMOUS_REFILL_PER_SECOND ?? 1),
  },
  /** What one GraphQL document may ask (graphql/limits.ts); beyond any limit it is refused before it runs. */
  graphql: {
    maxDepth: Number(process.env.GRAPHQL_MAX_DEPTH ?? 12),
    maxAliases: Number(process.env.GRAPHQL_MAX_ALIASES ?? 30),
    maxDirectives: Number(process.env.GRAPHQL_MAX_DIRECTIVES ?? 50),
    maxTokens: Number(process.env.GRAPHQL_MAX_TOKENS ?? 5000),
    maxCost: Number(process.env.GRAPHQL_MAX_COST ?? 25000),
    introspection: process.env.GRAPHQL_INTROSPECTION !== 'false',
  },
};

/** TRUST_PROXY as Fastify's `trustProxy` takes it. */
export function parseTrustProxy(value: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  const text = value?.trim() ?? '';
  if (!text || text === 'false') return false;
  if (text === 'true') return true;
  // A hop count: trust that many proxies in front of the service.
  if (/^\d+$/.test(text)) return (_address, hop) => hop < Number(text);
  return text.split(',').map((a) => a.trim()).filter(Boolean);
}

type Check = (value: string) => string | null;
const integer = (min: number, max: number): Check => (v) => (/^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max ? null : `must be a whole number from ${min} to ${max}`);
const positive: Check = (v) => (v.trim() !== '' && Number.isFinite(Number(v)) && Number(v) > 0 ? null : 'must be a number above 0');
const boolean: Check = (v) => (/^(true|false)$/.test(v) ? null : 'must be true or false');
const url = (protocols: string[]): Check => (v) => {
  try {
    return protocols.includes(new URL(v).protocol) ? null : `must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL`;
  } catch {
    return 'is not a URL';
  }
};

/** Every variable with a shape to respect; checked once, before anything opens. */
const checks: Record<string, Check> = {
  PORT: integer(0, 65535),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATABASE_POOL_SIZE: integer(1, 1000),
  LOG_REQUESTS: boolean,
  PUBLIC_URL: url(['http:', 'https:']),
  SCORM_LAUNCH_TTL_SECONDS: integer(1, 86_400 * 30),
  RATE_LIMIT_ENABLED: boolean,
  RATE_LIMIT_CAPACITY: positive,
  RATE_LIMIT_REFILL_PER_SECOND: positive,
  RATE_LIMIT_ANONYMOUS_CAPACITY: positive,
  RATE_LIMIT_ANONYMOUS_REFILL_PER_SECOND: positive,
  GRAPHQL_MAX_DEPTH: integer(1, 1000),
  GRAPHQL_MAX_ALIASES: integer(0, 10_000),
  GRAPHQL_MAX_DIRECTIVES: integer(0, 10_000),
  GRAPHQL_MAX_TOKENS: integer(1, 1_000_000),
  GRAPHQL_MAX_COST: integer(1, 100_000_000),
  GRAPHQL_INTROSPECTION: boolean,
};

/** Refuses the first malformed variable with one line naming it (main prints it and exits 1). */
export function validateEnvironment(env: Record<string, string | undefined> = process.env): void {
  for (const [name, check] of Object.entries(checks)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const problem = check(value);
    // A URL may hold a password: name the variable, never echo its value.
    if (problem) throw new ConfigurationError(`${name} ${problem}${name.endsWith('_URL') ? '' : ` (got "${value.slice(0, 40)}")`}`);
  }
}
