import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Column, getTableName, is, SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgColumnBuilderBase, PgDialect, UpdateDeleteAction } from 'drizzle-orm/pg-core';
import { CasingCache } from 'drizzle-orm/casing';
import type postgres from 'postgres';
import { config } from '../config.js';

/**
 * The one door to the libraries' internals: what this service changes in drizzle (how a select's
 * rows become objects, through its private positional `prepareQuery`) and in postgres.js (every
 * statement prepared, through `unsafe`, `begin` and `savepoint`), and how it names a column in SQL
 * written by hand (drizzle's casing cache). Each change is made only on the versions it was
 * verified on (test/driver-adapter.test.ts decodes every table's rows each way); on another version
 * the service warns at start-up and keeps to what needs no internals.
 */

/** The installed versions each adaptation was verified on. Add one only after test/driver-adapter.test.ts passes on it. */
export const VERIFIED_VERSIONS = { 'drizzle-orm': ['0.45.4'], postgres: ['3.4.9'] } as const;
type Library = keyof typeof VERIFIED_VERSIONS;

/**
 * How a select's rows become objects (DATABASE_ROW_DECODER): `generated`, a function generated once
 * per column list; `plain`, a loop over the columns (no code generation); `drizzle`, drizzle's own
 * mapping, unpatched.
 */
export type RowDecoder = typeof config.rowDecoder;

/** What the adapter does in this process, and why it does less than asked. */
export interface DriverPlan {
  versions: Record<Library, string>;
  rowDecoder: RowDecoder;
  /** Whether a postgres.js client may be made to prepare every statement (prepareEveryStatement). */
  prepareEveryStatement: boolean;
  /** Said once at start-up: `rows` for either driver, `statements` for PostgreSQL with DATABASE_PREPARE on. */
  warnings: { about: 'rows' | 'statements'; message: string }[];
}

/** A package's installed version, read from its package.json (which neither package exports: found above its entry point). */
export function installedVersion(name: Library): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const found = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (found.name === name) return found.version ?? 'unknown';
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** The plan for given versions and settings: a pure function, so each case is tested without installing another version. */
export function planDrivers(input: { versions: Record<Library, string>; configured: RowDecoder }): DriverPlan {
  const { versions } = input;
  const verified = (library: Library) => (VERIFIED_VERSIONS[library] as readonly string[]).includes(versions[library]);
  const warnings: DriverPlan['warnings'] = [];
  const unverified = (library: Library) =>
    `${library} ${versions[library]} is not a version the database adapter was verified on (${VERIFIED_VERSIONS[library].join(', ')}; src/db/driver-adapter.ts)`;
  let rowDecoder = input.configured;
  if (rowDecoder === 'generated' && !verified('drizzle-orm')) {
    rowDecoder = 'plain';
    warnings.push({ about: 'rows', message: `${unverified('drizzle-orm')}: rows are mapped by the plain decoder` });
  }
  // Both: drizzle calls the postgres.js functions this wraps.
  const unverifiedForStatements = (['drizzle-orm', 'postgres'] as const).filter((library) => !verified(library));
  const prepareEveryStatement = unverifiedForStatements.length === 0;
  if (!prepareEveryStatement) {
    const why = unverifiedForStatements.map(unverified).join('; ');
    warnings.push({ about: 'statements', message: `${why}: statements are sent unnamed, as drizzle sends them (DATABASE_PREPARE has no effect)` });
  }
  return { versions, rowDecoder, prepareEveryStatement, warnings };
}

let plan: DriverPlan | undefined;

/** This process's plan: the installed versions and DATABASE_ROW_DECODER, checked once, when the first database is opened. */
export function driverPlan(): DriverPlan {
  return (plan ??= planDrivers({
    versions: { 'drizzle-orm': installedVersion('drizzle-orm'), postgres: installedVersion('postgres') },
    configured: config.rowDecoder,
  }));
}

// ---------------------------------------------------------------------------------------------
// drizzle: a column's name in the database.

/** The casing every drizzle instance is opened with (db/client.ts): a column named only by its key is the key in snake_case. */
export const CASING = 'snake_case' as const;
const casingCache = new CasingCache(CASING);

/** A column's `.references()` as drizzle's column builder keeps it until its table is built. */
export type ColumnReference = { ref: () => AnyPgColumn; actions: { onDelete?: UpdateDeleteAction; onUpdate?: UpdateDeleteAction } };

/**
 * Takes the references off column builders (drizzle keeps them in each builder's `foreignKeyConfigs`), by
 * column key, for their table to declare as foreign keys of its own (db/tables.ts: the co-located keys of
 * sharding by school). drizzle then builds no foreign key of the column's own.
 */
