import type { Route } from '../../rest/route-table.js';
import {
  CourseExtraContentsResolver,
  LessonExtraContentsResolver,
  SchoolProductExtraContentsResolver,
} from './extra-content-relations.resolver.js';
import { ExtraContentResolver } from './extra-content.resolver.js';
import { extraContentRoutes } from './extra-content.routes.js';

export const extraContentsModule = {
  resolvers: [ExtraContentResolver, LessonExtraContentsResolver, CourseExtraContentsResolver, SchoolProductExtraContentsResolver] as Function[],
  routes: extraContentRoutes as Route[],
};
