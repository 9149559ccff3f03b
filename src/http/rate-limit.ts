import { isIPv6 } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { credentialDigest, tokenFromHeader } from '../auth/credential.js';
import { config } from '../config.js';
import type { Db } from '../db/client.js';
import { apiTokens } from '../auth/api-token.table.js';
import { requestLocale } from '../errors/i18n.js';
import { errorReply, sendErrorReply } from '../errors/reply.js';
import { rateLimitBuckets } from './rate-limit.table.js';
import { rowsOf } from '../db/rows.js';
import { preparedRaw } from '../db/driver-adapter.js';
import { remembered } from '../lib/remembered.js';

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
/**
 * An instance leases a tenth of a bucket at a time and spends it in memory; a slice is spendable for
 * LEASE_MS, then what is left goes back with the next lease. The README states what this allows.
 */
const LEASE_FRACTION = 0.1;
const LEASE_MS = 1000;
/** Leases one instance keeps; past it, stale ones are dropped, and a new key pays by statement until room frees. */
const MAX_LEASES = 20_000;

interface Charge {
  granted: boolean;
  /** Tokens left after this request (the bucket's, plus what this instance still holds of it). */
  tokens: number;
  capacity: number;
  refillPerSecond: number;
  /** Seconds until a token is there again (refusals only). */
  retryAfter?: number;
}

/** What one lease statement answered. */
interface Leased {
  /** Tokens taken from the bucket for this instance. */
  taken: number;
  /** The bucket's tokens after the lease. */
  left: number;
  capacity: number;
  refillPerSecond: number;
  /** Whether the request's token was valid: only a credential's bucket is leased ahead. */
  credential: boolean;
}

/** A slice of one bucket held by this instance. */
interface Lease {
  tokens: number;
  left: number;
  capacity: number;
  refillPerSecond: number;
  expiresAt: number;
  /** Answered from memory with 429 until then: the bucket had no token when last asked. */
  refusedUntil: number;
  /** Tokens the last lease took: the next is leased ahead once fewer than half of them are left. */
  slice: number;
  renewing?: Promise<void>;
}

/**
 * The rate limit's buckets as one instance spends them. Buckets are rows shared by every instance
 * (token buckets per credential, keyed by the token's SHA-256 digest, and per client address for
 * requests without a valid credential); an instance leases a slice of a bucket in one statement and
 * charges requests from memory until it is spent or stale, and answers refusals from memory until
 * the bucket holds a token again. So a busy credential costs one statement per slice, not per request.
 */
export class RateLimiter {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /**
   * The charge answered from what the instance holds (a token of its slice, or a refusal it knows
   * of), with no statement and no promise; undefined when the bucket must be asked (charge).
   */
  chargeHeld(caller: Caller, s: RateLimitSettings, at = this.now().getTime()): Charge | undefined {
    const key = keyOf(caller);
    return this.fromLease(key, this.leases.get(key), caller, s, at);
  }

  private fromLease(key: string, lease: Lease | undefined, caller: Caller, s: RateLimitSettings, at: number): Charge | undefined {
    if (!lease) return undefined;
    // What the instance holds is spent first: a refused lease may follow one that left tokens here.
    if (lease.tokens >= 1 && at < lease.expiresAt) {
      lease.tokens -= 1;
      // Half spent: the next slice is leased now, beside this request, so that the requests after it
      // need not wait for the statement (a busy key otherwise paid one round trip per slice).
      if (!lease.renewing && lease.tokens < lease.slice / 2 && lease.refusedUntil <= at) this.leaseAhead(key, lease, caller, s, at);
      return { granted: true, tokens: lease.left + lease.tokens, capacity: lease.capacity, refillPerSecond: lease.refillPerSecond };
    }
    if (lease.refusedUntil > at) return refusal(lease, Math.ceil((lease.refusedUntil - at) / 1000));
    return undefined;
  }

