import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { FastifyInstance } from 'fastify';
import type { ResultOf, TadaDocumentNode } from 'gql.tada';
import { type DocumentNode, print } from 'graphql';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import qs from 'qs';
import { inject } from 'vitest';
import { createApp } from '../../src/app.js';
import { digestToken, issueToken, type Role } from '../../src/auth/credential.js';
import type { PGlite } from '@electric-sql/pglite';
import { type Database, embeddedDatabase, migrationsFolder, openDatabase } from '../../src/db/client.js';

/**
 * A typed reply's data with every field present (null and undefined stripped, deeply): tests read
 * replies they expect to be there, and a test of a null compares it (`toBeNull()`) all the same.
 */
export type Present<T> = T extends (infer U)[]
  ? Present<U>[]
  : T extends readonly (infer U)[]
    ? readonly Present<U>[]
    : T extends object
      ? { [K in keyof T]-?: Present<NonNullable<T[K]>> }
      : NonNullable<T>;

export interface GraphqlReply<T> {
  data: T;
  errors?: any[];
  status: number;
}

export type Encoding = 'json' | 'form' | 'multipart';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

/** A controllable clock: tests move time instead of waiting for it. */
export class TestClock {
  constructor(private current = new Date('2026-01-15T12:00:00Z')) {}
  now = () => new Date(this.current);
  set(date: Date | string) {
    this.current = new Date(date);
  }
  advanceDays(days: number) {
    this.current = new Date(this.current.getTime() + days * 86_400_000);
  }
}

