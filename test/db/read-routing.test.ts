import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { chooseReader, connectionLost, LagClock, parseLsn, ReadRouter, type ReplicaState } from '../../src/db/read-routing.js';
import { rowsOf } from '../../src/db/rows.js';
import { type Service, startService } from '../support/service.js';

// The routing rule of DATABASE_READ_URL (src/db/read-routing.ts). The replica itself, its lag and
// read-your-writes across instances are checked end to end by npm run test:cluster.
const settings = { maxLagMs: 1000, staleAfterMs: 500 };
const replica = (overrides: Partial<ReplicaState> = {}): ReplicaState => ({ up: true, replayLsn: parseLsn('0/3000'), lagMs: 0, checkedAt: 10_000, ...overrides });

describe('parseLsn', () => {
  it('given LSNs as PostgreSQL prints them, then they order as WAL positions', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('given text that is no LSN, then it throws', () => {
    expect(() => parseLsn('16B3748')).toThrow('not an LSN');
  });
});

describe('chooseReader', () => {
  it('given a replica caught up and no write of the credential, then the read goes to the replica', () => {
    expect(chooseReader(replica(), null, settings, 10_100)).toBe('replica');
  });

  it('given a credential that wrote past what the replica replayed, then the primary; once replayed, the replica', () => {
    expect(chooseReader(replica(), parseLsn('0/3001'), settings, 10_100)).toBe('primary');
    expect(chooseReader(replica(), parseLsn('0/3000'), settings, 10_100)).toBe('replica');
  });

  it('given a replica down, lagging beyond the bound, or not looked at for too long, then the primary', () => {
    expect(chooseReader(null, null, settings, 10_100)).toBe('primary');
    expect(chooseReader(replica({ up: false }), null, settings, 10_100)).toBe('primary');
    expect(chooseReader(replica({ lagMs: 1001 }), null, settings, 10_100)).toBe('primary');
    expect(chooseReader(replica(), null, settings, 10_501)).toBe('primary');
  });
});

describe('LagClock', () => {
  it('given a replica at the primary position, then no lag; behind, the age of the newest primary position it has replayed', () => {
    const clock = new LagClock(60_000);
    expect(clock.observe(100n, 100n, 0)).toBe(0);
    expect(clock.observe(200n, 100n, 150)).toBe(150);
    expect(clock.observe(300n, 200n, 300)).toBe(150);
    expect(clock.observe(300n, 300n, 450)).toBe(0);
  });

  it('given a replica behind every position still kept, then at least the window', () => {
    const clock = new LagClock(1000);
    clock.observe(100n, 100n, 0);
    for (let at = 500; at <= 3000; at += 500) clock.observe(BigInt(100 + at), 100n, at);
    expect(clock.observe(5000n, 100n, 3500)).toBeGreaterThanOrEqual(1000);
  });
});

describe('connectionLost', () => {
  it("given a driver's connection error wrapped by drizzle and by GraphQL, then true; a query's own error, false", () => {
    const driver = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const drizzle = Object.assign(new Error('Failed query'), { cause: driver });
    expect(connectionLost({ originalError: drizzle })).toBe(true);
    expect(connectionLost(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(connectionLost(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(connectionLost({ originalError: Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }) })).toBe(true);
    expect(connectionLost(undefined)).toBe(false);
  });
});

describe('ReadRouter on a real database', () => {
  let service: Service;
  let database: Database;
  beforeAll(async () => {
    service = await startService();
    database = service.database;
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('given a "replica" that is not in recovery, then it is not used: every read goes to the primary', async () => {
    const router = new ReadRouter(database.db, database.db, { ...settings, refreshMs: 1000 });
    await router.start();
    router.stop();
    expect(router.state?.up).toBe(false);
    expect(await router.readerFor({ tokenId: 1 })).toBe(database.db);
  });

  it("given a credential's write, then its recorded position is the primary's, kept as the greatest of its writes", async () => {
    const router = new ReadRouter(database.db, database.db, { ...settings, refreshMs: 1000 });
    await router.start();
    router.stop();
    await router.wrote({ tokenId: 7 });
    await router.wrote(null);
    const [{ current }] = rowsOf<{ current: string }>(await database.db.execute(sql`select pg_current_wal_lsn()::text as current`));
    const recorded = rowsOf<{ token_id: string; lsn: string }>(await database.db.execute(sql`select token_id::text, lsn::text from read_your_writes`));
    expect(recorded.map((r) => r.token_id)).toEqual(['7']);
    expect(parseLsn(recorded[0].lsn) <= parseLsn(current)).toBe(true);
    await database.db.execute(sql`update read_your_writes set lsn = 'FF/0'`);
    await router.wrote({ tokenId: 7 });
    const [again] = rowsOf<{ lsn: string }>(await database.db.execute(sql`select lsn::text from read_your_writes`));
    expect(again.lsn).toBe('FF/0');
  });
});