  async charge(caller: Caller, s: RateLimitSettings): Promise<Charge> {
    const key = keyOf(caller);
    // Bounded: a request that keeps finding the slice spent by others renews by itself in the end.
    for (let round = 0; ; round++) {
      const at = this.now().getTime();
      let lease = this.leases.get(key);
      if (lease) {
        const held = this.fromLease(key, lease, caller, s, at);
        if (held) return held;
        if (lease.renewing && round < 32) {
          await lease.renewing;
          continue;
        }
      } else {
        // Held before the statement, so concurrent requests of the key wait for this one's slice.
        lease = this.hold(key, at);
      }
      return this.renew(key, lease, caller, s, at);
    }
  }

  /**
   * One statement: gives back what is left of a stale slice, takes a new one, and charges this
   * request from it. Without a lease (no room to hold one), it takes this request's token only.
   */
  private renew(key: string, lease: Lease | undefined, caller: Caller, s: RateLimitSettings, at: number): Promise<Charge> {
    return whileRenewing(lease, async () => {
      const returned = lease && at >= lease.expiresAt ? Math.floor(lease.tokens) : 0;
      const got = await leaseTokens(this.db, new Date(at), caller, s, { returned, single: !lease });
      const next = {
        tokens: (lease?.tokens ?? 0) - returned + Math.max(0, got.taken - 1),
        left: got.left,
        capacity: got.capacity,
        refillPerSecond: got.refillPerSecond,
        expiresAt: at + LEASE_MS,
        refusedUntil: got.taken >= 1 ? 0 : at + secondsToToken(got) * 1000,
        slice: got.taken,
      };
      // A wrong token's request paid one token of its address's bucket: nothing is held under its digest.
      if (lease && (got.credential || !caller.digest)) Object.assign(lease, next);
      else if (lease) this.leases.delete(key);
      if (got.taken < 1) {
        // The bucket is empty, but a renewal that ran beside this one may have left tokens here.
        if (lease && lease.tokens >= 1 && at < lease.expiresAt) {
          lease.tokens -= 1;
          return { granted: true, tokens: lease.left + lease.tokens, capacity: lease.capacity, refillPerSecond: lease.refillPerSecond };
        }
        return refusal(next, Math.ceil(secondsToToken(got)));
      }
      return { granted: true, tokens: next.left + next.tokens, capacity: next.capacity, refillPerSecond: next.refillPerSecond };
    });
  }

  /**
   * Takes the next slice while the rest of this one is spent. What is left of this one is spent with
   * it until the new lease's second is over (never more than half a slice). A statement that fails
   * leaves the lease as it was: the request that finds it spent leases by itself, and answers for the failure.
   */
  private leaseAhead(key: string, lease: Lease, caller: Caller, s: RateLimitSettings, at: number): void {
    whileRenewing(lease, async () => {
      const got = await leaseTokens(this.db, new Date(at), caller, s, { returned: 0, single: false });
      // The token stopped being valid: its key leases nothing more.
      if (caller.digest && !got.credential) return void this.leases.delete(key);
      Object.assign(lease, { left: got.left, capacity: got.capacity, refillPerSecond: got.refillPerSecond });
      if (got.taken >= 1) Object.assign(lease, { tokens: lease.tokens + got.taken, expiresAt: at + LEASE_MS, slice: got.taken });
      else lease.refusedUntil = at + secondsToToken(got) * 1000;
    }).catch(() => {});
  }

  /** An empty lease for a key, kept unless the instance already holds MAX_LEASES live ones. */
  private hold(key: string, at: number): Lease | undefined {
    if (this.leases.size >= MAX_LEASES) {
      for (const [old, held] of this.leases) if (held.expiresAt <= at && held.refusedUntil <= at && !held.renewing) this.leases.delete(old);
      if (this.leases.size >= MAX_LEASES) return undefined;
    }
    const lease: Lease = { tokens: 0, left: 0, capacity: 0, refillPerSecond: 0, expiresAt: 0, refusedUntil: 0, slice: 0 };
    this.leases.set(key, lease);
    return lease;
  }
}

/**
 * Runs a lease statement and what follows from it with `lease` marked as renewing, so that the
 * requests finding its slice spent wait for this one rather than send their own.
 */
