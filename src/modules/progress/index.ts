import type { Route } from '../../rest/route-table.js';
import { EnrollmentProgressResolver, ProgressResolver } from './progress.resolver.js';
import { progressRoutes } from './progress.routes.js';

export const progressModule = {
  resolvers: [ProgressResolver, EnrollmentProgressResolver] as Function[],
  routes: progressRoutes as Route[],
};
