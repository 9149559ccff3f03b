import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { parseTrustProxy } from '../src/config.js';
import { digestToken } from '../src/auth/credential.js';
import { type Database, openDatabase } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { addressKey } from '../src/http/rate-limit.js';
import { rateLimitBuckets } from '../src/http/rate-limit.table.js';
import { type Service, startService } from './support/service.js';

// Small budgets so a test spends them in a few requests: 5 per credential, 3 per address.
const limits = { enabled: true, capacity: 5, refillPerSecond: 0.5, anonymousCapacity: 3, anonymousRefillPerSecond: 0.25 };

interface Hit {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

describe('rate limits', () => {
  let service: Service;
  /** A second pool over the same database on PostgreSQL, the same database object on PGlite. */
  let secondDatabase: Database;
  /** Two instances of the service sharing one database. */
  let instances: [FastifyInstance, FastifyInstance];
  let addresses = 0;

  beforeAll(async () => {
    service = await startService();
    secondDatabase = service.databaseUrl ? await openDatabase({ url: service.databaseUrl, maxConnections: 5 }) : service.database;
    instances = [
      await createApp({ database: service.database, now: service.clock.now, rateLimit: limits }),
      await createApp({ database: secondDatabase, now: service.clock.now, rateLimit: limits }),
    ];
  });
  afterAll(async () => {
    for (const app of instances ?? []) await app?.close();
    if (secondDatabase && secondDatabase !== service.database) await secondDatabase.close();
    await service?.stop();
  });

  const newToken = async () => (await service.token('platform')).token!;
  /** A client address no other test uses (each has a bucket of its own). */
  const newAddress = () => `198.51.100.${++addresses}`;
  const advanceSeconds = (seconds: number) => service.clock.set(new Date(service.clock.now().getTime() + seconds * 1000));

  async function hit(
    instance: 0 | 1,
    options: { token?: string; address?: string; url?: string; method?: 'GET' | 'POST'; payload?: object } = {},
  ): Promise<Hit> {
    const res = await instances[instance].inject({
      method: options.method ?? 'GET',
      url: options.url ?? '/schools',
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      remoteAddress: options.address ?? '192.0.2.1',
      ...(options.payload ? { payload: options.payload } : {}),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : null };
  }

  /** Sends requests alternating between the two instances; returns their replies. */
  async function alternate(count: number, options: Parameters<typeof hit>[1]): Promise<Hit[]> {
    const replies: Hit[] = [];
    for (let i = 0; i < count; i++) replies.push(await hit((i % 2) as 0 | 1, options));
    return replies;
  }

  it('keeps its buckets in an unlogged table: a lease commits without a WAL flush, and a crash only fills every bucket', async () => {
    const rows = await service.db.execute(sql`select relpersistence from pg_class where relname = 'rate_limit_buckets' and relkind = 'r'`);
    expect(rowsOf<{ relpersistence: string }>(rows)).toEqual([{ relpersistence: 'u' }]);
  });

  it('given two instances over one database, when one credential alternates between them, then they share its budget and refuse the request after it with 429 and the headers', async () => {
    const token = await newToken();
    const replies = await alternate(5, { token });
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies.map((r) => r.headers['ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0']);
    expect(replies.every((r) => r.headers['ratelimit-limit'] === '5')).toBe(true);

    const refused = await hit(1, { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      errors: { base: ['Too many requests: retry in 2 seconds'] },
      details: { base: [{ error: 'rate_limited' }] },
    });
    // One token comes back every 2 seconds; the whole bucket in 10.
    expect(refused.headers).toMatchObject({ 'retry-after': '2', 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'ratelimit-reset': '10' });
    expect((await hit(0, { token })).status).toBe(429);
  });

  it('given a spent budget, when the clock moves by less than Retry-After it is still 429, and when it reaches Retry-After one request passes', async () => {
    const token = await newToken();
    await alternate(5, { token });
    advanceSeconds(1);
    const early = await hit(0, { token });
    expect(early.status).toBe(429);
    expect(early.headers['retry-after']).toBe('1');

    advanceSeconds(1);
    const due = await hit(1, { token });
    expect(due.status).toBe(200);
    expect(due.headers['ratelimit-remaining']).toBe('0');
    expect((await hit(0, { token })).status).toBe(429);
  });

  it('given a spent budget, when the clock moves by the reset time, then the whole capacity is back and no more', async () => {
    const token = await newToken();
    await alternate(6, { token });
    advanceSeconds(60);
    const replies = await alternate(6, { token });
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('given requests without a credential, then one address has the anonymous budget and another address its own', async () => {
    const [address, other] = [newAddress(), newAddress()];
    const replies = await alternate(4, { address });
    expect(replies.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(replies[0].headers['ratelimit-limit']).toBe('3');
    expect(replies[3].headers['retry-after']).toBe('4');
    expect((await hit(0, { address: other })).status).toBe(401);
  });

  it('given wrong tokens, then each new token still spends its address budget, and a valid credential from that address keeps its own', async () => {
    const address = newAddress();
    const wrong = () => `lp_platform_${randomBytes(16).toString('hex')}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await hit((i % 2) as 0 | 1, { address, token: wrong() })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // A missing credential from the same address shares that bucket.
    expect((await hit(0, { address })).status).toBe(429);
    expect((await hit(1, { address, token: await newToken() })).status).toBe(200);
  });

  it('given a spent budget, when the request is GraphQL, then the 429 is a GraphQL error with the same facts and headers', async () => {
    const token = await newToken();
    const query = { query: '{ schools(first: 1) { totalCount } }' };
    const replies = await alternate(5, { token, url: '/graphql', method: 'POST', payload: query });
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies[4].headers['ratelimit-remaining']).toBe('0');

    const refused = await hit(1, { token, url: '/graphql', method: 'POST', payload: query });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      errors: [{ message: 'Too many requests: retry in 2 seconds', extensions: { code: 'RATE_LIMITED', retryAfter: 2 } }],
      // Nothing ran: the reply reports a cost of 0, as every /graphql reply reports its cost.
      extensions: { cost: { requested: 0, maximum: expect.any(Number) } },
    });
    expect(refused.headers).toMatchObject({ 'retry-after': '2', 'ratelimit-limit': '5', 'ratelimit-remaining': '0' });
  });

  it('given TRUST_PROXY names the load balancer, then clients behind it have budgets of their own; an untrusted peer cannot pick its address', async () => {
    const balancer = newAddress();
    const behind = await createApp({ database: service.database, now: service.clock.now, rateLimit: limits, trustProxy: parseTrustProxy(balancer) });
    try {
      const send = (app: FastifyInstance, peer: string, client: string) =>
        app.inject({ method: 'GET', url: '/schools', remoteAddress: peer, headers: { 'x-forwarded-for': client } }).then((r) => r.statusCode);
      const [first, second] = [newAddress(), newAddress()];
      // Behind the trusted balancer: each client spends its own 3 requests.
      for (const client of [first, second]) expect(await Promise.all([1, 2, 3].map(() => send(behind, balancer, client)))).toEqual([401, 401, 401]);
      expect(await send(behind, balancer, first)).toBe(429);
      // Without the setting, a forged X-Forwarded-For changes nothing: the peer's bucket pays.
      const peer = newAddress();
      for (let i = 0; i < 3; i++) expect(await send(instances[0], peer, newAddress())).toBe(401);
      expect(await send(instances[0], peer, newAddress())).toBe(429);
    } finally {
      await behind.close();
    }
  });

  it("given development (server.ts on the embedded database, not production), then a client on this machine without a credential has a credential's budget; every other client keeps the anonymous one", async () => {
    // TRUST_PROXY=true, the loosest setting: a forged X-Forwarded-For still cannot make a client local.
    const development = await createApp({ database: service.database, now: service.clock.now, rateLimit: { ...limits, developmentLoopback: true }, trustProxy: true });
    try {
      const send = async (app: FastifyInstance, peer: string, forwarded?: string) => {
        const res = await app.inject({ method: 'GET', url: '/schools', remoteAddress: peer, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} });
        return `${res.statusCode} of ${res.headers['ratelimit-limit']}`;
      };
      const spend = async (app: FastifyInstance, peer: string, forwarded?: string) => {
        const replies: string[] = [];
        for (let i = 0; i < 6; i++) replies.push(await send(app, peer, forwarded));
        return replies;
      };
      // This machine (IPv4, IPv4-mapped, IPv6, a local proxy for a local client): 5, the credential's capacity, then 429.
      const roomy = ['401 of 5', '401 of 5', '401 of 5', '401 of 5', '401 of 5', '429 of 5'];
      for (const [peer, forwarded] of [['127.0.0.7'], ['::ffff:127.0.0.8'], ['::1'], ['127.0.0.9', '127.0.0.10']])
        expect(await spend(development, peer, forwarded), `${peer} ${forwarded ?? ''}`).toEqual(roomy);
      // A remote client, a remote client through a proxy on this machine, one naming a loopback
      // address itself, and this machine without the development setting: the anonymous 3.
      const anonymous = ['401 of 3', '401 of 3', '401 of 3', '429 of 3', '429 of 3', '429 of 3'];
      for (const [app, peer, forwarded] of [
        [development, newAddress()],
        [development, '127.0.0.11', newAddress()],
        [development, newAddress(), '127.0.0.12'],
        [development, '127.0.0.13', `127.0.0.14, ${newAddress()}`],
        [instances[0], '127.0.0.15'],
      ] as const)
        expect(await spend(app, peer, forwarded), `${peer} ${forwarded ?? ''}`).toEqual(anonymous);
    } finally {
      await development.close();
    }
  });

  it('given a spent address budget, then the favicon still answers (it costs nothing) and carries no rate-limit headers', async () => {
    const address = newAddress();
    await alternate(4, { address });
    const icon = await instances[0].inject({ method: 'GET', url: '/favicon.ico', remoteAddress: address });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['ratelimit-limit']).toBeUndefined();
  });

  it('given a spent address budget, then the health check still answers and carries no rate-limit headers', async () => {
    const address = newAddress();
    await alternate(4, { address });
    const health = await hit(0, { address, url: '/health' });
    expect(health.status).toBe(200);
    expect(health.headers['ratelimit-limit']).toBeUndefined();
  });

  it('given parallel requests of one credential on both instances, then exactly the capacity succeeds', async () => {
    const token = await newToken();
    const replies = await Promise.all(Array.from({ length: 16 }, (_, i) => hit((i % 2) as 0 | 1, { token })));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(11);
    expect(replies.filter((r) => r.status === 200).map((r) => r.headers['ratelimit-remaining']).sort()).toEqual(['0', '1', '2', '3', '4']);
  });

  it('keys buckets by the token digest, never the clear token, and deletes buckets full for over an hour', async () => {
    const idle = await newToken();
    await hit(0, { token: idle });
    let keys = (await service.db.select({ key: rateLimitBuckets.key }).from(rateLimitBuckets)).map((r) => r.key);
    expect(keys).toContain(`credential:${digestToken(idle)}`);
    expect(keys.some((key) => key.includes(idle))).toBe(false);

    advanceSeconds(2 * 3600);
    const active = await newToken();
    await hit(0, { token: active });
    await hit(1, { token: active });
    keys = (await service.db.select({ key: rateLimitBuckets.key }).from(rateLimitBuckets)).map((r) => r.key);
    expect(keys).toEqual([`credential:${digestToken(active)}`]);
  });

  describe('leases', () => {
    // A bucket of 100 that hardly refills: each instance leases a tenth of it (10) at a time.
    const roomy = { enabled: true, capacity: 100, refillPerSecond: 0.001, anonymousCapacity: 50, anonymousRefillPerSecond: 0.001 };
    let leasing: [FastifyInstance, FastifyInstance];
    beforeAll(async () => {
      leasing = [
        await createApp({ database: service.database, now: service.clock.now, rateLimit: roomy }),
        await createApp({ database: secondDatabase, now: service.clock.now, rateLimit: roomy }),
      ];
    });
    afterAll(async () => {
      for (const app of leasing ?? []) await app?.close();
    });
    const typename = (instance: 0 | 1, token: string) =>
      leasing[instance].inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${token}` }, payload: { query: '{ __typename }' } });
    /** Statements both instances send while `work` runs (one database object on PGlite, two pools on PostgreSQL). */
    async function statementsOf(work: () => Promise<unknown>): Promise<number> {
      const databases = [...new Set([service.database, secondDatabase])];
      const before = databases.map((d) => d.statements.count);
      await work();
      return databases.reduce((sum, d, i) => sum + d.statements.count - before[i], 0);
    }

    it('given two instances spending one credential, then together they grant exactly its budget, lease it a tenth at a time and refuse from memory', async () => {
      const token = await newToken();
      const statuses: number[] = [];
      const spent = await statementsOf(async () => {
        for (let i = 0; i < 150; i++) statuses.push((await typename((i % 2) as 0 | 1, token)).statusCode);
      });
      // The stated tolerance: never more than the budget; the last slices are spent where they were leased.
      expect(statuses.filter((s) => s === 200)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(50);
      // 10 leases of 10, a refused lease per instance, the credential read once per instance: far from one per request.
      expect(spent).toBeLessThanOrEqual(20);
      // Refusals come from memory until the bucket holds a token again.
      expect(await statementsOf(async () => {
        for (let i = 0; i < 20; i++) expect((await typename((i % 2) as 0 | 1, token)).statusCode).toBe(429);
      })).toBe(0);
    });

    it('given a slice left unspent, then after the lease runs out it goes back to the bucket with the next lease', async () => {
      const token = await newToken();
      expect((await typename(0, token)).statusCode).toBe(200); // instance 0 holds 9
      advanceSeconds(2); // its lease is stale: the 9 can no longer be spent from memory
      const replies = [];
      for (let i = 0; i < 100; i++) replies.push((await typename(0, token)).statusCode);
      // The 9 came back with the next lease: the budget is whole, 99 more requests pass.
      expect(replies.filter((s) => s === 200)).toHaveLength(99);
      expect((await service.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, `credential:${digestToken(token)}`)))[0].tokens).toBeLessThan(1);
    });

    it('given a busy credential, then its next slice is leased while half of this one is left, and the requests after it pay no statement', async () => {
      const token = await newToken();
      const key = `credential:${digestToken(token)}`;
      const inBucket = async () => (await service.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, key)))[0].tokens;
      for (let i = 0; i < 5; i++) expect((await typename(0, token)).statusCode).toBe(200);
      expect(await inBucket()).toBe(90); // one slice of 10, 5 of it left here
      expect((await typename(0, token)).statusCode).toBe(200); // 4 left, under half: the next slice goes beside this request
      for (let wait = 0; (await inBucket()) !== 80 && wait < 100; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await inBucket()).toBe(80);
      // 14 held: eight more requests spend down to 6, still over half a slice, without a statement.
      expect(await statementsOf(async () => {
        for (let i = 0; i < 8; i++) expect((await typename(0, token)).statusCode).toBe(200);
      })).toBe(0);
    });

    it('given more requests at once than an address’s budget on one instance, then all but the excess pass: no slice is refused while tokens wait in another', async () => {
      const replies = await Promise.all(
        Array.from({ length: 51 }, () =>
          leasing[0].inject({ method: 'POST', url: '/graphql', payload: { query: '{ __typename }' }, remoteAddress: '198.51.100.250' }),
        ),
      );
      expect(replies.filter((r) => r.statusCode === 429)).toHaveLength(1);
    });

    it('given many requests at once on both instances, then the budget still holds exactly', async () => {
      const token = await newToken();
      const replies = await Promise.all(Array.from({ length: 130 }, (_, i) => typename((i % 2) as 0 | 1, token)));
      const ok = replies.filter((r) => r.statusCode === 200).length;
      // No more than the budget; at most one slice per instance still held unspent (refused early).
      expect(ok).toBeLessThanOrEqual(100);
      expect(ok).toBeGreaterThanOrEqual(100 - 2 * 10);
      // Once the leases are stale, what they held goes back: the two phases together spend exactly the budget.
      advanceSeconds(2);
      let later = 0;
      for (let i = 0; i < 40; i++) if ((await typename((i % 2) as 0 | 1, token)).statusCode === 200) later++;
      expect(ok + later).toBe(100);
    });
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });
});