async function whileRenewing<T>(lease: Lease | undefined, work: () => Promise<T>): Promise<T> {
  if (!lease) return work();
  let done!: () => void;
  lease.renewing = new Promise<void>((resolve) => (done = resolve));
  try {
    return await work();
  } finally {
    lease.renewing = undefined;
    done();
  }
}

/** The bucket a caller pays from: its credential's, else its address's. */
const keyOf = (caller: Caller) => (caller.digest ? `credential:${caller.digest}` : `address:${caller.address}`);

/** Seconds until an emptied bucket holds a token again. */
const secondsToToken = (got: Leased) => (1 - got.left) / got.refillPerSecond;

const refusal = (lease: Lease, retryAfter: number): Charge => ({
  granted: false,
  tokens: lease.left,
  capacity: lease.capacity,
  refillPerSecond: lease.refillPerSecond,
  retryAfter: Math.max(1, retryAfter),
});

/** The instance's limiter, or undefined when the limit is off. Requests and subscribe frames share it. */
export function rateLimiter(deps: RateLimitDeps): { limiter: RateLimiter; settings: RateLimitSettings } | undefined {
  const wanted = { ...config.rateLimit, ...deps.settings };
  if (!wanted.enabled) return undefined;
  return { limiter: new RateLimiter(deps.db, deps.now), settings: checkedSettings(wanted) };
}

