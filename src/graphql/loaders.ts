import { and, asc, Column, eq, getTableColumns, is, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { TenancyBreach } from '../auth/egress.js';
import { inSchool, inSchoolPrepared, inSchoolScope, oneSchool, schoolScope } from '../auth/tenancy.js';
import type { Queryable } from '../db/client.js';
import { columnKey, inList, inListPlaceholder } from '../db/columns.js';
import { childRowOf, PARENT_KEY } from '../db/rows.js';
import { notFound } from '../errors/app-error.js';
import { type Context, defineLoader, type LoaderDefinition, publicLoader } from './context.js';
import { registerListColumn } from './list-bounds.js';
import { registerLinkedIds } from './linked-ids.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/**
 * A statement built once per database and then only executed: drizzle otherwise builds a read's
 * text on every call (each column's name, casing and quoting), a third of what a by-id read
 * allocates. Kept beside the database (or transaction) object it was prepared on.
 */
export function builtOnce<Q>(build: (db: Queryable) => Q): (db: Queryable) => Q {
  const built = new WeakMap<Queryable, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) built.set(db, (query = build(db)));
    return query;
  };
}

/** A drizzle select, run as it is or prepared (what `db.select()...` gives). */
export type Select = PromiseLike<unknown> & { prepare(name: string): { execute(values: Record<string, unknown>): Promise<unknown> } };

/**
 * The two shapes of a school-scoped read with the tenancy of `inSchool` (tenancy.ts): one school's
 * rows, or every school's for the platform across schools. `ownWhere` is the read's own condition,
 * `query` the select around a condition (the read's own condition may be inside it instead, over
 * placeholders: then `ownWhere` is undefined). The read answers null when the context reads no school's
 * rows (the caller's general path decides).
 */
export function schoolScopedRead<R>(table: Owned, name: string, query: (db: Queryable, where: SQL | undefined) => Select, ownWhere: SQL | undefined) {
  const inOneSchool = builtOnce((db) => query(db, and(ownWhere, inSchoolPrepared(table.schoolId))).prepare(`${name}.school`));
  const acrossSchools = builtOnce((db) => query(db, ownWhere).prepare(`${name}.all`));
  return (ctx: Context, values: Record<string, unknown>): Promise<R[]> | null => {
    const scope = schoolScope(ctx);
    if (scope === 'none') return null;
    const read = scope === 'all' ? acrossSchools(ctx.db).execute(values) : inOneSchool(ctx.db).execute({ ...values, schoolId: scope });
    return read as Promise<R[]>;
  };
}

/**
 * The rows of a batch: those whose `column` holds one of the keys, with the tenancy of `inSchool` on
 * `table`, or `condition` where a read sees otherwise (a student its own rows). `select` is the read
 * around a condition; without a condition of its own, it is built once (schoolScopedRead).
 */
function keyedRead<R>(table: Owned, name: string, column: PgColumn, select: (db: Queryable, where: SQL | undefined) => Select, condition?: (ctx: Context) => SQL | undefined) {
  const prepared = condition ? null : schoolScopedRead<R>(table, name, select, inListPlaceholder(column, 'keys'));
  const where = condition ?? ((ctx: Context) => inSchool(ctx, table.schoolId));
  return async (ctx: Context, keys: readonly number[]): Promise<R[]> =>
    ((await prepared?.(ctx, { keys: [...keys] })) ?? (await select(ctx.db, and(inList(column, keys), where(ctx))!))) as R[];
}

/** A by-id loader that names its table (a resource's base reads the table from its loader). */
export interface ByIdLoader<T extends Owned> extends LoaderDefinition<number, T['$inferSelect'] | null> {
  readonly table: T;
  /**
   * The loader of the same rows with only `columns` (keys of the table: asked-columns.ts' askedColumns)
   * and the id and school: one loader per column list, its statements built once like the whole rows'.
   */
  narrowed?(columns: readonly string[]): LoaderDefinition<number, T['$inferSelect'] | null>;
}

/** The loader's variant of only `columns` (askedColumns), or the loader itself when they are null (every column). */
export const narrowedTo = <L>(loader: L & { narrowed(columns: readonly string[]): L }, columns: readonly string[] | null): L =>
  columns ? loader.narrowed(columns) : loader;

/** Column lists a loader keeps a variant for (narrowedVariants); more read every column. */
export const MAX_NARROWED_VARIANTS = 32;

/**
 * The variants of a loader that read only some columns of `table`, one per column list (with `keep`
 * always), made by `make` under the name `name(columns)`: found by the list itself first (askedColumns
 * gives the same array for every request of a document), then by its sorted keys.
 */
