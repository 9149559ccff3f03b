import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { Logger } from 'drizzle-orm/logger';
import { drizzle as drizzlePostgres, PostgresJsSession } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { runDataMigrations } from './data-migrations.js';
import { CASING as casing, decodeRowsOfSessions, driverPlan, prepareEveryStatement, type RowDecoder, type SessionAdaptation } from './driver-adapter.js';
import type { Db } from './types.js';
import { rowsOf } from './rows.js';

export type { Db, Queryable } from './types.js';

/** Counts statements sent to the database; tests read it to prove loaders batch. */
export class StatementCounter implements Logger {
  count = 0;
  logQuery(): void {
    this.count += 1;
  }
}

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  statements: StatementCounter;
  /** Applies the SQL migrations, then the data migrations (db/data-migrations.ts). */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The embedded client, when the driver is PGlite (tests dump and reload its data directory). */
  pglite?: PGlite;
  /**
   * LISTENs on a channel: `handler` gets each NOTIFY's payload (delivered at commit; never for a
   * rolled-back transaction). PostgreSQL: one dedicated connection, re-listening after a reconnect;
   * PGlite: in process. Resolves, once listening, to the function that stops it.
   */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** What the driver adapter (db/driver-adapter.ts) does for this database; the service says its warnings at start-up. */
  adapter: { rowDecoder: RowDecoder; preparedStatements: boolean; warnings: string[] };
}

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent the embedded PGlite is used. */
  url?: string;
  /** PGlite data directory (`memory://` for a throwaway database). */
  dataDir?: string;
  /** A PGlite data-directory dump to start from (tests start each file from a migrated dump). */
  loadDataDir?: Blob;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /**
   * PostgreSQL: send every statement with parameters as a named prepared statement, parsed and
   * planned once per connection (DATABASE_PREPARE, on by default). Off behind a pooler that cannot
   * keep them (PgBouncer in transaction mode before 1.21).
   */
  prepare?: boolean;
  /**
   * PostgreSQL URL of a session of its own (DATABASE_LISTEN_URL): LISTEN and the migration's advisory
   * lock need one, which a pooler in transaction mode does not keep. Default: `url`.
   */
  listenUrl?: string;
  /** PostgreSQL: settings of every session (the replica's `lock_timeout`, db/read-routing.ts). */
  sessionSettings?: Record<string, string>;
}

/** The directory holding package.json, from src/ (tsx, vitest) or dist/src/ (node). */
export const projectRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + import.meta.url);
    dir = parent;
  }
  return dir;
})();

export const migrationsFolder = join(projectRoot, 'schema', 'migrations');
// Any constant key: instances starting together take turns migrating.
const MIGRATION_LOCK_KEY = 7_310_021;
/**
 * The session time zone of every connection, whatever the server's setting: SQL date arithmetic
 * (`timestamptz + make_interval(days => n)`, the release rule of src/content/release.ts) adds
 * calendar days in the session's zone, so a zone with daylight saving would make some days 23 or 25
 * hours long. In UTC a day is always 24 hours.
 */
export const SESSION_TIME_ZONE = 'UTC';

/** The plan's warnings that concern this database (those about statements only where every statement would be prepared), then its session's. */
function adapterWarnings(rows: SessionAdaptation, preparing: boolean): string[] {
  const planned = driverPlan().warnings.filter((w) => w.about === 'rows' || preparing).map((w) => w.message);
  return rows.warning ? [...planned, rows.warning] : planned;
}

