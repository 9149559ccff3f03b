import type { SQL } from 'drizzle-orm';
import type { Context } from '../../graphql/context.js';
import { type ConnectionArgs, type ConnectionData, paginate, toConnection, windowOf } from '../../graphql/pagination.js';
import { type Ranked, rankedRows, type TableWithId } from '../../content/order.js';
import type { ContentScope } from '../../content/scope.js';
import { scopedPage } from './content-read.js';

/**
 * One page of `table`'s rows that have a rank (and match `where`), in rank order (src/content/order.ts'
 * rankedRows). Cursors are the usual id cursors: the page after a cursor starts after that row's rank.
 */
export async function rankedPage<T extends TableWithId>(
  ctx: Context,
  table: T,
  ranks: Ranked & object,
  where: SQL | undefined,
  args: ConnectionArgs,
): Promise<ConnectionData<T['$inferSelect'] & { id: number }>> {
  const window = windowOf(args);
  const { rows, count } = await rankedRows(ctx.db, table, ranks, where, window);
  let counted: Promise<number> | undefined;
  return toConnection(rows, window, () => (counted ??= count()));
}

/**
 * A list read in a scope: the school's rows in id order, nothing for an inactive enrollment, else the
 * product's rows in its order (`ranks` of the product), carrying the scope to the fields under them.
 */
export async function scopedList<T extends TableWithId>(
  ctx: Context,
  scope: ContentScope,
  table: T,
  where: SQL | undefined,
  args: ConnectionArgs,
  ranks: (productId: number) => Ranked & object,
): Promise<ConnectionData<T['$inferSelect'] & { id: number }>> {
  if (scope.kind === 'school') return paginate(ctx, table, where, args);
  if (scope.kind === 'nothing') return emptyConnection();
  return scopedPage(await rankedPage(ctx, table, ranks(scope.productId), where, args), scope);
}

/** A connection with nothing in it (an inactive enrollment's content). */
export function emptyConnection<T extends { id: number }>(): ConnectionData<T> {
  return toConnection<T>([], { limit: 0, offset: 0, afterId: null }, async () => 0);
}
