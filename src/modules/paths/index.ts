import type { Route } from '../../rest/route-table.js';
import { PathCoursesResolver } from './path-courses.resolver.js';
import { PathResolver } from './path.resolver.js';
import { pathRoutes } from './path.routes.js';

export const pathsModule = {
  resolvers: [PathResolver, PathCoursesResolver] as Function[],
  routes: pathRoutes as Route[],
};
