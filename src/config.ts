/** Settings from the environment, read once (documented in the README): the only module that reads `process.env` (test/layout.test.ts). */
import { z } from 'zod';

/** A setting the service cannot start with: main prints its message alone, one line, no stack. */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/**
 * Every variable with a shape to respect, read and checked once (zod). A malformed one is reported
 * by validateEnvironment() in one line naming it (main prints it and exits 1); until then it
 * reads as if unset, so importing this module never throws.
 */
const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.string().trim().regex(/^\d+$/, message).transform(Number).refine((n) => n >= min && n <= max, message);
};
const aboveZero = z
  .string()
  .trim()
  .refine((v) => v !== '' && Number.isFinite(Number(v)) && Number(v) > 0, 'must be a number above 0')
  .transform(Number);
const flag = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');
const url = (protocols: string[]) =>
  z.string().superRefine((value, context) => {
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      return void context.addIssue({ code: 'custom', message: 'is not a URL' });
    }
    if (!protocols.includes(protocol)) context.addIssue({ code: 'custom', message: `must be a ${protocols.map((p) => `${p}//`).join(' or ')} URL` });
  });
const text = z.string();

const environment = z.object({
  PORT: wholeNumber(0, 65535).default(4000),
  HOST: text.default('0.0.0.0'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  DATABASE_LISTEN_URL: url(['postgres:', 'postgresql:']).optional(),
  DATABASE_READ_URL: url(['postgres:', 'postgresql:']).optional(),
  DATABASE_READ_MAX_LAG_MS: wholeNumber(0, 3_600_000).default(2000),
  DATABASE_READ_REFRESH_MS: wholeNumber(10, 60_000).default(150),
  DATABASE_POOL_SIZE: wholeNumber(1, 1000).default(10),
  DATABASE_PREPARE: flag.default(true),
  DATABASE_ROW_DECODER: z.enum(['generated', 'plain', 'drizzle'], { error: 'must be generated, plain or drizzle' }).default('generated'),
  WEB_CONCURRENCY: wholeNumber(1, 64).default(1),
  CREDENTIAL_CACHE_SECONDS: wholeNumber(0, 3600).default(15),
  CREDENTIAL_CACHE_SIZE: wholeNumber(1, 1_000_000).default(5000),
  DATA_DIR: text.optional(),
  LOG_REQUESTS: flag.default(true),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  SCHOOLS_BASE_DOMAIN: text.default('localhost'),
  SCORM_LAUNCH_TTL_SECONDS: wholeNumber(1, 86_400 * 30).default(900),
  TRUST_PROXY: text.optional(),
  CORS_ORIGINS: text.default(''),
  RATE_LIMIT_ENABLED: flag.default(true),
  RATE_LIMIT_CAPACITY: aboveZero.default(300),
  RATE_LIMIT_REFILL_PER_SECOND: aboveZero.default(10),
  RATE_LIMIT_ANONYMOUS_CAPACITY: aboveZero.default(60),
  RATE_LIMIT_ANONYMOUS_REFILL_PER_SECOND: aboveZero.default(1),
  STUDENT_MESSAGES_PER_MINUTE: wholeNumber(1, 10_000).default(10),
  WS_MAX_SOCKETS_PER_CREDENTIAL: wholeNumber(1, 100_000).default(10),
  WS_MAX_SOCKETS_PER_ADDRESS: wholeNumber(1, 1_000_000).default(100),
  WS_CONNECTION_INIT_TIMEOUT_MS: wholeNumber(100, 600_000).default(5000),
  WS_CREDENTIAL_RECHECK_SECONDS: wholeNumber(0, 86_400).default(60),
  GRAPHQL_MAX_DEPTH: wholeNumber(1, 1000).default(12),
  GRAPHQL_MAX_ALIASES: wholeNumber(0, 10_000).default(30),
  GRAPHQL_MAX_DIRECTIVES: wholeNumber(0, 10_000).default(50),
  GRAPHQL_MAX_TOKENS: wholeNumber(1, 1_000_000).default(5000),
  GRAPHQL_MAX_COST: wholeNumber(1, 100_000_000).default(25000),
  GRAPHQL_MAX_OBJECTS: wholeNumber(1, 100_000_000).default(50_000),
  GRAPHQL_MAX_RESULT_BYTES: wholeNumber(1, 1_000_000_000).default(32 * 1024 * 1024),
  GRAPHQL_TIMEOUT_MS: wholeNumber(1, 3_600_000).default(10_000),
  GRAPHQL_INTROSPECTION: flag.default(true),
  GRAPHQL_LIST_BOUNDS_SECONDS: wholeNumber(0, 86_400).default(300),
  EVENT_RETENTION_DAYS: wholeNumber(2, 3650).default(30),
  BILLING_DUE_DAYS: wholeNumber(0, 365).default(3),
  BILLING_GRACE_DAYS: wholeNumber(0, 365).default(7),
  BILLING_SCHEDULER_INTERVAL_SECONDS: wholeNumber(1, 86_400).default(60),
  ACCESS_TOKEN_MINUTES: wholeNumber(1, 60).default(15),
  REFRESH_TOKEN_DAYS: wholeNumber(1, 365).default(30),
  SIGN_IN_WINDOW_SECONDS: wholeNumber(1, 86_400).default(900),
  SIGN_IN_MAX_FAILURES: wholeNumber(1, 1000).default(10),
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: wholeNumber(1, 100_000).default(100),
  PASSWORD_RESET_MINUTES: wholeNumber(5, 10_080).default(60),
  TOKEN_LAST_USED_SECONDS: wholeNumber(1, 86_400).default(60),
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: flag.default(false),
  SSO_ALLOW_INSECURE_ISSUERS: flag.default(false),
  SSO_OIDC_STATE_TTL_SECONDS: wholeNumber(60, 3600).default(600),
  SSO_JWT_MAX_AGE_SECONDS: wholeNumber(10, 3600).default(300),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: text.default('no-reply@localhost'),
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 3_600_000).default(10_000),
  NODE_ENV: text.optional(),
  // Checked by auth/secrets.ts, whose errors say what a key must be.
  SECRETS_KEY: text.optional(),
});

/** The environment's values (an empty variable counts as unset), and the first problem in one line. */
function readEnvironment(env: Record<string, string | undefined>): { values: z.infer<typeof environment>; problem: string | null } {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = environment.safeParse(given);
  if (parsed.success) return { values: parsed.data, problem: null };
  const issue = parsed.error.issues[0];
  const name = String(issue.path[0]);
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
  const values = environment.parse(Object.fromEntries(Object.entries(given).filter(([k]) => !bad.has(k))));
  // A URL may hold a password: name the variable, never echo its value.
  return { values, problem: `${name} ${issue.message}${name.endsWith('_URL') ? '' : ` (got "${String(given[name]).slice(0, 40)}")`}` };
}

const { values: env, problem } = readEnvironment(process.env);

/** Refuses a malformed variable with one line naming it (main prints it and exits 1). */
export function validateEnvironment(variables: Record<string, string | undefined> = process.env): void {
  const found = variables === process.env ? problem : readEnvironment(variables).problem;
  if (found) throw new ConfigurationError(found);
}

export const config = {
  port: env.PORT,
  host: env.HOST,
  databaseUrl: env.DATABASE_URL,
  /** A direct (session) URL for LISTEN and the migration lock, when DATABASE_URL goes through a pooler in transaction mode. */
  databaseListenUrl: env.DATABASE_LISTEN_URL,
  /**
   * A streaming replica for reads (db/read-routing.ts): how far behind it may be before reads skip it,
   * and how often each instance reads its position.
   */
  readReplica: env.DATABASE_READ_URL
    ? { url: env.DATABASE_READ_URL, maxLagMs: env.DATABASE_READ_MAX_LAG_MS, refreshMs: env.DATABASE_READ_REFRESH_MS }
    : undefined,
  dataDir: env.DATA_DIR,
  logRequests: env.LOG_REQUESTS,
  maxConnections: env.DATABASE_POOL_SIZE,
  /** Named prepared statements on PostgreSQL (parsed and planned once per connection); `false` behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21). */
  prepareStatements: env.DATABASE_PREPARE,
  /** How a select's rows become objects (db/driver-adapter.ts): a function generated per column list, a plain loop (no code generation), or drizzle's own mapping. */
  rowDecoder: env.DATABASE_ROW_DECODER,
  /** Processes serving the one port (http/workers.ts): one per core on PostgreSQL; the embedded database serves one. */
  processes: env.WEB_CONCURRENCY,
  /** How long a checked credential is reused without a statement (0: never), and how many are kept (auth/credential-cache.ts). */
  credentialCache: { seconds: env.CREDENTIAL_CACHE_SECONDS, size: env.CREDENTIAL_CACHE_SIZE },
  /** Where clients reach this service: the base of the links it hands out (SCORM launch URIs). */
  publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
  /** Schools are served at `<subdomain>.<this>`; redirects may go there (and to a school's own domains). */
  schoolsBaseDomain: env.SCHOOLS_BASE_DOMAIN.toLowerCase().replace(/^\.+/, ''),
  /** How long a SCORM launch URI stays valid. */
  scormLaunchTtlSeconds: env.SCORM_LAUNCH_TTL_SECONDS,
  /**
   * Behind a load balancer, the proxies whose X-Forwarded-For names the client (rate limits and logs
   * key on the client's address): `true` (any), a hop count, or addresses and CIDRs, comma separated.
   * Unset: the peer address is the client.
   */
  trustProxy: parseTrustProxy(env.TRUST_PROXY),
  /** Origins whose browser pages may call the service (CORS), comma separated; `*` for any (http/security.ts). */
  corsOrigins: env.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
  /** Token buckets per credential, and per client address without a valid one (http/rate-limit.ts). */
  rateLimit: {
    enabled: env.RATE_LIMIT_ENABLED,
    capacity: env.RATE_LIMIT_CAPACITY,
    refillPerSecond: env.RATE_LIMIT_REFILL_PER_SECOND,
    anonymousCapacity: env.RATE_LIMIT_ANONYMOUS_CAPACITY,
    anonymousRefillPerSecond: env.RATE_LIMIT_ANONYMOUS_REFILL_PER_SECOND,
  },
  /** How many messages a student may post in its enrollment channels within a minute (counted in PostgreSQL: every instance shares it); more is a 429. */
  studentMessagesPerMinute: env.STUDENT_MESSAGES_PER_MINUTE,
  /**
   * What WebSocket subscriptions may hold on one instance (graphql/socket-registry.ts): open sockets
   * per credential and per client address, how long a socket may stay without a credential, and how
   * often every open socket's credential is read again besides on each `credentials_changed` (0: only then).
   */
  sockets: {
    maxPerCredential: env.WS_MAX_SOCKETS_PER_CREDENTIAL,
    maxPerAddress: env.WS_MAX_SOCKETS_PER_ADDRESS,
    authenticateWithinMs: env.WS_CONNECTION_INIT_TIMEOUT_MS,
    recheckEveryMs: env.WS_CREDENTIAL_RECHECK_SECONDS * 1000,
  },
  /** What one GraphQL document may ask (graphql/limits.ts); beyond any limit it is refused before it runs. */
  graphql: {
    maxDepth: env.GRAPHQL_MAX_DEPTH,
    maxAliases: env.GRAPHQL_MAX_ALIASES,
    maxDirectives: env.GRAPHQL_MAX_DIRECTIVES,
    maxTokens: env.GRAPHQL_MAX_TOKENS,
    maxCost: env.GRAPHQL_MAX_COST,
    maxObjects: env.GRAPHQL_MAX_OBJECTS,
    maxResultBytes: env.GRAPHQL_MAX_RESULT_BYTES,
    timeoutMs: env.GRAPHQL_TIMEOUT_MS,
    introspection: env.GRAPHQL_INTROSPECTION,
  },
  /** How often each instance reads the lists' sizes from the database's statistics for the static cost (graphql/list-bounds.ts); 0: never, lists priced by constants. */
  listBoundsSeconds: env.GRAPHQL_LIST_BOUNDS_SECONDS,
  /** Days the outbox keeps events (the pull feed and redelivery reach back that far); at least 2, past the webhook retries. */
  eventRetentionDays: env.EVENT_RETENTION_DAYS,
  /**
   * Recurring orders (modules/orders/order.recurring.ts): an invoice the scheduler opens falls due
   * `dueDays` later, is overdue past that and unpaid (access suspended) `graceDays` after; a school's
   * billing settings override both. The scheduler looks for due work every `schedulerIntervalMs`.
   */
  billing: { dueDays: env.BILLING_DUE_DAYS, graceDays: env.BILLING_GRACE_DAYS, schedulerIntervalMs: env.BILLING_SCHEDULER_INTERVAL_SECONDS * 1000 },
  /** Sign-in, its sessions and throttle, password resets (modules/identity/). */
  identity: {
    accessTokenSeconds: env.ACCESS_TOKEN_MINUTES * 60,
    refreshTokenSeconds: env.REFRESH_TOKEN_DAYS * 86_400,
    failureWindowSeconds: env.SIGN_IN_WINDOW_SECONDS,
    maxFailures: env.SIGN_IN_MAX_FAILURES,
    maxFailuresPerAddress: env.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
    passwordResetSeconds: env.PASSWORD_RESET_MINUTES * 60,
  } as IdentitySettings,
  /** How often each instance records when its tokens were last used (one UPDATE), and how stale the record may be (auth/token-usage.ts). */
  tokenLastUsedSeconds: env.TOKEN_LAST_USED_SECONDS,
  /** Lets webhooks go to loopback and private addresses (development, tests); off, an integration cannot probe the service's network. */
  webhooksAllowPrivateNetworks: env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
  /**
   * Single sign-on (modules/sso/): OpenID issuers may be plain http and loopback or private
   * addresses (development and tests only: off, an issuer must be https on a public address); how
   * long a started OpenID sign-in may be finished; how old a JWT SSO token may be (its `iat`).
   */
  sso: {
    allowInsecureIssuers: env.SSO_ALLOW_INSECURE_ISSUERS,
    oidcStateTtlSeconds: env.SSO_OIDC_STATE_TTL_SECONDS,
    jwtMaxAgeSeconds: env.SSO_JWT_MAX_AGE_SECONDS,
  },
  /**
   * Transactional e-mail (modules/mail): the SMTP server mails go through (`smtp://user:pass@host:587`,
   * `smtps://...:465`); unset, mails are kept in the database and read through GET /mails. MAIL_FROM is
   * the sender address; the sender name is the school's (its mail settings, else its name).
   */
  mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
  /** How long a stop waits for requests in flight (and a primary for its workers) before it gives up on them. */
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  /** `production` hides the playground's development token and makes SECRETS_KEY required. */
  nodeEnv: env.NODE_ENV,
  /** What auth/secrets.ts chooses the key from. */
  secrets: { SECRETS_KEY: env.SECRETS_KEY, NODE_ENV: env.NODE_ENV, DATABASE_URL: env.DATABASE_URL },
};

/** What sign-in issues and allows (config.identity; tests give an app smaller or larger ones). */
export interface IdentitySettings {
  /** How long an access token of a session lives. */
  accessTokenSeconds: number;
  /** How long a refresh token lives (each refresh issues a new one). */
  refreshTokenSeconds: number;
  /** Failed sign-ins are counted over this window, per account and per client address. */
  failureWindowSeconds: number;
  /** Failures of one account within the window before sign-in answers 429. */
  maxFailures: number;
  /** Failures from one client address within the window before sign-in answers 429. */
  maxFailuresPerAddress: number;
  /** How long a password reset link works. */
  passwordResetSeconds: number;
}

/** TRUST_PROXY as Fastify's `trustProxy` takes it. */
export function parseTrustProxy(value: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  const text = value?.trim() ?? '';
  if (!text || text === 'false') return false;
  if (text === 'true') return true;
  // A hop count: trust that many proxies in front of the service.
  if (/^\d+$/.test(text)) return (_address, hop) => hop < Number(text);
  return text.split(',').map((a) => a.trim()).filter(Boolean);
}

