import { isIPv6 } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { digestToken, tokenFromHeader } from '../auth/credential.js';
import { config } from '../config.js';
import type { Db } from '../db/client.js';
import { apiTokens } from '../auth/api-token.table.js';
import { requestLocale } from '../errors/i18n.js';
import { errorReply, sendErrorReply } from '../errors/reply.js';
import { rateLimitBuckets } from './rate-limit.table.js';
import { rowsOf } from '../db/rows.js';

export interface RateLimitSettings {
  enabled: boolean;
  /** A valid credential's bucket: its size (the burst) and how many tokens come back a second. */
  capacity: number;
  refillPerSecond: number;
  /** The bucket of a client address, for requests without a valid credential. */
  anonymousCapacity: number;
  anonymousRefillPerSecond: number;
  /**
   * Development on the embedded database (server.ts sets it; never on PostgreSQL or in production):
   * a client on this machine without a credential pays into its address's bucket at a credential's
   * size and refill, so a local playground, script or GraphQL-over-HTTP audit (61 requests at once)
   * is not throttled like a stranger. Every other address keeps the anonymous budget.
   */
  developmentLoopback?: boolean;
}

export interface RateLimitDeps {
  db: Db;
  now: () => Date;
  /** Overrides of the configured settings (tests set small budgets or turn the limit off). */
  settings?: Partial<RateLimitSettings>;
}

/** Probes (a load balancer's health and readiness checks) and the favicon are never throttled. */
const UNLIMITED_PATHS = new Set(['/health', '/healthz', '/ready', '/readyz', '/livez', '/favicon.ico']);
/** Buckets full for this long are deleted (a missing bucket is a full one); sweeps run at most once a minute per process. */
const IDLE_SECONDS = 3600;
const SWEEP_EVERY_MS = 60_000;

interface Charge {
  granted: boolean;
  /** Tokens left after this request. */
  tokens: number;
  capacity: number;
  refillPerSecond: number;
}

/**
 * A token bucket per credential (keyed by the token's SHA-256 digest) and per client address for
 * requests without a valid credential, kept in the database so that every instance shares it.
 * Each request is charged by one statement; 429 when the bucket is empty, `RateLimit-*` headers always.
 */
export function registerRateLimit(app: FastifyInstance, deps: RateLimitDeps): void {
  const wanted = { ...config.rateLimit, ...deps.settings };
  if (!wanted.enabled) return;
  const settings = checkedSettings(wanted);
  // The budget of a loopback client in development: a credential's, or the anonymous one if larger.
  const local = {
    ...settings,
    anonymousCapacity: Math.max(settings.capacity, settings.anonymousCapacity),
    anonymousRefillPerSecond: Math.max(settings.refillPerSecond, settings.anonymousRefillPerSecond),
  };
  let nextSweep = 0;

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || UNLIMITED_PATHS.has(request.routeOptions.url ?? '')) return;
    const now = deps.now();
    let charge: Charge;
    try {
      if (now.getTime() >= nextSweep) {
        nextSweep = now.getTime() + SWEEP_EVERY_MS;
        await sweep(deps.db, now, settings);
      }
      charge = await chargeRequest(deps.db, now, callerOf(request), settings.developmentLoopback && onThisMachine(request) ? local : settings);
    } catch (error) {
      // The limit protects the service; it must not take it down when the database hiccups.
      // The error's cause is logged, never its statement (http/logging.ts's serializer).
      request.log.error({ err: error }, 'rate limit not applied: the database did not answer');
      return;
    }
    reply.headers({
      'RateLimit-Limit': charge.capacity,
      'RateLimit-Remaining': Math.floor(charge.tokens),
      'RateLimit-Reset': Math.ceil((charge.capacity - charge.tokens) / charge.refillPerSecond),
    });
    if (!charge.granted) return refuse(request, reply, retryAfterOf(charge));
  });
}

/** Who pays for a request or a subscribe frame: a credential's digest (when it names one) and the client's address. */
export interface Caller {
  digest: string | null;
  address: string;
}

/** Charges one subscribe frame; resolves to null when it may run, or to the seconds until the bucket holds a token again. */
export type FrameCharge = (caller: Caller) => Promise<{ retryAfter: number } | null>;

/**
 * The same buckets for what arrives over a WebSocket (graphql/subscriptions.ts): each subscribe
 * frame pays one token, from the bucket of the credential it runs with or, without a valid one, of
 * the socket's client address, exactly as an HTTP request would. Undefined when the limit is off.
 * As on HTTP, a database that does not answer lets the frame through (`onFailure` hears of it).
 */
export function frameCharge(deps: RateLimitDeps & { onFailure: (error: unknown) => void }): FrameCharge | undefined {
  const wanted = { ...config.rateLimit, ...deps.settings };
  if (!wanted.enabled) return undefined;
  const settings = checkedSettings(wanted);
  return async (caller) => {
    let charge: Charge;
    try {
      charge = await chargeRequest(deps.db, deps.now(), caller, settings);
    } catch (error) {
      deps.onFailure(error);
      return null;
    }
    return charge.granted ? null : { retryAfter: retryAfterOf(charge) };
  };
}

const retryAfterOf = (charge: Charge) => Math.ceil((1 - charge.tokens) / charge.refillPerSecond);

/** The message of a refusal, on HTTP and on a socket. */
export const tooManyRequests = (retryAfter: number) => `Too many requests: retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`;

