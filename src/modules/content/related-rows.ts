import { and, asc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inSchool } from '../../auth/tenancy.js';
import type { Db, Queryable } from '../../db/client.js';
import { inList, inListPlaceholder } from '../../db/columns.js';
import { type Context, defineLoader, type LoaderDefinition } from '../../graphql/context.js';
import { schoolScopedRead } from '../../graphql/loaders.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/** Groups `{ parentId, row }` results by parent, in the keys' order. */
function byParent<V>(keys: readonly number[], rows: { parentId: number; row: V }[]): V[][] {
  const grouped = new Map<number, V[]>();
  for (const r of rows) {
    const list = grouped.get(r.parentId);
    if (list) list.push(r.row);
    else grouped.set(r.parentId, [r.row]);
  }
  return keys.map((k) => grouped.get(k) ?? []);
}

/**
 * The rows of `child` linked to each parent through a link table (`path_courses`), in `orderBy`
 * order within a parent: one statement for the batch. The child's school filters the rows.
 */
export function linkedRowsLoader<T extends Owned>(
  name: string,
  link: PgTable,
  parentColumn: PgColumn,
  childColumn: PgColumn,
  child: T,
  orderBy: (PgColumn | SQL)[],
): LoaderDefinition<number, T['$inferSelect'][]> {
  type Linked = { parentId: number; row: T['$inferSelect'] };
  const order = [asc(parentColumn), ...orderBy.map((c) => asc(c))];
  const select = (db: Queryable, where: SQL) =>
    db
      .select({ parentId: parentColumn, row: getTableColumns(child as PgTable) })
      .from(link)
      .innerJoin(child as PgTable, eq(child.id, childColumn))
      .where(where)
      .orderBy(...order);
  // Built once (a prepared statement) for the usual reader of one school's rows.
  const prepared = schoolScopedRead<Linked>(child, name, select, inListPlaceholder(parentColumn, 'parentIds'));
  return defineLoader(name, async (ctx, parentIds) => {
    const rows = (await prepared(ctx, { parentIds: [...parentIds] })) ?? ((await select(ctx.db, and(inList(parentColumn, [...parentIds]), inSchool(ctx, child.schoolId))!)) as Linked[]);
    return byParent(parentIds, rows);
  });
}

/** A ranking of several products' content (content-order.ts): each product's ids with their rank. */
type ProductRanks = (db: Db, productIds: number[]) => { productId: SQL.Aliased<number> | PgColumn; id: SQL.Aliased<number> | PgColumn; rank: SQL.Aliased<number> };

/** The rows of `table` in each school product, in the product's order (`ranks`): one statement for the batch. */
export function productRowsLoader<T extends Owned>(name: string, ranks: ProductRanks, table: T): LoaderDefinition<number, T['$inferSelect'][]> {
  return defineLoader(name, async (ctx: Context, productIds) => {
    const r = ranks(ctx.db, [...productIds]);
    const rows = await ctx.db
      .select({ parentId: r.productId, row: getTableColumns(table as PgTable) })
      .from(r as never)
      .innerJoin(table as PgTable, eq(table.id, r.id))
      .where(inSchool(ctx, table.schoolId))
      .orderBy(asc(r.productId), asc(r.rank));
    return byParent(productIds, rows as { parentId: number; row: T['$inferSelect'] }[]);
  });
}
