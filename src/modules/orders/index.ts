import type { Route } from '../../rest/route-table.js';

/** Filled in by the orders work (issue 3). */
export const ordersModule = {
  resolvers: [] as Function[],
  routes: [] as Route[],
};