function refuse(request: FastifyRequest, reply: FastifyReply, retryAfter: number): FastifyReply {
  const message = tooManyRequests(retryAfter);
  reply.header('Retry-After', retryAfter);
  const locale = requestLocale(request.headers);
  if (request.routeOptions.url === '/graphql') return sendErrorReply(reply, errorReply('graphql-http', { code: 'rate_limited', message, extensions: { retryAfter } }, locale));
  return sendErrorReply(reply, errorReply('rest', { code: 'rate_limited', message }, locale));
}

/** Who pays: the credential's digest when the request names one, and the client's address. */
function callerOf(request: FastifyRequest): Caller {
  const token = tokenFromHeader(request.headers.authorization);
  return { digest: token ? digestToken(token) : null, address: addressKey(request.ip) };
}

const loopback = (address: string | undefined) => !!address && (/^(?:::ffff:)?127\./i.test(address) || address === '::1');

/**
 * Whether a request comes from this machine: its peer and every address its X-Forwarded-For names
 * are loopback. Read whatever TRUST_PROXY says, so a local proxy passing a remote client's request,
 * or a remote client naming 127.0.0.1 itself, never counts as local.
 */
function onThisMachine(request: Pick<FastifyRequest, 'headers' | 'socket'>): boolean {
  const forwarded = [request.headers['x-forwarded-for'] ?? []].flat().flatMap((value) => value.split(','));
  return loopback(request.socket.remoteAddress) && forwarded.every((address) => loopback(address.trim()));
}

/** An IPv6 client owns a whole /64, so it is one address; an IPv4-mapped IPv6 address is its IPv4 one. */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const bare = ip.split('%')[0];
  if (!isIPv6(bare)) return ip;
  const [head, tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = bare.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/**
 * One atomic statement: picks the bucket (the credential's when the token is valid, else the
 * address's), refills it by the time elapsed, takes a token if one is there, and returns what is
 * left. The row lock of ON CONFLICT DO UPDATE serialises concurrent requests of every instance.
 */
async function chargeRequest(db: Db, now: Date, caller: Caller, s: RateLimitSettings): Promise<Charge> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const { tokens, refilledAt } = rateLimitBuckets;
  const capacity = sql`(select capacity from caller)`;
  const rate = sql`(select rate from caller)`;
  const elapsed = sql`greatest(0, extract(epoch from ${at} - ${refilledAt})::float8)`;
  const available = sql`least(${capacity}, ${tokens} + ${rate} * ${elapsed})`;
  const result = await db.execute(sql`
    with verified as (
      select exists (
        select 1 from ${apiTokens} where ${apiTokens.tokenDigest} = ${caller.digest} and ${apiTokens.revokedAt} is null
          and (${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > ${at})
      ) as valid
    ), caller as (
      select
        case when valid then ${`credential:${caller.digest}`} else ${`address:${caller.address}`} end as key,
        case when valid then ${s.capacity} else ${s.anonymousCapacity} end::float8 as capacity,
        case when valid then ${s.refillPerSecond} else ${s.anonymousRefillPerSecond} end::float8 as rate
      from verified
    )
    insert into ${rateLimitBuckets} (key, tokens, refilled_at, granted)
    select key, capacity - 1, ${at}, true from caller
    on conflict (key) do update set
      tokens = ${available} - case when ${available} >= 1 then 1 else 0 end,
      granted = ${available} >= 1,
      refilled_at = greatest(${refilledAt}, ${at})
    returning ${tokens} as tokens, ${rateLimitBuckets.granted} as granted, (select capacity from caller) as capacity, (select rate from caller) as rate`);
  const [row] = rowsOf<{ tokens: number; granted: boolean; capacity: number; rate: number }>(result);
  return { granted: row.granted, tokens: Number(row.tokens), capacity: Number(row.capacity), refillPerSecond: Number(row.rate) };
}

/** Deletes buckets that have been full for an hour: they weigh the same as no bucket at all. */
async function sweep(db: Db, now: Date, s: RateLimitSettings): Promise<void> {
  const fullAfter = Math.max(s.capacity / s.refillPerSecond, s.anonymousCapacity / s.anonymousRefillPerSecond);
  const cutoff = new Date(now.getTime() - (fullAfter + IDLE_SECONDS) * 1000);
  await db.delete(rateLimitBuckets).where(sql`${rateLimitBuckets.refilledAt} < ${cutoff.toISOString()}::timestamptz`);
}

/** Bad numbers stop start-up with the variable's name rather than limiting oddly. */
function checkedSettings(s: RateLimitSettings): RateLimitSettings {
  const sizes = { RATE_LIMIT_CAPACITY: s.capacity, RATE_LIMIT_ANONYMOUS_CAPACITY: s.anonymousCapacity };
  const rates = { RATE_LIMIT_REFILL_PER_SECOND: s.refillPerSecond, RATE_LIMIT_ANONYMOUS_REFILL_PER_SECOND: s.anonymousRefillPerSecond };
  for (const [variable, value] of Object.entries(sizes))
    if (!(Number.isFinite(value) && value >= 1)) throw new Error(`${variable} must be a number of at least 1 (got ${value})`);
  for (const [variable, value] of Object.entries(rates))
    if (!(Number.isFinite(value) && value > 0)) throw new Error(`${variable} must be a number above 0 (got ${value})`);
  return s;
}
