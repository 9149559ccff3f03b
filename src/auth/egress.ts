import { guardedSchool, inSchoolScope, type RequestAccess } from './tenancy.js';

/**
 * A row of another school reached a loader's batch or a reply. It names where it came from and the
 * schools involved, never the rows: it is the service's own fault. A by-id loader withholds the row
 * (a 404) and logs this (graphql/loaders.ts); anywhere else both faces answer it as any unexpected
 * error (500 `internal`, INTERNAL_SERVER_ERROR) and log it under the request (app.ts).
 */
export class TenancyBreach extends Error {
  override name = 'TenancyBreach';
  constructor(
    readonly source: string,
    /** The request's school (null: a request of no school). */
    readonly schoolId: number | null,
    readonly foreignSchoolIds: number[],
  ) {
    super(`${source} returned rows of school ${foreignSchoolIds.join(', ')} to a request of ${schoolId === null ? 'no school' : `school ${schoolId}`}; they were withheld`);
  }
}

/**
 * The last line of defence behind every query's tenancy condition: rows that leave a loader or a
 * root field on their way to a reply must be in the request's scope (tenancy.ts' `inSchoolScope`).
 * A row of another school here means a filter was forgotten: the request fails with a
 * TenancyBreach instead of being served. `source` names the loader or field, for the log.
 *
 * Rows carrying a numeric `schoolId` are checked, in a list, a connection's `nodes` or a mutation
 * payload, for the requests tenancy.ts' `guardedSchool` judges: the platform may read every school,
 * and public reads (a media's public view) are not checked at all.
 */
export function checkSchoolRows<T>(ctx: RequestAccess, value: T, source: string): T {
  const school = guardedSchool(ctx);
  if (school === null) return value;
  const foreign = new Set<number>();
  check(ctx, value, true, foreign);
  if (foreign.size) throw new TenancyBreach(source, school, [...foreign]);
  return value;
}

function check(ctx: RequestAccess, value: unknown, container: boolean, foreign: Set<number>): void {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) check(ctx, item, container, foreign);
    return;
  }
  const row = value as Record<string, unknown>;
  if (typeof row.schoolId === 'number') {
    if (!inSchoolScope(ctx, row.schoolId)) foreign.add(row.schoolId);
    return;
  }
  if (!container) return;
  if (Array.isArray(row.nodes)) check(ctx, row.nodes, false, foreign);
  else if (Array.isArray(row.errors)) for (const key in row) if (key !== 'errors') check(ctx, row[key], false, foreign);
}
