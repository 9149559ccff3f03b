import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inSchool } from '../auth/tenancy.js';
import { columnKey, inList } from '../db/columns.js';
import { type Context, defineLoader, type LoaderDefinition } from './context.js';
import { notFound } from './errors.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/**
 * Rows of a school-owned table by id, filtered by the caller's school, or by `visible` where a
 * credential sees less (a student its own rows). A row not visible is null.
 */
export function byIdLoader<T extends Owned>(
  name: string,
  table: T,
  visible: (ctx: Context) => SQL | undefined = (ctx) => inSchool(ctx, table.schoolId),
): LoaderDefinition<number, T['$inferSelect'] | null> {
  return defineLoader(name, async (ctx, ids) => {
    const rows = (await ctx.db
      .select()
      .from(table as PgTable)
      .where(and(inList(table.id, ids), visible(ctx)))) as (T['$inferSelect'] & { id: number })[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
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
  return defineLoader(name, async (ctx, parentIds) => {
    const rows = (await ctx.db
      .select()
      .from(table as PgTable)
      .where(and(inList(parentColumn, parentIds), inSchool(ctx, table.schoolId), where?.(ctx)))
      .orderBy(...orderBy.map((c) => asc(c)), asc(table.id))) as Record<string, any>[];
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
  return defineLoader(name, async (ctx, parentIds) => {
    const rows = await ctx.db
      .select({ parentId: parentColumn, childId: childColumn })
      .from(table)
      .innerJoin(parent as PgTable, eq(parent.id, parentColumn))
      .where(and(inList(parentColumn, parentIds), inSchool(ctx, parent.schoolId)))
      .orderBy(...(orderBy ? [asc(orderBy)] : []), asc(childColumn));
    const byParent = new Map<number, number[]>();
    for (const r of rows as { parentId: number; childId: number }[]) byParent.set(r.parentId, [...(byParent.get(r.parentId) ?? []), r.childId]);
    return parentIds.map((id) => byParent.get(id) ?? []);
  });
}

/** The rows of a by-id loader for a list of ids, skipping ids that are gone. */
export async function loadMany<V>(ctx: Context, loader: LoaderDefinition<number, V | null>, ids: readonly number[]): Promise<V[]> {
  const rows = await ctx.loaders.get(loader).loadMany(ids);
  return rows.filter((r): r is V => r !== null && !(r instanceof Error));
}