export function narrowedVariants<L>(name: string, table: PgTable, keep: readonly string[], make: (name: string, selected: Record<string, PgColumn>) => L) {
  const tableColumns = getTableColumns(table) as Record<string, PgColumn>;
  const variants = new Map<string, L>();
  const byList = new WeakMap<readonly string[], L>();
  let everyColumn: L | undefined;
  return (columns: readonly string[]): L => {
    const known = byList.get(columns);
    if (known) return known;
    const keys = [...new Set([...columns, ...keep])].sort();
    const key = keys.join(',');
    let variant = variants.get(key);
    if (!variant) {
      if (keys.some((k) => !tableColumns[k])) throw new Error(`${name}: ${key} are not all columns of the table`);
      // Each variant holds statements prepared on every connection: documents asking for ever new column
      // lists (an attacker's) get the variant of every column, past MAX_NARROWED_VARIANTS.
      if (variants.size >= MAX_NARROWED_VARIANTS) variant = everyColumn ??= make(`${name}(*)`, tableColumns);
      else variants.set(key, (variant = make(`${name}(${key})`, Object.fromEntries(keys.map((k) => [k, tableColumns[k]])))));
    }
    byList.set(columns, variant);
    return variant;
  };
}

/**
 * Rows of a school-owned table by id, filtered by the caller's school, or by `visible` where a
 * credential sees less (a student its own rows). A row not visible is null.
 *
 * A row outside the request's scope that the read still returned (a `visible` that forgot the
 * school) is withheld as not found, a 404 like any foreign id, and the breach is logged under the
 * request; the output check (auth/egress.ts) stays behind it for every other loader and reply.
 */
export function byIdLoader<T extends Owned>(
  name: string,
  table: T,
  visible?: (ctx: Context) => SQL | undefined,
): ByIdLoader<T> & Required<Pick<ByIdLoader<T>, 'narrowed'>> & { selecting(name: string, extra: Record<string, SQL.Aliased>): LoaderDefinition<number, T['$inferSelect'] | null> } {
  const loaderOf = (loaderName: string, selected?: Record<string, PgColumn | SQL.Aliased>) => {
    const read = byIdRead(loaderName, table, visible, selected);
    return defineLoader(loaderName, async (ctx, ids: readonly number[]) => withheldForeign(ctx, loaderName, ids, await read(ctx, ids)));
  };
  // `selecting`: the whole rows with computed columns besides (linked-ids.ts' byIdWithLinks).
  const selecting = (loaderName: string, extra: Record<string, SQL.Aliased>) => loaderOf(loaderName, { ...getTableColumns(table), ...extra });
  return { ...loaderOf(name), table, narrowed: narrowedVariants(name, table, ['id', 'schoolId'], loaderOf), selecting };
}

/**
 * A by-id batch's rows in the order of the ids (null for an id not read). A row outside the request's
 * scope is withheld (null) and the breach logged (byIdLoader).
 */