export function takeColumnReferences(columns: Record<string, PgColumnBuilderBase>): [string, ColumnReference][] {
  return Object.entries(columns).flatMap(([key, builder]) => {
    const configs = (builder as unknown as { foreignKeyConfigs: ColumnReference[] }).foreignKeyConfigs;
    return configs.splice(0).map((reference): [string, ColumnReference] => [key, reference]);
  });
}

/** A column's name in the database, as drizzle writes it under CASING: for SQL written by hand around a table's columns. */
export function databaseColumnName(column: Column): string {
  return casingCache.getColumnCasing(column);
}

// ---------------------------------------------------------------------------------------------
// drizzle: a select's rows (arrays, as drizzle asks the driver for them) to objects.

/** What drizzle keeps of a select's columns: each result column's property path and the column (or SQL). */
export interface SelectedField {
  path: string[];
  field: unknown;
}

export type Decoder = (rows: unknown[][]) => object[];

const identity = Column.prototype.mapFromDriverValue;

/** Decoders by kind, then by the first column of their select, then by the whole list's signature (the columns are the table's own objects). */
const decoders = { generated: new WeakMap<Column, Map<string, Decoder>>(), plain: new WeakMap<Column, Map<string, Decoder>>() };

/**
 * A decoder of a select's rows: one object per row, of one shape, each value decoded only where its
 * column has a decoder (timestamps to Date). drizzle's own mapping (mapResultRow) walks every column
 * of every row through its entity checks and casing lookups, the largest part of what a read of many
 * rows costs; the result is the same for a select of plain columns, each at the top level. Anything
 * else (a computed field, a nested object, a join) gets null: drizzle's mapping stays.
 */
export function decoderFor(fields: SelectedField[] | undefined, kind: Exclude<RowDecoder, 'drizzle'>): Decoder | null {
  if (!fields?.length) return null;
  let signature = '';
  for (const f of fields) {
    if (f.path.length !== 1 || !(f.field instanceof Column)) return null;
    signature += `${f.path[0]}=${getTableName(f.field.table)}.${f.field.name},`;
  }
  const first = fields[0].field as Column;
  let known = decoders[kind].get(first);
  if (!known) decoders[kind].set(first, (known = new Map()));
  const decoder = known.get(signature);
  if (decoder) return decoder;
  // A flat row: each field under its name (groupedDecoder's shape with no joined rows); null for a key named twice.
  const made = groupedDecoder(fields, kind, { keys: fields.map((f) => f.path[0]), groups: [], constants: [] });
  if (made) known.set(signature, made);
  return made;
}

/** The decoder kinds this adapter makes (drizzle's own mapping aside). */
export type RowDecoderKind = Exclude<RowDecoder, 'drizzle'>;

/** What a field's value is decoded by, as drizzle's mapResultRow decodes it; null for a field it does not read this way. */
function fieldDecoder(field: unknown): { mapFromDriverValue(value: unknown): unknown } | null {
  if (is(field, Column)) return field;
  // drizzle keeps a SQL's decoder (its mapWith) on a private member.
  if (is(field, SQL)) return (field as unknown as { decoder: { mapFromDriverValue(value: unknown): unknown } }).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: { mapFromDriverValue(value: unknown): unknown } }).decoder;
  return null;
}

/** The shape of the rows groupedDecoder makes. */
export interface GroupedRows {
  /** The top-level properties: fields named so (a field's path is its name). */
  keys: readonly string[];
  /**
   * Objects under `key`, of the fields `names` under `keys` (a joined table's columns): undefined when
   * the first of them (the joined row's id) is not a number (a left join that found no row).
   */
  groups: readonly { key: symbol; keys: readonly string[]; names: readonly string[] }[];
  /** The same value on every row (the rows keep one shape). */
  constants: readonly (readonly [symbol, unknown])[];
}

/**
 * A decoder of a select's rows into objects of one shape (GroupedRows), each value decoded as drizzle
 * decodes it: generated once (kind `generated`) or a loop (`plain`). Null when the fields are not
 * exactly those the shape names, each at the top level.
 */
