/**
 * The rows of a `db.execute` result, either driver: postgres.js gives the row array itself, PGlite
 * `{ rows }`. The one place that knows the two shapes.
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

/**
 * The key a flat select of child rows carries each row's parent under (no table has a column of
 * that key). The service's row decoder (db/driver-adapter.ts) reads a flat select of columns; a
 * nested one (`{ parentId, row: { …columns } }`) is left to drizzle's mapping, column by column.
 */
export const PARENT_KEY = '__parentId';

/** The child row of a flat select's row (PARENT_KEY beside `keys`): its `keys`, in one shape. */
export function childRowOf<V>(keys: readonly string[]): (row: Record<string, unknown>) => V {
  return (row) => {
    const child: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) child[keys[i]] = row[keys[i]];
    return child as V;
  };
}
