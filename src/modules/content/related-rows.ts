import { asc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { PRODUCT_IDS, type ProductRanks, productRows, productRowsSelect } from '../../content/order.js';
import { type Context, defineLoader, type LoaderDefinition } from '../../graphql/context.js';
import { childRowOf, PARENT_KEY } from '../../db/rows.js';
import { groupedByParent, linkLoader, narrowedVariants, schoolScopedRead } from '../../graphql/loaders.js';
import { readerOf } from '../../graphql/reader.js';

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
): LoaderDefinition<number, T['$inferSelect'][]> & { narrowed(columns: readonly string[]): LoaderDefinition<number, T['$inferSelect'][]> } {
  const order = [asc(parentColumn), ...orderBy.map((c) => asc(c))];
  const joinOn = eq(child.id, childColumn);
  const loader = linkLoader<T['$inferSelect']>(name, link, parentColumn, child, joinOn, getTableColumns(child as PgTable), order);
  // The same rows with only some columns (askedColumns), with the id and school: one loader per column list.
  const narrowed = narrowedVariants(name, child as PgTable, ['id', 'schoolId'], (variant, selected) =>
    linkLoader<T['$inferSelect']>(variant, link, parentColumn, child, joinOn, selected, order, false),
  );
  return Object.assign(loader, { narrowed });
}

/**
 * The rows of `table` in each school product, in the product's order (`ranks`): one statement for
 * the batch (src/content/order.ts' productRows), built once (the products and the school its
 * placeholders) for a reader of one school's rows or of every school's. `narrowed` gives the loader of
 * the same rows with only some columns (askedColumns), with the id and school: one per column list.
 */
export function productRowsLoader<T extends Owned>(
  name: string,
  ranks: ProductRanks,
  table: T,
): LoaderDefinition<number, T['$inferSelect'][]> & { narrowed(columns: readonly string[]): LoaderDefinition<number, T['$inferSelect'][]> } {
  type Row = Record<string, unknown>;
  const loaderOf = (loaderName: string, selected?: Record<string, PgColumn>): LoaderDefinition<number, T['$inferSelect'][]> => {
    const rowOf = childRowOf<T['$inferSelect']>(Object.keys(selected ?? getTableColumns(table as PgTable)));
    const prepared = schoolScopedRead<Row>(table, loaderName, (db, where) => productRowsSelect(db as Db, ranks, table, PRODUCT_IDS, where, selected), undefined);
    return defineLoader(loaderName, async (ctx: Context, productIds) => {
      const rows = await prepared(ctx, { productIds: [...productIds] });
      if (rows) return groupedByParent(productIds, rows, (r) => r[PARENT_KEY] as number, rowOf);
      // A reader the prepared statements do not serve: the same select, built for it.
      const read = await productRows(readerOf(ctx), ranks, table, productIds, selected);
      return groupedByParent(productIds, read, (r) => r.parentId, (r) => r.row);
    });
  };
  return Object.assign(loaderOf(name), { narrowed: narrowedVariants(name, table as PgTable, ['id', 'schoolId'], loaderOf) });
}
