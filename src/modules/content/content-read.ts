import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Context, LoaderDefinition } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { findOr404 } from '../../graphql/loaders.js';
import type { ConnectionData } from '../../graphql/pagination.js';
import type { ContentScope } from '../../content/scope.js';
import { withScope } from './content-view.js';

/**
 * One row by id as a scope shows it: the school's row (another school's is a 404), and for a product
 * or enrollment scope only when `inScope` holds for it (a row outside the scope is a 404 too).
 */
export async function scopedRow<V extends object>(
  ctx: Context,
  scope: ContentScope,
  loader: LoaderDefinition<number, V | null>,
  table: PgTable & { id: PgColumn },
  id: number,
  inScope: SQL | undefined,
  what: string,
): Promise<V> {
  const row = await findOr404(ctx, loader, id, what);
  if (scope.kind === 'school') return row;
  if (scope.kind === 'nothing') throw notFound(what);
  const [hit] = await ctx.db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(eq(table.id, id), inScope));
  if (!hit) throw notFound(what);
  return withScope(row, scope);
}

/** A page whose rows carry their scope (see content-view.ts). */
export function scopedPage<T extends object>(page: ConnectionData<T>, scope: ContentScope): ConnectionData<T> {
  return { ...page, nodes: page.nodes.map((n) => withScope(n, scope)) };
}
