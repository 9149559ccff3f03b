import { AUTHORS, resource, STAFF_READ } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import {
  CourseExtraContentsResolver,
  LessonExtraContentsResolver,
  SchoolProductExtraContentsResolver,
} from './extra-content-relations.resolver.js';
import { ExtraContentResolver } from './extra-content.resolver.js';
import { extraContentRoutes } from './extra-content.routes.js';

export const extraContentsModule = defineModule({
  name: 'extra-contents',
  resolvers: [ExtraContentResolver, LessonExtraContentsResolver, CourseExtraContentsResolver, SchoolProductExtraContentsResolver],
  routes: extraContentRoutes,
  rules: { operations: { content: resource('extraContent', 'extraContents', STAFF_READ, AUTHORS) } },
  errors: { name: 'ExtraContent', nodes: ['ExtraContent'], codes: [] },
});