export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const statements = new StatementCounter();
  if (options.url) {
    let ended = false;
    const client = postgres(options.url, {
      max: options.maxConnections ?? 10,
      // Off, no statement is named, not even postgres.js' own tagged ones (a pooler in transaction mode would lose them).
      prepare: options.prepare !== false,
      // Off, one statement in flight per connection too (max_pipeline 0: postgres.js sends the next once the
      // last is answered; 1 still lets a second go out): otherwise PgBouncer in transaction mode releases the
      // server at the first statement's ReadyForQuery while the next one's replies are on the way ("got packet
      // from server when not linked", pgbouncer#759), another client gets them, and the pool stalls.
      ...(options.prepare === false ? { max_pipeline: 0 } : {}),
      onnotice: () => {},
      connection: { application_name: 'learning-platform', TimeZone: SESSION_TIME_ZONE, ...options.sessionSettings },
    });
    const plan = driverPlan();
    const rows = decodeRowsOfSessions(PostgresJsSession);
    const preparedStatements = options.prepare !== false && plan.prepareEveryStatement;
    const warnings = adapterWarnings(rows, options.prepare !== false);
    const db = drizzlePostgres(preparedStatements ? prepareEveryStatement(client) : client, { casing, logger: statements }) as unknown as Db;
    const sessionUrl = options.listenUrl ?? options.url;
    // LISTEN's connection (postgres.js keeps one per client, apart from the pool) goes to the session URL.
    const listener =
      sessionUrl === options.url
        ? client
        : postgres(sessionUrl, { max: 1, onnotice: () => {}, connection: { application_name: 'learning-platform-listen', TimeZone: SESSION_TIME_ZONE } });
    return {
      db,
      driver: 'postgres',
      statements,
      adapter: { rowDecoder: rows.rowDecoder, preparedStatements, warnings },
      async migrate() {
        // One connection (max: 1) so the advisory lock and the migration share a session.
        const session = postgres(sessionUrl, { max: 1, onnotice: () => {}, connection: { TimeZone: SESSION_TIME_ZONE } });
        try {
          await session`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
          const migrating = drizzlePostgres(session, { casing });
          await migratePostgres(migrating, { migrationsFolder });
          await runDataMigrations(migrating as unknown as Db);
          await session`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
        } finally {
          await session.end({ timeout: 5 });
        }
      },
      async listen(channel, handler) {
        const { unlisten } = await listener.listen(channel, handler);
        // Once the client has ended (or its listening connection dropped), there is nothing to unlisten.
        return async () => {
          if (!ended) await unlisten().catch(() => {});
        };
      },
      close: async () => {
        ended = true;
        await Promise.all([client.end({ timeout: 5 }), listener === client ? undefined : listener.end({ timeout: 5 })]);
      },
    };
  }
  const dataDir = options.dataDir ?? resolve(projectRoot, '.data');
  // Loaded only for the embedded database: an instance on PostgreSQL starts without it.
  const [{ PGlite }, { unaccent }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    // The contrib extensions search's migration creates (schema/migrations/0017_search.sql).
    import('@electric-sql/pglite/contrib/unaccent'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const extensions = { unaccent, pg_trgm };
  const pglite = await PGlite.create(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir, extensions } : { extensions });
  return embeddedDatabase(pglite);
}

/**
 * The service's database over an open PGlite: a new statement counter and drizzle instance over
 * the same data (tests hand each file one over their worker's PGlite, emptied).
 */
export async function embeddedDatabase(pglite: PGlite): Promise<Database> {
  const [{ drizzle: drizzlePglite, PgliteSession }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const statements = new StatementCounter();
  // PGlite is one session: set once, the zone holds for every statement.
  await pglite.exec(`set time zone '${SESSION_TIME_ZONE}'`);
  const rows = decodeRowsOfSessions(PgliteSession);
  const warnings = adapterWarnings(rows, false);
  const db = drizzlePglite(pglite, { casing, logger: statements }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    statements,
    pglite,
    adapter: { rowDecoder: rows.rowDecoder, preparedStatements: false, warnings },
    async migrate() {
      const migrating = drizzlePglite(pglite, { casing });
      await migratePglite(migrating, { migrationsFolder });
      await runDataMigrations(migrating as unknown as Db);
    },
    async listen(channel, handler) {
      const stop = await pglite.listen(channel, handler);
      return async () => {
        if (!pglite.closed) await stop();
      };
    },
    close: () => pglite.close(),
  };
}

/** How many migrations the code ships (schema/migrations/meta/_journal.json), read once. */
let shippedMigrations: number | undefined;

/**
 * Readiness: the database answers and has every migration the code ships applied (drizzle records
 * them in drizzle.__drizzle_migrations). False on any failure: a lost database is not ready.
 */
export async function databaseReady(database: Database): Promise<boolean> {
  shippedMigrations ??= (JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
  try {
    const result = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    return Number(rowsOf<{ n: number }>(result)[0]?.n) >= shippedMigrations;
  } catch {
    return false;
  }
}
