import type { Route } from '../../rest/route-table.js';

/** Filled in by the enrollments work (issue 3). */
export const enrollmentsModule = {
  resolvers: [] as Function[],
  routes: [] as Route[],
};