/** Charges every request but probes and preflights; 429 when the bucket is empty, `RateLimit-*` headers always. */
export function registerRateLimit(app: FastifyInstance, deps: RateLimitDeps, limit = rateLimiter(deps)): void {
  if (!limit) return;
  const { limiter, settings } = limit;
  // The budget of a loopback client in development: a credential's, or the anonymous one if larger.
  const local = {
    ...settings,
    anonymousCapacity: Math.max(settings.capacity, settings.anonymousCapacity),
    anonymousRefillPerSecond: Math.max(settings.refillPerSecond, settings.anonymousRefillPerSecond),
  };
  let nextSweep = 0;

  const charged = (request: FastifyRequest, reply: FastifyReply, charge: Charge, done: () => void) => {
    reply.headers({
      'RateLimit-Limit': charge.capacity,
      'RateLimit-Remaining': Math.floor(charge.tokens),
      'RateLimit-Reset': Math.ceil((charge.capacity - charge.tokens) / charge.refillPerSecond),
    });
    if (!charge.granted) return void refuse(request, reply, charge.retryAfter ?? 1);
    done();
  };
  const askBucket = async (caller: Caller, s: RateLimitSettings, now: Date): Promise<Charge> => {
    if (now.getTime() >= nextSweep) {
      nextSweep = now.getTime() + SWEEP_EVERY_MS;
      await sweep(deps.db, now, settings);
    }
    return limiter.charge(caller, s);
  };

  // A callback hook: a request charged from the instance's slice (most of them) goes on at once, with no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS' || UNLIMITED_PATHS.has(request.routeOptions.url ?? '')) return done();
    const now = deps.now();
    const at = now.getTime();
    const caller = callerOf(request);
    const s = settings.developmentLoopback && onThisMachine(request) ? local : settings;
    const held = at < nextSweep ? limiter.chargeHeld(caller, s, at) : undefined;
    if (held) return charged(request, reply, held, done);
    askBucket(caller, s, now).then(
      (charge) => charged(request, reply, charge, done),
      (error: unknown) => {
        // The limit protects the service; it must not take it down when the database hiccups.
        // The error's cause is logged, never its statement (http/logging.ts's serializer).
        request.log.error({ err: error }, 'rate limit not applied: the database did not answer');
        done();
      },
    );
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
export function frameCharge(
  limit: ReturnType<typeof rateLimiter>,
  onFailure: (error: unknown) => void,
): FrameCharge | undefined {
  if (!limit) return undefined;
  return async (caller) => {
    let charge: Charge;
    try {
      charge = await limit.limiter.charge(caller, limit.settings);
    } catch (error) {
      onFailure(error);
      return null;
    }
    return charge.granted ? null : { retryAfter: charge.retryAfter ?? 1 };
  };
}

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
  return { digest: token ? credentialDigest(token) : null, address: addressKey(request.ip) };
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

/** An IPv6 client owns a whole /64, so it is one address; an IPv4-mapped IPv6 address is its IPv4 one. Remembered: a client sends many requests, and isIPv6 runs a long expression. */
export const addressKey = remembered(1024, keyOfAddress);

function keyOfAddress(ip: string): string {
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

const leaseStatement = preparedRaw(leaseSql());

function leaseSql() {
  const value = (name: string) => sql.placeholder(name);
  const at = sql`${value('at')}::timestamptz`;
  const { tokens, refilledAt, granted } = rateLimitBuckets;
  const capacity = sql`(select capacity from caller)`;
  const rate = sql`(select rate from caller)`;
  const slice = sql`(select slice from caller)`;
  const elapsed = sql`greatest(0, extract(epoch from ${at} - ${refilledAt})::float8)`;
  const available = sql`least(${capacity}, ${tokens} + ${rate} * ${elapsed} + ${value('returned')}::float8)`;
  const taken = sql`least(${slice}, floor(${available}))`;
  return sql`
    with verified as (
      select exists (
        select 1 from ${apiTokens} where ${apiTokens.tokenDigest} = ${value('digest')} and ${apiTokens.revokedAt} is null
          and (${apiTokens.expiresAt} is null or ${apiTokens.expiresAt} > ${at})
      ) as valid
    ), caller as (
      select
        valid,
        case when valid then ${value('credentialKey')} else ${value('addressKey')} end as key,
        case when valid then ${value('capacity')} else ${value('anonymousCapacity')} end::float8 as capacity,
        case when valid then ${value('rate')} else ${value('anonymousRate')} end::float8 as rate,
        case when ${value('single')} then 1 when valid then ${value('slice')} when ${value('digest')}::text is null then ${value('anonymousSlice')} else 1 end::float8 as slice
      from verified
    )
    insert into ${rateLimitBuckets} (key, tokens, refilled_at, granted)
    select key, capacity - least(slice, capacity), ${at}, least(slice, capacity) from caller
    on conflict (key) do update set
      tokens = ${available} - ${taken},
      granted = ${taken},
      refilled_at = greatest(${refilledAt}, ${at})
    returning ${tokens} as tokens, ${granted} as taken, (select capacity from caller) as capacity, (select rate from caller) as rate, (select valid from caller) as valid`;
}

/**
 * One atomic statement: picks the bucket (the credential's when the token is valid, else the
 * address's), refills it by the time elapsed plus what the instance gives back, and takes a slice
 * (a tenth of a credential's or an address's bucket, at least one token; one for a wrong token),
 * or what is there. The row lock of ON CONFLICT DO UPDATE serialises the instances' leases.
 * Its text is made once (leaseSql); each lease sends only its values.
 */
async function leaseTokens(db: Db, now: Date, caller: Caller, s: RateLimitSettings, { returned, single }: { returned: number; single: boolean }): Promise<Leased> {
  const sliceOf = (size: number) => Math.max(1, Math.floor(size * LEASE_FRACTION));
  const result = await leaseStatement(db).execute({
    at: now.toISOString(),
    digest: caller.digest,
    credentialKey: `credential:${caller.digest}`,
    addressKey: `address:${caller.address}`,
    capacity: s.capacity,
    anonymousCapacity: s.anonymousCapacity,
    rate: s.refillPerSecond,
    anonymousRate: s.anonymousRefillPerSecond,
    single,
    slice: sliceOf(s.capacity),
    anonymousSlice: sliceOf(s.anonymousCapacity),
    returned,
  });
  const [row] = rowsOf<{ tokens: number; taken: number; capacity: number; rate: number; valid: boolean }>(result);
  return { taken: Number(row.taken), left: Number(row.tokens), capacity: Number(row.capacity), refillPerSecond: Number(row.rate), credential: row.valid };
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
