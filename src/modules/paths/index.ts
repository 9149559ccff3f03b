import { AUTHORS, CATALOGUE, resource } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { PathCoursesResolver } from './path-courses.resolver.js';
import { PathResolver } from './path.resolver.js';
import { pathRoutes } from './path.routes.js';

export const pathsModule = defineModule({
  name: 'paths',
  resolvers: [PathResolver, PathCoursesResolver],
  routes: pathRoutes,
  rules: {
    operations: {
      catalogue: {
        ...resource('path', 'paths', CATALOGUE, AUTHORS),
        'Mutation.addCourseToPath': AUTHORS,
        'Mutation.removeCourseFromPath': AUTHORS,
      },
    },
  },
  errors: { name: 'Path', nodes: ['Path'], codes: [] },
});
