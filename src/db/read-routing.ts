import { sql } from 'drizzle-orm';
import type { Database, Db } from './client.js';
import { rowsOf } from './rows.js';

/** What routing needs of a credential (auth/credential.ts' Credential). */
type Credential = { tokenId: number };

/**
 * Reads from a streaming replica (DATABASE_READ_URL), the one place that decides where a request's
 * reads go. Queries and REST GETs may go to the replica; mutations, subscriptions, the event feed
 * (its snapshot rule needs the primary's running transactions) and background jobs stay on the
 * primary. Read-your-writes holds across instances: after a credential's mutation the primary's WAL
 * position is recorded in PostgreSQL (`read_your_writes`, keyed by credential), and that credential
 * reads from the replica only once the replica has replayed past it. A replica that lags beyond
 * DATABASE_READ_MAX_LAG_MS, or does not answer, is skipped: reads fall back to the primary.
 */

/** An LSN as PostgreSQL prints it (`16/B374D848`) as one number. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text.trim());
  if (!match) throw new Error(`not an LSN: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export interface ReplicaState {
  /** Whether the last look at the replica got an answer. */
  up: boolean;
  /** The replica's last replayed WAL position. */
  replayLsn: bigint;
  /** How far behind the primary its data is, estimated from the primary's positions over time (LagClock). */
  lagMs: number;
  /** When this state was read (ms, the process clock). */
  checkedAt: number;
}

export interface RoutingSettings {
  /** A replica further behind than this is skipped. */
  maxLagMs: number;
  /** A state older than this (the refresh stopped getting answers) counts as a replica down. */
  staleAfterMs: number;
}

/**
 * Where one read goes. `writtenAt`: the primary's WAL position after the credential's last write
 * (null: none recorded, or anonymous).
 */
export function chooseReader(replica: ReplicaState | null, writtenAt: bigint | null, settings: RoutingSettings, now: number): 'primary' | 'replica' {
  if (!replica?.up) return 'primary';
  if (now - replica.checkedAt > settings.staleAfterMs) return 'primary';
  if (replica.lagMs > settings.maxLagMs) return 'primary';
  if (writtenAt !== null && replica.replayLsn < writtenAt) return 'primary';
  return 'replica';
}

/**
 * The replica's lag in time, from positions: each look notes the primary's current position and when;
 * the replica holds everything the primary had at the newest noted moment whose position it has
 * replayed, so its data is at most that old. Kept for `windowMs`; beyond it, the lag is the window.
 */
export class LagClock {
  private samples: { at: number; lsn: bigint }[] = [];
  constructor(private readonly windowMs = 60_000) {}

  observe(primaryLsn: bigint, replayLsn: bigint, at: number): number {
    this.samples.push({ at, lsn: primaryLsn });
    while (this.samples.length > 1 && this.samples[0].at < at - this.windowMs) this.samples.shift();
    if (replayLsn >= primaryLsn) return 0;
    for (let i = this.samples.length - 1; i >= 0; i--) if (this.samples[i].lsn <= replayLsn) return at - this.samples[i].at;
    return Math.max(at - this.samples[0].at, this.windowMs);
  }
}

/** What a request's context holds to route its reads (graphql/executor.ts asks it once per operation). */
export interface ReadRouting {
  /** The database an operation that only reads runs on, for this credential (null: anonymous). */
  readerFor(credential: Credential | null): Promise<Db>;
  /** After a credential's mutation: its next reads wait for the replica to pass what it wrote. */
  wrote(credential: Credential | null): Promise<void>;
  /** Where a read that failed on the replica for want of it runs again (connectionLost). */
  readonly primary: Db;
  /** A read found the replica gone: skip it until the next look says otherwise. */
  lost(): void;
}

/**
 * PostgreSQL's and postgres.js' words for a replica that cannot serve: a connection that is not there (or
 * a server shutting down or starting), a lock the replay holds waited for past `lock_timeout` (55P03),
 * a query cancelled by a conflict with the replay (40001).
 */