/** Multipart body with bracket names, as browsers and Rails clients send it. */
function multipart(body: Record<string, unknown>): { payload: Buffer; contentType: string } {
  const boundary = `----lp${randomBytes(8).toString('hex')}`;
  const flat = qs.stringify(body, { encode: false, arrayFormat: 'brackets' }).split('&').filter(Boolean);
  const parts = flat.map((pair) => {
    const i = pair.indexOf('=');
    const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
    return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  });
  return { payload: Buffer.from(parts.join('') + `--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

export class Client {
  constructor(
    private readonly app: FastifyInstance,
    readonly token: string | null,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  /** The same client acting for a school (platform credentials name it with X-School-Id). */
  forSchool(schoolId: number): Client {
    return new Client(this.app, this.token, { ...this.extraHeaders, 'x-school-id': String(schoolId) });
  }

  async request(
    method: string,
    url: string,
    body?: unknown,
    options: { encoding?: Encoding; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { ...this.extraHeaders, ...options.headers };
    if (this.token) headers.authorization ??= `Bearer ${this.token}`;
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) {
      const encoding = options.encoding ?? 'json';
      if (encoding === 'json') {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      } else if (encoding === 'form') {
        payload = qs.stringify(body, { arrayFormat: 'brackets' });
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
      } else {
        const m = multipart(body as Record<string, unknown>);
        payload = m.payload;
        headers['content-type'] ??= m.contentType;
      }
    }
    const res = await this.app.inject({ method: method as any, url, headers, payload });
    let parsed: any = null;
    if (res.body && /json/.test(String(res.headers['content-type'] ?? ''))) parsed = JSON.parse(res.body);
    return { status: res.statusCode, headers: res.headers as Reply['headers'], body: parsed, text: res.body };
  }

  get = (url: string, options?: Parameters<Client['request']>[3]) => this.request('GET', url, undefined, options);
  post = (url: string, body?: unknown, options?: Parameters<Client['request']>[3]) => this.request('POST', url, body, options);
  put = (url: string, body?: unknown, options?: Parameters<Client['request']>[3]) => this.request('PUT', url, body, options);
  patch = (url: string, body?: unknown, options?: Parameters<Client['request']>[3]) => this.request('PATCH', url, body, options);
  delete = (url: string, options?: Parameters<Client['request']>[3]) => this.request('DELETE', url, undefined, options);

  /**
   * POST /graphql; returns `{ data, errors }`. Given a document of test/support/graphql.ts, `data` has
   * the reply's type (as `Present`); given a string, it is untyped.
   */
  // Variables stay loose: tests send wrong ones on purpose (a missing field, a bad enum value).
  async graphql<D extends TadaDocumentNode<any, any>>(query: D, variables?: Record<string, unknown>): Promise<GraphqlReply<Present<ResultOf<D>>>>;
  async graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<GraphqlReply<T>>;
  // A loop over several operations, some typed and some not: untyped.
  async graphql(query: string | TadaDocumentNode<any, any>, variables?: Record<string, unknown>): Promise<GraphqlReply<any>>;
  async graphql(query: string | DocumentNode, variables?: Record<string, unknown>): Promise<GraphqlReply<unknown>> {
    const text = typeof query === 'string' ? query : (query.loc?.source.body ?? print(query));
    const res = await this.request('POST', '/graphql', { query: text, variables });
    return { ...res.body, status: res.status };
  }
}

export interface TestSchool {
  id: number;
  adminId: number;
  libraryId: number;
  forumId: number;
  /** The school's admin credential (from the wizard). */
  admin: Client;
}

export class Service {
  readonly anonymous: Client;
  platform!: Client;
  /** The PostgreSQL URL of this service's database (unset on PGlite): a second instance may open it. */
  databaseUrl?: string;
  private schools = 0;

  constructor(
    readonly app: FastifyInstance,
    readonly database: Database,
    readonly clock: TestClock,
    private readonly cleanup: () => Promise<void>,
  ) {
    this.anonymous = new Client(app, null);
  }

  get db() {
    return this.database.db;
  }

  client(token: string | null, headers?: Record<string, string>): Client {
    return new Client(this.app, token, headers);
  }

  /** A new credential of a role (straight to the database: tokens have no API of their own yet). */
  async token(role: Role, schoolId: number | null = null, userId: number | null = null): Promise<Client> {
    return this.client(await issueToken(this.db, { role, schoolId, userId, label: 'test' }));
  }

  /** A school made the way clients make one: through the wizard, with its admin credential. */
  async school(name = `School ${++this.schools}`): Promise<TestSchool> {
    const res = await this.platform.post('/schools/wizard', {
      school: { name, email: `admin${this.schools}-${randomBytes(3).toString('hex')}@example.com`, password: 'secret-password' },
    });
    if (res.status !== 201) throw new Error(`wizard failed: ${res.status} ${res.text}`);
    return {
      id: res.body.school.id,
      adminId: res.body.admin.id,
      libraryId: res.body.library.id,
      forumId: res.body.forum.id,
      admin: this.client(res.body.admin.credentials),
    };
  }

  /** How many SQL statements `work` sends. */
  async countStatements(work: () => Promise<unknown>): Promise<number> {
    const before = this.database.statements.count;
    await work();
    return this.database.statements.count - before;
  }

  /** Closes the app, then lets the database go (startService's `release`: closed and dropped, or left for the worker's next file). */
  async stop() {
    await this.app.close();
    await this.cleanup();
  }
}

let fileDatabases = 0;

/**
 * The worker's embedded database, emptied for each file: loading the migrated data directory again
 * costs a second or two a file (the dump is 45 MB, most of it the WAL segment). A file that closes
 * the database itself (the database-gone tests) leaves the next one to load it anew.
 */
let workerPglite: PGlite | undefined;
/** The statement that empties every table of the migrated schema and restarts its sequences, built once. */
let emptyTables: string | undefined;

async function embeddedDatabaseForFile(dumpFile: string): Promise<Database> {
  if (workerPglite && !workerPglite.closed) {
    // What a file may leave in the one session: an open transaction, settings, advisory locks, listeners.
    await workerPglite.exec('rollback');
    await workerPglite.exec('discard all');
    await workerPglite.exec(emptyTables!);
    return embeddedDatabase(workerPglite);
  }
  const dump = readFileSync(dumpFile);
  // PGlite only reads the dump's bytes (arrayBuffer()); Node's Blob copies them out in chunks, slowly.
  const bytes = { arrayBuffer: async () => dump.buffer.slice(dump.byteOffset, dump.byteOffset + dump.byteLength), type: '' } as unknown as Blob;
  const database = await openDatabase({ dataDir: 'memory://', loadDataDir: bytes });
  workerPglite = database.pglite!;
  if (!emptyTables) {
    const { rows } = await workerPglite.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle') and n.nspname not like 'pg_toast%'`,
    );
    emptyTables = `truncate ${rows.map((r) => r.name).join(', ')} restart identity cascade`;
  }
  return database;
}