export function groupedDecoder(fields: SelectedField[], kind: RowDecoderKind, shape: GroupedRows): Decoder | null {
  const index = new Map<string, number>();
  for (const [i, f] of fields.entries()) if (f.path.length === 1) index.set(f.path[0], i);
  const names = [...shape.keys, ...shape.groups.flatMap((g) => g.names)];
  if (index.size !== fields.length || names.length !== fields.length || names.some((n) => !index.has(n))) return null;
  const decoders = fields.map((f) => fieldDecoder(f.field));
  if (decoders.some((d) => d === null)) return null;
  const decodes = decoders.map((d) => d!.mapFromDriverValue !== identity);
  const at = (name: string) => index.get(name)!;
  if (kind === 'plain') {
    const own = shape.keys.map(at);
    const groups = shape.groups.map((g) => ({ key: g.key, keys: g.keys, at: g.names.map(at) }));
    const value = (row: unknown[], i: number) => (row[i] === null || !decodes[i] ? row[i] : decoders[i]!.mapFromDriverValue(row[i]));
    return (rows) =>
      (rows as unknown[][]).map((row) => {
        const object: Record<string | symbol, unknown> = {};
        for (let k = 0; k < own.length; k++) object[shape.keys[k]] = value(row, own[k]);
        for (const g of groups) {
          const id = value(row, g.at[0]);
          let found: Record<string, unknown> | undefined;
          if (typeof id === 'number') {
            found = { [g.keys[0]]: id };
            for (let k = 1; k < g.keys.length; k++) found[g.keys[k]] = value(row, g.at[k]);
          }
          object[g.key] = found;
        }
        for (const [key, constant] of shape.constants) object[key] = constant;
        return object;
      });
  }
  const value = (name: string) => {
    const i = at(name);
    return decodes[i] ? `(r[${i}] === null ? null : d[${i}].mapFromDriverValue(r[${i}]))` : `r[${i}]`;
  };
  const lines = shape.groups.map((g, n) => {
    const entries = g.keys.map((k, i) => `${JSON.stringify(k)}: ${i === 0 ? `id${n}` : value(g.names[i])}`);
    return `const id${n} = ${value(g.names[0])}; const g${n} = typeof id${n} === 'number' ? { ${entries.join(', ')} } : undefined;`;
  });
  const entries = [
    ...shape.keys.map((k) => `${JSON.stringify(k)}: ${value(k)}`),
    ...shape.groups.map((_, n) => `[G[${n}]]: g${n}`),
    ...shape.constants.map((_, n) => `[C[${n}]]: V[${n}]`),
  ];
  const decodeRow = new Function('d', 'G', 'C', 'V', `return (r) => { ${lines.join(' ')} return { ${entries.join(', ')} }; };`)(
    decoders,
    shape.groups.map((g) => g.key),
    shape.constants.map(([key]) => key),
    shape.constants.map(([, constant]) => constant),
  ) as (row: unknown[]) => object;
  return (rows) => rows.map(decodeRow);
}

/**
 * A decoder that the select being prepared asks for (selectDecoding), in place of decoderFor's: given the
 * select's fields and the decoder kind in force, it answers a decoder, or null to leave the rows to decoderFor.
 */
export type DecoderOfFields = (fields: SelectedField[], kind: RowDecoderKind) => Decoder | null;
let decoderAsked: DecoderOfFields | null = null;
let decoderGiven = false;

/**
 * Runs `prepare` (a drizzle select's `.prepare(name)`, which hands the session its fields at once) with
 * rows decoded by `decoder`'s answer for the select's fields, where this adapter decodes rows (not under
 * drizzle's own mapping, nor for a query with a mapper of its own). `decoded` tells whether it did: the
 * rows are then what that decoder made, else drizzle's or decoderFor's objects.
 */
export function selectDecoding<Q>(decoder: DecoderOfFields, prepare: () => Q): { prepared: Q; decoded: boolean } {
  decoderAsked = decoder;
  decoderGiven = false;
  try {
    const prepared = prepare();
    return { prepared, decoded: decoderGiven };
  } finally {
    decoderAsked = null;
    decoderGiven = false;
  }
}

/** selectDecoding's decoder for the fields, when one is asked for and answers. */
function askedDecoder(fields: SelectedField[] | undefined, kind: RowDecoderKind): Decoder | null {
  if (!decoderAsked || !fields?.length) return null;
  const decoder = decoderAsked(fields, kind);
  if (decoder) decoderGiven = true;
  return decoder;
}

/** A drizzle session class (each driver has its own), whose prepareQuery is given the decoders. */
export interface SessionClass {
  prototype: { prepareQuery(query: unknown, fields: SelectedField[] | undefined, name: unknown, arrayMode: unknown, customResultMapper?: unknown, ...rest: unknown[]): unknown };
}

/** The parameters the patch relies on, by position, as drizzle 0.45 names them. */
const PREPARE_QUERY_PARAMETERS = { 1: 'fields', 4: 'customResultMapper' } as const;

/** The parameter names of a function, from its source (drizzle ships plain JavaScript); null when they cannot be read. */
function parameterNames(fn: (...args: never[]) => unknown): string[] | null {
  const head = /^[^(]*\(([^)]*)\)/.exec(Function.prototype.toString.call(fn));
  return head ? head[1].split(',').map((p) => p.trim().replace(/\s*=.*$/, '')) : null;
}

