import { asc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inSchool } from '../../auth/tenancy.js';
import type { Db } from '../../db/client.js';
import { type Context, defineLoader, type LoaderDefinition } from '../../graphql/context.js';
import { groupedByParent, linkLoader } from '../../graphql/loaders.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

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
  const order = [asc(parentColumn), ...orderBy.map((c) => asc(c))];
  return linkLoader(name, link, parentColumn, child, eq(child.id, childColumn), getTableColumns(child as PgTable), order);
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
    return groupedByParent(productIds, rows as { parentId: number; row: T['$inferSelect'] }[], (r) => r.parentId, (r) => r.row);
  });
}
