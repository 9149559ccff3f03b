import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inSchool, schoolScope } from '../auth/tenancy.js';
import type { Queryable } from '../db/client.js';
import { columnKey, inList, inListPlaceholder } from '../db/columns.js';
import { type Context, defineLoader, type LoaderDefinition } from './context.js';
import { notFound } from './errors.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/**
 * A statement built once per database and then only executed: drizzle otherwise builds a read's
 * text on every call (each column's name, casing and quoting), a third of what a by-id read
 * allocates. Kept beside the database (or transaction) object it was prepared on.
 */
function builtOnce<Q>(build: (db: Queryable) => Q): (db: Queryable) => Q {
  const built = new WeakMap<Queryable, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) built.set(db, (query = build(db)));
    return query;
  };
}

/** A drizzle select that can be prepared (what `db.select()...` gives). */
type Preparable = { prepare(name: string): { execute(values: Record<string, unknown>): Promise<unknown> } };

/**
 * The two shapes of a school-scoped read with the tenancy of `inSchool` (tenancy.ts): one school's
 * rows, or every school's for the platform across schools. `ownWhere` is the read's own condition,
 * `query` the select around a condition. The read answers null when the context reads no school's
 * rows (the caller's general path decides).
 */
export function schoolScopedRead<R>(table: Owned, name: string, query: (db: Queryable, where: SQL) => Preparable, ownWhere: SQL) {
  const inOneSchool = builtOnce((db) => query(db, and(ownWhere, eq(table.schoolId, sql.placeholder('schoolId')))!).prepare(`${name}.school`));
  const acrossSchools = builtOnce((db) => query(db, ownWhere).prepare(`${name}.all`));
  return (ctx: Context, values: Record<string, unknown>): Promise<R[]> | null => {
    const scope = schoolScope(ctx);
    if (scope === 'none') return null;
    const read = scope === 'all' ? acrossSchools(ctx.db).execute(values) : inOneSchool(ctx.db).execute({ ...values, schoolId: scope });
    return read as Promise<R[]>;
  };
}

/** A by-id loader that names its table (a resource's base reads the table from its loader). */
export interface ByIdLoader<T extends Owned> extends LoaderDefinition<number, T['$inferSelect'] | null> {
  readonly table: T;
}

/**
 * Rows of a school-owned table by id, filtered by the caller's school, or by `visible` where a
 * credential sees less (a student its own rows). A row not visible is null.
 */
export function byIdLoader<T extends Owned>(name: string, table: T, visible?: (ctx: Context) => SQL | undefined): ByIdLoader<T> {
  type Row = T['$inferSelect'] & { id: number };
  const prepared = visible ? null : schoolScopedRead<Row>(table, name, (db, where) => db.select().from(table as PgTable).where(where), inListPlaceholder(table.id, 'ids'));
  const condition = visible ?? ((ctx: Context) => inSchool(ctx, table.schoolId));
  const loader = defineLoader(name, async (ctx, ids: readonly number[]) => {
    const rows = ((await prepared?.(ctx, { ids: [...ids] })) ??
      (await ctx.db
        .select()
        .from(table as PgTable)
        .where(and(inList(table.id, ids), condition(ctx))))) as Row[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
  return { ...loader, table };
}

/** All children of each parent, in `orderBy` order (then id). */
export function childrenLoader<T extends Owned>(
  name: string,
  table: T,
  parentColumn: PgColumn,
  orderBy: PgColumn[] = [],
  where?: (ctx: Context) => SQL | undefined,
): LoaderDefinition<number, T['$inferSelect'][]> {
  const parentKey = columnKey(table, parentColumn);
  const order = [...orderBy.map((c) => asc(c)), asc(table.id)];
  const prepared = where
    ? null
    : schoolScopedRead<Record<string, any>>(table, name, (db, condition) => db.select().from(table as PgTable).where(condition).orderBy(...order), inListPlaceholder(parentColumn, 'parentIds'));
  return defineLoader(name, async (ctx, parentIds) => {
    const rows = ((await prepared?.(ctx, { parentIds: [...parentIds] })) ??
      (await ctx.db
        .select()
        .from(table as PgTable)
        .where(and(inList(parentColumn, parentIds), inSchool(ctx, table.schoolId), where?.(ctx)))
        .orderBy(...order))) as Record<string, any>[];
    const byParent = new Map<number, T['$inferSelect'][]>();
    for (const row of rows) {
      const list = byParent.get(row[parentKey]) ?? [];
      list.push(row as T['$inferSelect']);
      byParent.set(row[parentKey], list);
    }
    return parentIds.map((id) => byParent.get(id) ?? []);
  });
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
  type Link = { parentId: number; childId: number };
  const order = [...(orderBy ? [asc(orderBy)] : []), asc(childColumn)];
  const select = (db: Queryable, where: SQL) =>
    db
      .select({ parentId: parentColumn, childId: childColumn })
      .from(table)
      .innerJoin(parent as PgTable, eq(parent.id, parentColumn))
      .where(where)
      .orderBy(...order);
  const prepared = schoolScopedRead<Link>(parent, name, select, inListPlaceholder(parentColumn, 'parentIds'));
  return defineLoader(name, async (ctx, parentIds) => {
    const rows = (await prepared(ctx, { parentIds: [...parentIds] })) ?? ((await select(ctx.db, and(inList(parentColumn, parentIds), inSchool(ctx, parent.schoolId))!)) as Link[]);
    const byParent = new Map<number, number[]>();
    for (const r of rows) {
      const ids = byParent.get(r.parentId);
      if (ids) ids.push(r.childId);
      else byParent.set(r.parentId, [r.childId]);
    }
    return parentIds.map((id) => byParent.get(id) ?? []);
  });
}

/** The rows of a by-id loader for a list of ids, skipping ids that are gone. */
export async function loadMany<V>(ctx: Context, loader: LoaderDefinition<number, V | null>, ids: readonly number[]): Promise<V[]> {
  const rows = await ctx.loaders.get(loader).loadMany(ids);
  return rows.filter((r): r is V => r !== null && !(r instanceof Error));
}
