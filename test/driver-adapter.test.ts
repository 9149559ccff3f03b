import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { type Column, eq, getTableColumns, getTableName, is, sql, TransactionRollbackError } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import drizzleConfig from '../drizzle.config.js';
import { ConfigurationError, validateEnvironment } from '../src/config.js';
import { projectRoot } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import {
  databaseColumnName,
  decodeRowsOfSessions,
  decoderFor,
  driverPlan,
  installedVersion,
  planDrivers,
  type SelectedField,
  type SessionClass,
  VERIFIED_VERSIONS,
} from '../src/db/driver-adapter.js';
import { type Service, startService } from './support/service.js';

/** The parts of a drizzle prepared query the adapter sets (db/driver-adapter.ts): its columns and its row mapper. */
type Internals = { fields: SelectedField[]; customResultMapper?: (rows: unknown[][]) => object[] };

/** The files a drizzle-kit glob names (`./src/modules/**\/*.table.ts`), relative to the project root. */
function filesMatching(pattern: string): string[] {
  const glob = pattern.replace(/^\.\//, '');
  const base = glob.slice(0, glob.search(/[*?[{]/)).replace(/[^/]*$/, '');
  const literal = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const matcher = new RegExp(`^${glob.split('**/').map((part) => part.split('*').map(literal).join('[^/]*')).join('(?:.*/)?')}$`);
  return readdirSync(join(projectRoot, base), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)))
    .filter((file) => matcher.test(file));
}

/** Every table of the schema: the tables exported by the files drizzle.config.ts gives drizzle-kit. */
async function schemaTables(): Promise<PgTable[]> {
  const tables = new Set<PgTable>();
  for (const pattern of [drizzleConfig.schema ?? []].flat())
    for (const file of filesMatching(pattern))
      for (const value of Object.values(await import(join(projectRoot, file)))) if (is(value, PgTable)) tables.add(value);
  return [...tables];
}

const JSON_VALUE = { text: 'ünïcødé "quoted"', list: [1, 2.5, null, true, 'two'], nested: { empty: {}, none: [] } };

/** A value of a column's type: a usual one, or (edge) the zero, empty or last one. */
function sample(column: Column, edge: boolean): unknown {
  switch (column.columnType) {
    case 'PgInteger':
      return edge ? -2147483648 : 42;
    case 'PgBigInt53':
      return edge ? -1 : Number.MAX_SAFE_INTEGER;
    case 'PgDoublePrecision':
      return edge ? 0 : 3.141592653589793;
    case 'PgBoolean':
      return !edge;
    case 'PgText':
      return edge ? '' : 'Text ✓ "quoted" \\ back\nslash';
    case 'PgDateString':
      return edge ? '1970-01-01' : '2024-02-29';
    case 'PgTimestamp':
      return edge ? new Date('1969-12-31T23:59:59.999Z') : new Date('2024-03-10T07:30:00.123Z');
    case 'PgJsonb':
      return edge ? [] : JSON_VALUE;
    case 'PgEnumColumn': {
      const values = (column as unknown as { enumValues: string[] }).enumValues;
      return edge ? values.at(-1) : values[0];
    }
    case 'PgCustomColumn':
      // The custom types of the schema: bytea (an export's file chunks) and pg_lsn (read routing's WAL positions, as text).
      if (column.getSQLType() === 'bytea') return edge ? Buffer.alloc(0) : Buffer.from([0, 1, 2, 254, 255]);
      if (column.getSQLType() === 'pg_lsn') return edge ? '0/0' : '16/B374D848';
      break;
    case 'PgArray': {
      const item = (column as unknown as { baseColumn: Column }).baseColumn;
      return edge ? [] : [sample(item, false), sample(item, true)];
    }
  }
  throw new Error(`no sample value for a ${column.columnType} column (${getTableName(column.table)}.${column.name}): add one to sample()`);
}

/** Three rows of a table: usual values, edge values, and null in every nullable column. */
function sampleRows(table: PgTable): Record<string, unknown>[] {
  const columns = Object.entries(getTableColumns(table));
  const row = (value: (column: Column) => unknown) => Object.fromEntries(columns.map(([key, column]) => [key, value(column)]));
  return [row((c) => sample(c, false)), row((c) => sample(c, true)), row((c) => (c.notNull ? sample(c, false) : null))];
}

/** What each way of decoding made of one table's rows. */
interface Decoded {
  table: string;
  inserted: Record<string, unknown>[];
  raw: unknown[][];
  generated: object[];
  plain: object[];
  drizzle: object[];
  inForce: unknown;
  expectedInForce: unknown;
}

let service: Service;
let tables: PgTable[];
beforeAll(async () => {
  service = await startService();
  tables = await schemaTables();
});
afterAll(async () => {
  await service?.stop();
});

describe('the driver adapter at start-up', () => {
  it('finds the installed drizzle-orm and postgres among the versions it was verified on (a new one: run this file, then add it)', () => {
    for (const library of ['drizzle-orm', 'postgres'] as const)
      expect(VERIFIED_VERSIONS[library] as readonly string[], `${library} ${installedVersion(library)}`).toContain(installedVersion(library));
    expect(driverPlan()).toMatchObject({ rowDecoder: 'generated', prepareEveryStatement: true, warnings: [] });
    // Through a pooler in transaction mode (test:cluster's run of the suite) no statement is named.
    const preparing = service.database.driver === 'postgres' && !inject('testDatabase').poolerUrl;
    expect(service.database.adapter).toEqual({ rowDecoder: 'generated', preparedStatements: preparing, warnings: [] });
  });

  it('given a version it was not verified on, then it warns and keeps to what needs no internals', () => {
    const verified: Record<'drizzle-orm' | 'postgres', string> = { 'drizzle-orm': VERIFIED_VERSIONS['drizzle-orm'][0], postgres: VERIFIED_VERSIONS.postgres[0] };
    const plan = (versions: Partial<typeof verified>, configured: 'generated' | 'plain' | 'drizzle' = 'generated') =>
      planDrivers({ versions: { ...verified, ...versions }, configured });
    expect(plan({})).toEqual({ versions: verified, rowDecoder: 'generated', prepareEveryStatement: true, warnings: [] });
    expect(plan({}, 'plain').rowDecoder).toBe('plain');
    expect(plan({}, 'drizzle').rowDecoder).toBe('drizzle');

    const newDrizzle = plan({ 'drizzle-orm': '0.99.0' });
    expect(newDrizzle).toMatchObject({ rowDecoder: 'plain', prepareEveryStatement: false });
    expect(newDrizzle.warnings.map((w) => w.about)).toEqual(['rows', 'statements']);
    expect(newDrizzle.warnings[0].message).toMatch(/^drizzle-orm 0\.99\.0 is not a version the database adapter was verified on .*: rows are mapped by the plain decoder$/);
    // Asked for drizzle's own mapping, it has nothing to fall back from.
    expect(plan({ 'drizzle-orm': '0.99.0' }, 'drizzle').warnings.map((w) => w.about)).toEqual(['statements']);

    const newPostgres = plan({ postgres: '3.5.0' });
    expect(newPostgres).toMatchObject({ rowDecoder: 'generated', prepareEveryStatement: false });
    expect(newPostgres.warnings).toEqual([
      { about: 'statements', message: expect.stringMatching(/^postgres 3\.5\.0 is not .*: statements are sent unnamed, as drizzle sends them \(DATABASE_PREPARE has no effect\)$/) },
    ]);
  });

  it("given a drizzle whose prepareQuery no longer takes the mapper where the patch puts it, then drizzle maps the rows itself, and it says so", () => {
    class Moved {
      prepareQuery(query: unknown, fields: unknown, name: unknown, arrayMode: unknown, queryMetadata: unknown, customResultMapper: unknown) {
        return { query, fields, name, arrayMode, queryMetadata, customResultMapper };
      }
    }
    const original = Moved.prototype.prepareQuery;
    const moved = decodeRowsOfSessions(Moved as unknown as SessionClass, 'generated');
    expect(moved).toEqual({ rowDecoder: 'drizzle', warning: expect.stringContaining('(query, fields, name, arrayMode, queryMetadata, customResultMapper)') });
    expect(Moved.prototype.prepareQuery).toBe(original);

    class Verified {
      prepareQuery(query: unknown, fields: unknown, name: unknown, isResponseInArrayMode: unknown, customResultMapper: unknown, queryMetadata: unknown) {
        return { query, fields, name, isResponseInArrayMode, customResultMapper, queryMetadata };
      }
    }
    expect(decodeRowsOfSessions(Verified as unknown as SessionClass, 'plain')).toEqual({ rowDecoder: 'plain' });
    const fields = Object.entries(getTableColumns(tables[0])).map(([key, field]) => ({ path: [key], field }));
    const prepared = new Verified().prepareQuery('q', fields, undefined, true, undefined, 'meta');
    expect(prepared.customResultMapper).toBe(decoderFor(fields, 'plain'));
    expect(prepared.queryMetadata).toBe('meta');
    // A query with its own mapper (drizzle's relational queries) keeps it.
    const own = () => [];
    expect(new Verified().prepareQuery('q', fields, undefined, true, own, undefined).customResultMapper).toBe(own);
  });

  it('reads DATABASE_ROW_DECODER, and refuses a value it does not know in one line', () => {
    expect(() => validateEnvironment({ DATABASE_ROW_DECODER: 'plain' })).not.toThrow();
    expect(() => validateEnvironment({ DATABASE_ROW_DECODER: 'fast' })).toThrow(new ConfigurationError('DATABASE_ROW_DECODER must be generated, plain or drizzle (got "fast")'));
  });

  it('given DATABASE_ROW_DECODER=plain or drizzle, then a process maps its selects that way', async () => {
    // A process of its own: the plan is read once per process. A temporary table, so no migration is needed.
    const script = `
      import { sql } from 'drizzle-orm';
      import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
      import { openDatabase } from './src/db/client.ts';
      import { decoderFor } from './src/db/driver-adapter.ts';
      const database = await openDatabase({ dataDir: 'memory://' });
      const t = pgTable('t', { id: integer(), at: timestamp({ withTimezone: true }) });
      await database.db.execute(sql\`create temporary table t (id int, at timestamptz)\`);
      await database.db.insert(t).values([{ id: 1, at: new Date('2024-03-10T07:30:00.123Z') }, { id: 2, at: null }]);
      const prepared = database.db.select().from(t).orderBy(t.id).prepare('p');
      const mapper = prepared.customResultMapper;
      const rows = await prepared.execute();
      console.log(JSON.stringify({
        adapter: database.adapter,
        mapper: mapper === undefined ? 'drizzle' : mapper === decoderFor(prepared.fields, 'plain') ? 'plain' : mapper === decoderFor(prepared.fields, 'generated') ? 'generated' : 'other',
        rows,
        dates: rows.map((r) => r.at instanceof Date),
      }));
      await database.close();`;
    const run = async (decoder: string) => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: projectRoot,
        env: { PATH: process.env.PATH, DATABASE_ROW_DECODER: decoder },
      });
      return JSON.parse(stdout.trim().split('\n').at(-1)!);
    };
    const decoders = ['plain', 'drizzle'];
    const runs = await Promise.all(decoders.map(run));
    for (const [i, decoder] of decoders.entries())
      expect(runs[i], decoder).toEqual({
        adapter: { rowDecoder: decoder, preparedStatements: false, warnings: [] },
        mapper: decoder,
        rows: [{ id: 1, at: '2024-03-10T07:30:00.123Z' }, { id: 2, at: null }],
        dates: [true, false],
      });
  }, 120_000);

  it("is the only file of src/ that reaches into the libraries' internals", () => {
    const internals = /prepareQuery|customResultMapper|foreignKeyConfigs|mapResultRow|keyAsName|drizzle-orm\/casing|new Function\(|\.unsafe\(|\.begin\(|\.savepoint\(/;
    const files = readdirSync(join(projectRoot, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(projectRoot, join(entry.parentPath, entry.name)));
    expect(files.filter((file) => internals.test(readFileSync(join(projectRoot, file), 'utf8')))).toEqual(['src/db/driver-adapter.ts']);
  });
});

/**
 * Each table's rows, decoded by the generated decoder, by the plain one and by drizzle's own
 * mapping (the prepared query with no mapper of ours), on the test database's driver. The rows are
 * written to a temporary table of the same name and columns (`like`: no references, no checks),
 * which hides the real one for the transaction, rolled back at the end.
 */
async function decodeEveryTable(): Promise<Decoded[]> {
  const decoded: Decoded[] = [];
  await service.db
    .transaction(async (tx) => {
      for (const [index, table] of tables.entries()) {
        const { name, schema } = getTableConfig(table);
        await tx.execute(sql.raw(`create temporary table "${name}" (like "${schema ?? 'public'}"."${name}")`));
        const inserted = sampleRows(table);
        await tx.insert(table).values(inserted);
        // The marker keeps the statement's text apart from the service's own (postgres.js keeps prepared statements by text).
        const prepared = tx.select().from(table).where(sql`true /* driver-adapter test */`).orderBy(sql`ctid`).prepare(`driver_adapter_${index}`);
        const internals = prepared as unknown as Internals;
        const inForce = internals.customResultMapper;
        let raw: unknown[][] = [];
        internals.customResultMapper = (rows) => decoderFor(internals.fields, 'generated')!((raw = rows));
        const generated = (await prepared.execute()) as object[];
        internals.customResultMapper = decoderFor(internals.fields, 'plain')!;
        const plain = (await prepared.execute()) as object[];
        internals.customResultMapper = undefined;
        const drizzle = (await prepared.execute()) as object[];
        decoded.push({ table: name, inserted, raw, generated, plain, drizzle, inForce, expectedInForce: decoderFor(internals.fields, 'generated') });
      }
      tx.rollback();
    })
    .catch((error) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    });
  return decoded;
}

describe('the row decoders, over every table of the schema', () => {
  let decoded: Decoded[];
  beforeAll(async () => {
    decoded = await decodeEveryTable();
  });

  it('decode every table as drizzle does: the same keys in the same order, the same values and types', () => {
    expect(decoded.length).toBe(tables.length);
    expect(tables.length).toBeGreaterThan(60);
    for (const { table, raw, generated, plain, drizzle, inForce, expectedInForce } of decoded) {
      expect(raw, table).toHaveLength(3);
      expect(inForce, `${table}: the decoder in force`).toBe(expectedInForce);
      expect(generated, `${table}: generated`).toStrictEqual(drizzle);
      expect(plain, `${table}: plain`).toStrictEqual(drizzle);
      for (const [i, row] of drizzle.entries()) {
        expect(Object.keys(generated[i]), table).toEqual(Object.keys(row));
        expect(Object.keys(plain[i]), table).toEqual(Object.keys(row));
      }
    }
  });

  it('give back the values written: nulls, Dates, JSON, enums, booleans, big and negative numbers, empty text', () => {
    const seen = { null: 0, date: 0, json: 0, enum: 0, boolean: 0 };
    for (const { table, inserted, drizzle } of decoded) {
      expect(drizzle, table).toStrictEqual(inserted);
      for (const t of tables.filter((t) => getTableName(t) === table))
        for (const [key, column] of Object.entries(getTableColumns(t))) {
          const values = drizzle.map((row) => (row as Record<string, unknown>)[key]);
          if (values.includes(null)) seen.null++;
          if (values.some((v) => v instanceof Date)) seen.date++;
          if (column.columnType === 'PgJsonb') seen.json++;
          if (column.columnType === 'PgEnumColumn') seen.enum++;
          if (column.columnType === 'PgBoolean') seen.boolean++;
        }
    }
    for (const [kind, count] of Object.entries(seen)) expect(count, `columns holding ${kind}`).toBeGreaterThan(0);
  });
});

describe('column names', () => {
  it("name every table's columns as the database does (SQL written by hand around a table's columns)", async () => {
    const result = await service.db.execute(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
    );
    const inDatabase = new Map<string, string[]>();
    for (const { table_name, column_name } of rowsOf<{ table_name: string; column_name: string }>(result))
      inDatabase.set(table_name, [...(inDatabase.get(table_name) ?? []), column_name]);
    for (const table of tables)
      // Sorted: a column a later migration added comes last in the database, wherever the table lists it.
      expect(Object.values(getTableColumns(table)).map(databaseColumnName).sort(), getTableName(table)).toEqual(inDatabase.get(getTableName(table))?.sort());
  });
});

describe('the generated decoder in a select', () => {
  let schools: PgTable;
  let schoolId: number;
  beforeAll(async () => {
    schools = tables.find((t) => getTableName(t) === 'schools')!;
    schoolId = (await service.school('Decoded School')).id;
  });

  it('is reused by a select of the same columns built again', () => {
    const id = getTableColumns(schools).id;
    const first = service.db.select().from(schools).where(eq(id, sql.placeholder('id'))).prepare('decoder_test_all') as unknown as Internals;
    const again = service.db.select().from(schools).where(eq(id, schoolId)).prepare('decoder_test_again') as unknown as Internals;
    expect(first.customResultMapper).toBeTypeOf('function');
    expect(again.customResultMapper).toBe(first.customResultMapper);
  });

  it('leaves a select with a computed field to drizzle', async () => {
    const { id, name } = getTableColumns(schools);
    const prepared = service.db
      .select({ id, upper: sql<string>`upper(${name})` })
      .from(schools)
      .where(eq(id, sql.placeholder('id')))
      .prepare('decoder_test_computed');
    expect((prepared as unknown as Internals).customResultMapper).toBeUndefined();
    expect(await prepared.execute({ id: schoolId })).toEqual([{ id: schoolId, upper: 'DECODED SCHOOL' }]);
  });
});
