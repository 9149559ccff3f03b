import type { Role } from './credential.js';

/**
 * What the check reads of a request: its tenancy, its school and its credential's role. A
 * graphql/context.ts Context is one; egress takes no more, so auth/ does not import graphql/.
 */
export interface EgressScope {
  readonly tenancy: string;
  readonly schoolId: number | null;
  readonly credential: { readonly role: Role } | null;
}

/**
 * A row of another school reached a reply. It names where it came from and the schools involved,
 * never the rows: it is the service's own fault, so both faces answer it as any unexpected error
 * (500 `internal`, INTERNAL_SERVER_ERROR) and log it under the request (app.ts).
 */
export class TenancyBreach extends Error {
  override name = 'TenancyBreach';
  constructor(
    readonly source: string,
    readonly schoolId: number,
    readonly foreignSchoolIds: number[],
  ) {
    super(`${source} returned rows of school ${foreignSchoolIds.join(', ')} to a request of school ${schoolId}; they were withheld`);
  }
}

/**
 * The second line of defence behind every query's tenancy condition: rows that leave a loader or a
 * root field on their way to a reply must belong to the request's school. A row of another school
 * here means a filter was forgotten: the request fails with a TenancyBreach instead of being served.
 * `source` names the loader or field, for the log.
 *
 * Rows carrying a numeric `schoolId` are checked, in a list, a connection's `nodes` or a mutation
 * payload. The platform may read and write every school (acting in one with X-School-Id, or creating
 * one with the wizard), and public reads carry no school: both pass.
 */
export function checkSchoolRows<T>(ctx: EgressScope, value: T, source: string): T {
  if (ctx.tenancy === 'school' && ctx.schoolId !== null && ctx.credential?.role !== 'platform') {
    const foreign = new Set<number>();
    check(ctx.schoolId, value, true, foreign);
    if (foreign.size) throw new TenancyBreach(source, ctx.schoolId, [...foreign]);
  }
  return value;
}

function check(schoolId: number, value: unknown, container: boolean, foreign: Set<number>): void {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) check(schoolId, item, container, foreign);
    return;
  }
  const row = value as Record<string, unknown>;
  if (typeof row.schoolId === 'number') {
    if (row.schoolId !== schoolId) foreign.add(row.schoolId);
    return;
  }
  if (!container) return;
  if (Array.isArray(row.nodes)) check(schoolId, row.nodes, false, foreign);
  else if (Array.isArray(row.errors)) for (const key in row) if (key !== 'errors') check(schoolId, row[key], false, foreign);
}
