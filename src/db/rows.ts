/**
 * The rows of a `db.execute` result, either driver: postgres.js gives the row array itself, PGlite
 * `{ rows }`. The one place that knows the two shapes.
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}