/**
 * PostgreSQL: the worker's database, emptied for each file as the embedded one is. A database of each
 * file's own, copied from the template and dropped afterwards, cost a checkpoint a file (DROP DATABASE
 * forces one and waits for it: one to seven seconds on two cores, most of the suite's time on
 * PostgreSQL). global-setup.ts drops the workers' databases at the end of the run.
 */
let workerPostgres: { name: string; shape: string; nonEmpty: string; sequences: string } | undefined;
/** The worker's database is a running service's until it stops: emptying it then would take that service's rows. */
let workerPostgresInUse = false;

/**
 * What a file could leave in the schema or the database's settings besides rows (a table, a trigger,
 * a function, a column, `alter database ... set`): a worker's database that no longer shows the
 * template's is dropped and copied again.
 */
const SHAPE = `select md5(concat_ws('|',
  (select string_agg(format('%s.%s:%s', n.nspname, c.relname, c.relkind), ',' order by n.nspname, c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'),
  (select string_agg(format('%s.%s:%s:%s:%s', a.attrelid::regclass, a.attname, a.atttypid, a.attnotnull, a.atthasdef), ',' order by a.attrelid::regclass::text, a.attnum) from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    where a.attnum > 0 and not a.attisdropped and c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'),
  (select string_agg(format('%s.%s:%s', t.tgrelid::regclass, t.tgname, t.tgenabled), ',' order by t.tgrelid::regclass::text, t.tgname) from pg_trigger t where not t.tgisinternal),
  (select string_agg(format('%s.%s', c.conrelid::regclass, c.conname), ',' order by c.conrelid::regclass::text, c.conname) from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname not in ('pg_catalog', 'information_schema')),
  (select string_agg(format('%s.%s', n.nspname, p.proname), ',' order by n.nspname, p.proname) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')),
  (select string_agg(array_to_string(s.setconfig, ','), ';' order by s.setrole) from pg_db_role_setting s where s.setdatabase = (select oid from pg_database where datname = current_database()))
)) as shape`;

/**
 * Deletes every row of `tables` (the foreign keys' triggers off: every table that holds rows is in
 * the list), then VACUUM gives their pages back, so the next file's rows fill them from the first as
 * in a new table. TRUNCATE (a new file for each table and index) took a second or more for a file's
 * dozen tables on two busy cores, the delete and vacuum a tenth of that. A role that may not turn the
 * triggers off (session_replication_role asks for a superuser) truncates.
 */
async function emptyPostgresTables(session: postgres.Sql, tables: string[]) {
  try {
    await session.begin(async (tx) => {
      await tx.unsafe('set local session_replication_role = replica');
      for (const table of tables) await tx.unsafe(`delete from ${table}`);
    });
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error;
    await session.unsafe(`truncate ${tables.join(', ')} cascade`);
    return;
  }
  await session.unsafe(`vacuum ${tables.join(', ')}`);
}