export function withheldForeign<R extends { id: number; schoolId?: unknown }>(ctx: Context, name: string, ids: readonly number[], rows: readonly R[]): (R | null)[] {
  let foreign: number[] | undefined;
  const byId = new Map<number, R>();
  for (const row of rows) {
    // A row of no school (a nullable school_id) is not judged, as the output check does not judge it.
    if (typeof row.schoolId !== 'number' || inSchoolScope(ctx, row.schoolId)) byId.set(row.id, row);
    else (foreign ??= []).push(row.schoolId);
  }
  if (foreign) ctx.log(new TenancyBreach(name, oneSchool(ctx), [...new Set(foreign)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** A by-id loader of a public view (a media's, read with no credential): any school's row for whoever names it, unchecked. */
export function publicByIdLoader<T extends Owned>(name: string, table: T): ByIdLoader<T> {
  const read = byIdRead(name, table, () => undefined);
  const loader = defineLoader(name, async (ctx, ids: readonly number[]) => {
    const byId = new Map((await read(ctx, ids)).map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
  return { ...publicLoader(loader), table };
}

function byIdRead<T extends Owned>(name: string, table: T, visible?: (ctx: Context) => SQL | undefined, selected?: Record<string, PgColumn | SQL.Aliased>) {
  type Row = T['$inferSelect'] & { id: number; schoolId: number | null };
  return keyedRead<Row>(table, name, table.id, (db, where) => (selected ? db.select(selected) : db.select()).from(table as PgTable).where(where), visible);
}

/** A batch's rows grouped by their parent, in the order of the parents asked for (none for a parent without rows). */
export function groupedByParent<R, V>(parentIds: readonly number[], rows: readonly R[], parentOf: (row: R) => number, valueOf: (row: R) => V): V[][] {
  const byParent = new Map<number, V[]>();
  for (const row of rows) {
    const values = byParent.get(parentOf(row));
    if (values) values.push(valueOf(row));
    else byParent.set(parentOf(row), [valueOf(row)]);
  }
  return parentIds.map((id) => byParent.get(id) ?? []);
}

/** A children loader (childrenLoader), and its variants that read only some columns. */
export interface ChildrenLoader<T extends Owned> extends LoaderDefinition<number, T['$inferSelect'][]> {
  /**
   * The loader of the same rows with only `columns` (keys of the table: asked-columns.ts' askedColumns,
   * which keeps the id and school) and the parent's key: one loader per column list, its statements
   * built once like the whole rows'.
   */
  narrowed(columns: readonly string[]): LoaderDefinition<number, T['$inferSelect'][]>;
}

/** All children of each parent, in `orderBy` order (then id). */
export function childrenLoader<T extends Owned>(
  name: string,
  table: T,
  parentColumn: PgColumn,
  orderBy: PgColumn[] = [],
  where?: (ctx: Context) => SQL | undefined,
): ChildrenLoader<T> {
  const parentKey = columnKey(table, parentColumn);
  registerListColumn(name, table, parentColumn);
  const order = [...orderBy.map((c) => asc(c)), asc(table.id)];
  const loaderOf = (loaderName: string, selected?: Record<string, PgColumn>) => {
    const read = keyedRead<Record<string, any>>(
      table,
      loaderName,
      parentColumn,
      (db, condition) => (selected ? db.select(selected) : db.select()).from(table as PgTable).where(condition).orderBy(...order),
      where && ((ctx) => and(inSchool(ctx, table.schoolId), where(ctx))),
    );
    return defineLoader(loaderName, async (ctx, parentIds: readonly number[]) => {
      const rows = await read(ctx, parentIds);
      return groupedByParent(parentIds, rows, (row) => row[parentKey] as number, (row) => row as T['$inferSelect']);
    });
  };
  const narrowed = narrowedVariants(name, table as PgTable, ['id', 'schoolId', parentKey], loaderOf);
  return Object.assign(loaderOf(name), { narrowed });
}

/** Loads one row through a by-id loader, or fails with 404 (missing and foreign rows alike). */
export async function findOr404<V>(ctx: Context, loader: LoaderDefinition<number, V | null>, id: number, what: string): Promise<V> {
  const row = Number.isSafeInteger(id) ? await ctx.loaders.get(loader).load(id) : null;
  if (!row) throw notFound(what);
  return row;
}

/**
 * The ids linked to each parent through a join table (`school_product_categories`), in the link's
 * order. The join table has no school: the parent table (`parent`) is joined for its school, so a
 * parent of another school links nothing, whoever asks.
 */
export function linkedIdsLoader(
  name: string,
  table: PgTable,
  parentColumn: PgColumn,
  childColumn: PgColumn,
  parent: Owned,
  orderBy?: PgColumn,
): LoaderDefinition<number, number[]> {
  const loader = linkLoader<number>(name, table, parentColumn, parent, eq(parent.id, parentColumn), childColumn, [...(orderBy ? [asc(orderBy)] : []), asc(childColumn)]);
  registerLinkedIds(loader, { link: table, parentColumn, childColumn, parent, orderBy });
  return loader;
}

/**
 * What a link table (`path_courses`) gives each parent, in `order`: `value` (a column, or a table's
 * columns) of the link joined to the table whose school scopes the rows (`scopedBy`, on `joinOn`).
 * One statement for the batch, built once for the usual reader of one school's rows.
 */
export function linkLoader<V>(
  name: string,
  link: PgTable,
  parentColumn: PgColumn,
  scopedBy: Owned,
  joinOn: SQL,
  value: PgColumn | Record<string, PgColumn>,
  order: SQL[],
  /** Whether the loader serves a list field of its name (list-bounds.ts); a narrowed variant serves its loader's. */
  listField = true,
): LoaderDefinition<number, V[]> {
  if (listField) registerListColumn(name, link, parentColumn);
  // A table's columns are read flat, beside the parent (PARENT_KEY), and each row made of them after.
  const columns = is(value, Column) ? null : (value as Record<string, PgColumn>);
  const selection: Record<string, PgColumn> = columns ? { ...columns, [PARENT_KEY]: parentColumn } : { [PARENT_KEY]: parentColumn, value: value as PgColumn };
  const select = (db: Queryable, where: SQL | undefined) =>
    db
      .select(selection)
      .from(link)
      .innerJoin(scopedBy as PgTable, joinOn)
      .where(where)
      .orderBy(...order);
  const read = keyedRead<Record<string, unknown>>(scopedBy, name, parentColumn, select);
  const valueOf = columns ? childRowOf<V>(Object.keys(columns)) : (row: Record<string, unknown>) => row.value as V;
  return defineLoader(name, async (ctx, parentIds) => {
    const rows = await read(ctx, parentIds);
    return groupedByParent(parentIds, rows, (r) => r[PARENT_KEY] as number, valueOf);
  });
}

/** The rows of a by-id loader for a list of ids, skipping ids that are gone. */
export async function loadMany<V>(ctx: Context, loader: LoaderDefinition<number, V | null>, ids: readonly number[]): Promise<V[]> {
  const rows = await ctx.loaders.get(loader).loadMany(ids);
  // DataLoader hands a failed batch back as Errors, not a rejection: a breach or a failed read must fail the field, not read as gone.
  const failed = rows.find((r) => r instanceof Error);
  if (failed) throw failed;
  return rows.filter((r): r is V => r !== null && !(r instanceof Error));
}