const CONNECTION_LOST = new Set(['55P03', '40001', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03', '08006', '08001', '08003']);

/** Whether an error (or one of its causes: drizzle wraps the driver's) says the replica could not be reached. */
export function connectionLost(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; originalError?: unknown } | undefined, depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string' && CONNECTION_LOST.has(e.code)) return true;
    e = (e.originalError ?? e.cause) as typeof e;
  }
  return false;
}

export interface ReadRouterOptions extends RoutingSettings {
  /** How often each instance reads the replica's position (and the primary's). */
  refreshMs: number;
  now?: () => number;
}

export class ReadRouter implements ReadRouting {
  state: ReplicaState | null = null;
  private readonly clock = new LagClock();
  private timer?: NodeJS.Timeout;
  private refreshes = 0;
  private readonly now: () => number;
  private refreshing = false;

  /**
   * `primary`: where requests read when not on the replica. `ledger`: the primary too, on a session of
   * its own (DATABASE_LISTEN_URL, not the pooler): the routing's own statements, every 150 ms and around
   * each request, kept off the pool requests share.
   */
  constructor(
    readonly primary: Db,
    private readonly replica: Db,
    private readonly options: ReadRouterOptions,
    private readonly ledger: Db = primary,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Reads the replica once, then every refreshMs (the ledger is read_your_writes: db/read-your-writes.table.ts). */
  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  lost(): void {
    if (this.state) this.state = { ...this.state, up: false };
  }

  async refresh(): Promise<void> {
    // One look at a time: a replica that hangs is left alone, and its state goes stale (staleAfterMs).
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const [primary] = rowsOf<{ lsn: string }>(await this.ledger.execute(sql`select pg_current_wal_lsn()::text as lsn`));
      const [replica] = rowsOf<{ lsn: string | null }>(await this.replica.execute(sql`select case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text end as lsn`));
      const at = this.now();
      // A server not in recovery (promoted, or a plain one) is not ours to read: once recovery ends,
      // pg_last_wal_replay_lsn() stays at the last record it applied (a server started from a copy has one too).
      if (!replica?.lsn) return void (this.state = { up: false, replayLsn: 0n, lagMs: Infinity, checkedAt: at });
      const replayLsn = parseLsn(replica.lsn);
      this.state = { up: true, replayLsn, lagMs: this.clock.observe(parseLsn(primary.lsn), replayLsn, at), checkedAt: at };
      // Now and then, what the replica has passed is forgotten.
      if (++this.refreshes % 50 === 0) await this.ledger.execute(sql`delete from read_your_writes where lsn <= ${replica.lsn}::pg_lsn`);
    } catch {
      this.lost();
    } finally {
      this.refreshing = false;
    }
  }

  async readerFor(credential: Credential | null): Promise<Db> {
    const settings = this.options;
    // Not usable whatever was written: no look-up.
    if (chooseReader(this.state, null, settings, this.now()) === 'primary') return this.primary;
    if (!credential) return this.replica;
    const rows = rowsOf<{ lsn: string }>(await this.ledger.execute(sql`select lsn::text as lsn from read_your_writes where token_id = ${credential.tokenId}`));
    const writtenAt = rows[0] ? parseLsn(rows[0].lsn) : null;
    return chooseReader(this.state, writtenAt, settings, this.now()) === 'replica' ? this.replica : this.primary;
  }

  async wrote(credential: Credential | null): Promise<void> {
    if (!credential) return;
    // After the mutation's commit: the current position is at or past its commit record.
    await this.ledger.execute(sql`
      insert into read_your_writes (token_id, lsn) values (${credential.tokenId}, pg_current_wal_lsn())
      on conflict (token_id) do update set lsn = greatest(read_your_writes.lsn, excluded.lsn), written_at = now()`);
  }
}

/** The router of a primary and a replica database, started. */
export async function startReadRouter(primary: Database, replica: Database, options: ReadRouterOptions, ledger: Database = primary): Promise<ReadRouter> {
  const router = new ReadRouter(primary.db, replica.db, options, ledger.db);
  await router.start();
  return router;
}