async function postgresDatabaseForFile(serverUrl: string, template: string): Promise<string> {
  if (workerPostgres) {
    const { name } = workerPostgres;
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const session = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      // A session a file left in a transaction or holding an advisory lock (none should) would hold the emptying
      // up or the next file: ended, as DROP DATABASE ... WITH (FORCE) ended it. Idle ones stay (a pooler's).
      await session.unsafe(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
          and (state is distinct from 'idle' or pid in (select pid from pg_locks where locktype = 'advisory'))`,
      );
      const [{ shape }] = await session.unsafe<{ shape: string }[]>(SHAPE);
      if (shape === workerPostgres.shape) {
        // Only the tables a file wrote to, and the sequences it drew from.
        const [{ tables }] = await session.unsafe<{ tables: string[] }[]>(workerPostgres.nonEmpty);
        if (tables.length) await emptyPostgresTables(session, tables);
        await session.unsafe(workerPostgres.sequences);
        return name;
      }
    } catch {
      // Gone or unreachable: copied again below.
    } finally {
      await session.end({ timeout: 5 });
    }
    workerPostgres = undefined;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${name}" with (force)`).finally(() => admin.end());
  }
  const name = `${template}_w${process.pid}_${++fileDatabases}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${name}"`);
    await admin.unsafe(`create database "${name}" template "${template}"`);
    // Test databases only (the server's own settings stay as they are): a commit need not wait for its WAL to reach the disk.
    await admin.unsafe(`alter database "${name}" set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const session = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    const [{ shape }] = await session.unsafe<{ shape: string }[]>(SHAPE);
    const tables = await session.unsafe<{ name: string }[]>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle') and n.nspname not like 'pg_toast%'`,
    );
    const sequences = await session.unsafe<{ name: string }[]>(
      `select format('%I.%I', schemaname, sequencename) as name from pg_sequences where schemaname not in ('pg_catalog', 'information_schema', 'drizzle')`,
    );
    const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
    workerPostgres = {
      name,
      shape,
      nonEmpty: `select array_remove(array[${tables.map((t) => `case when exists (select from ${t.name}) then ${literal(t.name)} end`).join(', ')}]::text[], null) as tables`,
      // Back to the template's state (never drawn from) for those a file drew from; as TRUNCATE's RESTART IDENTITY, but whatever the table.
      sequences: sequences.length
        ? `select setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false) from pg_sequences
            where last_value is not null and schemaname not in ('pg_catalog', 'information_schema', 'drizzle')`
        : 'select 1',
    };
  } finally {
    await session.end({ timeout: 5 });
  }
  return name;
}

/**
 * Applies the SQL migrations through `tag` only (as named in schema/migrations/meta/_journal.json)
 * to an empty database: the schema a version of the service before the next one left.
 */
async function migrateThrough(database: Database, url: string | undefined, tag: string) {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const through = journal.entries.findIndex((e) => e.tag === tag);
  if (through === -1) throw new Error(`schema/migrations has no migration ${tag}`);
  const folder = mkdtempSync(join(tmpdir(), 'lp-migrations-'));
  try {
    cpSync(migrationsFolder, folder, { recursive: true });
    writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, through + 1) }));
    if (!url) return await migratePglite(drizzlePglite(database.pglite!), { migrationsFolder: folder });
    const session = postgres(url, { max: 1, onnotice: () => {} });
    await migratePostgres(drizzlePostgres(session), { migrationsFolder: folder }).finally(() => session.end());
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A service on a database of this test file's own, migrated, empty. */
/**
 * `credentialCache`: reuse checked credentials as production does (test/credential-cache.test.ts);
 * off by default, so statement counts include the credential's and direct SQL changes to tokens apply at once.
 */