/** What a session class was given: the decoder in force, and why it is drizzle's own when another was asked for. */
export interface SessionAdaptation {
  rowDecoder: RowDecoder;
  warning?: string;
}

const adapted = new Map<SessionClass, SessionAdaptation>();

/**
 * Every select, insert … returning and prepared statement of a driver's sessions (transactions
 * included) maps its rows with the plan's decoder, where it applies; a query with its own mapper
 * (drizzle's relational queries) keeps it. Done once per driver, when the database is opened.
 * drizzle maps the rows itself when the plan says so, or when prepareQuery's parameters are no
 * longer where the patch puts the decoder.
 */
export function decodeRowsOfSessions(Session: SessionClass, kind = driverPlan().rowDecoder): SessionAdaptation {
  const done = adapted.get(Session);
  if (done) return done;
  const prepareQuery = Session.prototype.prepareQuery;
  const names = parameterNames(prepareQuery);
  const fits = !!names && Object.entries(PREPARE_QUERY_PARAMETERS).every(([i, name]) => names[Number(i)] === name);
  const adaptation: SessionAdaptation =
    kind === 'drizzle' || fits
      ? { rowDecoder: kind }
      : { rowDecoder: 'drizzle', warning: `drizzle's prepareQuery takes (${names?.join(', ')}), not the parameters the adapter was verified on: rows are mapped by drizzle itself` };
  adapted.set(Session, adaptation);
  const decoder = adaptation.rowDecoder;
  if (decoder === 'drizzle') return adaptation;
  Session.prototype.prepareQuery = function (query, fields, name, arrayMode, customResultMapper, ...rest) {
    return prepareQuery.call(this, query, fields, name, arrayMode, customResultMapper ?? askedDecoder(fields, decoder) ?? decoderFor(fields, decoder) ?? undefined, ...rest);
  };
  return adaptation;
}

// ---------------------------------------------------------------------------------------------
// postgres.js: every statement prepared.

type Sql = postgres.Sql;

/**
 * drizzle names a statement (postgres.js prepares it) only for `.prepare(name)`; every other one
 * goes unnamed, parsed and planned on each call. This makes the client, and each transaction's and
 * savepoint's client, prepare every statement; postgres.js keeps them per connection by text.
 */
export function prepareEveryStatement<T extends Sql>(client: T): T {
  const unsafe = client.unsafe.bind(client);
  client.unsafe = ((query: string, args?: unknown, options?: object) =>
    Array.isArray(args) || args === undefined
      ? unsafe(query, args as never, { ...options, prepare: true })
      : unsafe(query, [], { ...(args as object), prepare: true })) as Sql['unsafe'];
  for (const name of ['begin', 'savepoint'] as const) {
    const original = (client as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>)[name];
    if (typeof original !== 'function') continue;
    (client as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const work = args.pop() as (inner: Sql) => unknown;
      return original.call(client, ...args, (inner: Sql) => work(prepareEveryStatement(inner)));
    };
  }
  return client;
}

/**
 * A hand-written statement (sql`` whose values are `sql.placeholder`s) made into its text once per
 * database, then run with values: what `db.execute` does, without building the text again on every
 * call (the rate limit's lease runs hundreds of times a second). Its result is `db.execute`'s
 * (read it with rowsOf).
 */
export function preparedRaw(statement: SQL): (db: object) => { execute(values: Record<string, unknown>): Promise<unknown> } {
  type Prepared = { execute(values: Record<string, unknown>): Promise<unknown> };
  const made = new WeakMap<object, Prepared>();
  return (db) => {
    let prepared = made.get(db);
    if (!prepared) {
      const { session, dialect } = db as { session: { prepareQuery(...args: unknown[]): Prepared }; dialect: PgDialect };
      prepared = session.prepareQuery(dialect.sqlToQuery(statement), undefined, undefined, false);
      made.set(db, prepared);
    }
    return prepared;
  };
}

/**
 * A statement's rows through a postgres.js cursor, `size` at a time (db/batches.ts), or null on a
 * database that is not postgres.js (PGlite). Leaving the iteration early closes the cursor and gives
 * its connection back.
 */
export function postgresCursor(db: unknown, statement: SQL, size: number): AsyncIterable<Record<string, unknown>[]> | null {
  const client = (db as { $client?: unknown }).$client as Sql | undefined;
  if (typeof client?.unsafe !== 'function') return null;
  const { sql: text, params } = (db as { dialect: PgDialect }).dialect.sqlToQuery(statement);
  return client.unsafe(text, params as never[]).cursor(size) as unknown as AsyncIterable<Record<string, unknown>[]>;
}
