import { eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Context, LoaderDefinition } from './context.js';
import { AppError } from './errors.js';
import { idOrNull, parseId } from './ids.js';
import { findOr404 } from './loaders.js';

// A list's filter on an optional id argument: none when the argument is not given, else the rows whose
// column holds the id. They differ only in what a malformed or unknown id does, so each list says which.

type IdArg = string | null | undefined;
const absent = (id: IdArg): id is null | undefined => id === undefined || id === null;

/** An id that names no record matches nothing (0 is never an id). */
export const idMatch = (column: PgColumn, id: IdArg): SQL | undefined => (absent(id) ? undefined : eq(column, idOrNull(id) ?? 0));

/** A malformed id is a 404 of `what`. */
export const idFilter = (column: PgColumn, id: IdArg, what: string): SQL | undefined =>
  absent(id) ? undefined : eq(column, parseId(id, what));

/** A filter argument that must hold an id: anything else is a malformed request (`field` is not an id). */
export function filterId(value: IdArg, field: string): number | undefined {
  if (absent(value)) return undefined;
  const id = idOrNull(value);
  if (id === null) throw new AppError('bad_request', `${field} is not an id`, [field]);
  return id;
}

/** The same filter as `filterId`'s id, on `column`. */
export const filterIdMatch = (column: PgColumn, value: IdArg, field: string): SQL | undefined => {
  const id = filterId(value, field);
  return id === undefined ? undefined : eq(column, id);
};

/** The id must name a row the caller sees through `byId` (else a 404 of `what`): the rows whose column holds it. */
export async function rowMatch(
  ctx: Context,
  column: PgColumn,
  byId: LoaderDefinition<number, { id: number } | null>,
  id: IdArg,
  what: string,
): Promise<SQL | undefined> {
  if (absent(id)) return undefined;
  const row = await findOr404(ctx, byId, parseId(id, what), what);
  return eq(column, row.id);
}