export async function startService(
  options: {
    now?: Date;
    credentialCache?: boolean;
    /** graphql/executor.ts: 0 (the default here) compiles every operation at once; 1 is production's. */
    compileAfterRuns?: number;
    /** Integrations may save webhook URLs of loopback and private addresses (off, as WEBHOOKS_ALLOW_PRIVATE_NETWORKS's default). */
    webhooksAllowPrivateNetworks?: boolean;
    /** OpenID issuers may be http on loopback (off, as SSO_ALLOW_INSECURE_ISSUERS's default): the SSO tests' provider. */
    ssoAllowInsecureIssuers?: boolean;
    /** A database migrated only through this migration (its tag), as an older version left it; the test migrates the rest. */
    migratedThrough?: string;
  } = {},
): Promise<Service> {
  const info = inject('testDatabase');
  let database: Database;
  let cleanup = async () => {};
  let databaseUrl: string | undefined;
  if (info.kind === 'postgres') {
    let name: string;
    if (options.migratedThrough || workerPostgresInUse) {
      // An empty database (migratedThrough migrates it), or a second service while the file's first still
      // runs (test/system/tools.test.ts) a copy of the template: of its own, dropped after.
      const admin = postgres(info.url!, { max: 1, onnotice: () => {} });
      name = `${info.template}_f${process.pid}_${++fileDatabases}`;
      await admin.unsafe(`drop database if exists "${name}"`);
      await admin.unsafe(`create database "${name}"${options.migratedThrough ? '' : ` template "${info.template}"`}`);
      await admin.unsafe(`alter database "${name}" set synchronous_commit = off`);
      cleanup = async () => {
        await database.close().catch(() => {});
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.end();
      };
    } else {
      name = await postgresDatabaseForFile(info.url!, info.template!);
      workerPostgresInUse = true;
      cleanup = async () => {
        // A test may have closed the database itself (the database-gone tests); the worker's next file empties it.
        await database.close().catch(() => {});
        workerPostgresInUse = false;
      };
    }
    const url = new URL(info.url!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    if (info.poolerUrl) {
      // Through the pooler as a deployment behind PgBouncer runs: no named statements, one session apart for LISTEN.
      const pooled = new URL(info.poolerUrl);
      pooled.pathname = `/${name}`;
      database = await openDatabase({ url: pooled.toString(), prepare: false, listenUrl: databaseUrl, maxConnections: 5 });
    } else database = await openDatabase({ url: databaseUrl, maxConnections: 5 });
  } else if (options.migratedThrough) {
    database = await openDatabase({ dataDir: 'memory://' });
    cleanup = () => database.close().catch(() => {});
  } else {
    database = await embeddedDatabaseForFile(info.dumpFile!);
  }
  if (options.migratedThrough) await migrateThrough(database, databaseUrl, options.migratedThrough);
  const clock = new TestClock(options.now);
  // Rate limiting off: a suite's many requests from one token are not a flood (test/rate-limits.test.ts turns it on).
  // List bounds off: their periodic ANALYZE commits on its own, which test/fuzz.test.ts would take for a refused request's write.
  // Every operation compiled from its first run, so the suite checks the compiled path production takes (graphql/executor.ts).
  // Token use is recorded when a test flushes it (tokenUsages) or the app closes: no background write lands between a test's reads.
  const app = await createApp({ database, now: clock.now, rateLimit: { enabled: false }, credentialCacheSeconds: options.credentialCache ? 15 : 0, tokenUsageSeconds: 0, compileAfterRuns: options.compileAfterRuns ?? 0, listBoundsSeconds: 0, webhooksAllowPrivateNetworks: options.webhooksAllowPrivateNetworks ?? false, ssoAllowInsecureIssuers: options.ssoAllowInsecureIssuers ?? false });
  await app.ready();
  const service = new Service(app, database, clock, cleanup);
  service.databaseUrl = databaseUrl;
  // A database an older version left has the api_tokens columns of then: the platform token names those alone.
  service.platform = options.migratedThrough ? await olderPlatformToken(service) : await service.token('platform');
  return service;
}

/** A platform credential written with the columns every version's api_tokens has. */
async function olderPlatformToken(service: Service): Promise<Client> {
  const token = `lp_platform_${randomBytes(32).toString('base64url')}`;
  await service.db.execute(sql`insert into api_tokens (token_digest, role, label) values (${digestToken(token)}, 'platform', 'test')`);
  return service.client(token);
}

/** The usual set-up of a test file: a service, a school of its own and another (for the isolation checks). */
export interface TwoSchools {
  service: Service;
  school: TestSchool;
  other: TestSchool;
}

/** Starts the service and makes the two schools: `({ service, school, other } = await startTwoSchools('A', 'B'))`. */
export async function startTwoSchools(school: string, other: string, options: { now?: Date } = {}): Promise<TwoSchools> {
  const service = await startService(options);
  return { service, school: await service.school(school), other: await service.school(other) };
}

/**
 * A second app over the service's database with request logging on, its log lines collected in
 * `lines` (for tests of what logs may show). Close it before the service.
 */
export async function loggingApp(service: Service, lines: string[]): Promise<FastifyInstance> {
  const app = await createApp({ database: service.database, logger: true, logStream: { write: (line) => lines.push(line) } });
  await app.ready();
  return app;
}
