import type { Context } from '../graphql/context.js';
import { AppError } from '../graphql/errors.js';

/**
 * The second line of defence behind every query's tenancy condition: rows that leave a loader or a
 * root field on their way to a reply must belong to the request's school. A row of another school
 * here means a filter was forgotten: the request is answered as not found (nothing leaks) and the
 * breach is reported, instead of being served.
 *
 * Rows carrying a numeric `schoolId` are checked, in a list, a connection's `nodes` or a mutation
 * payload. The platform may read and write every school (acting in one with X-School-Id, or creating
 * one with the wizard), and public reads carry no school: both pass.
 */
export function checkSchoolRows<T>(ctx: Context, value: T): T {
  if (ctx.tenancy === 'school' && ctx.schoolId !== null && ctx.credential?.role !== 'platform') check(ctx.schoolId, value, true);
  return value;
}

function check(schoolId: number, value: unknown, container: boolean): void {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) check(schoolId, item, container);
    return;
  }
  const row = value as Record<string, unknown>;
  if (typeof row.schoolId === 'number') {
    if (row.schoolId !== schoolId) throw breach();
    return;
  }
  if (!container) return;
  if (Array.isArray(row.nodes)) check(schoolId, row.nodes, false);
  else if (Array.isArray(row.errors)) for (const key in row) if (key !== 'errors') check(schoolId, row[key], false);
}

function breach(): AppError {
  process.emitWarning('a row of another school reached a reply and was withheld', 'TenancyBreach');
  return new AppError('not_found', 'Record not found');
}
