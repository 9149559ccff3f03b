import type { Route } from '../../rest/route-table.js';
import { CourseClassesOfCourseResolver, CourseClassFieldsResolver } from './course-class-relations.resolver.js';
import { CourseClassResolver } from './course-class.resolver.js';
import { courseClassRoutes } from './course-class.routes.js';

export const courseClassesModule = {
  resolvers: [CourseClassResolver, CourseClassFieldsResolver, CourseClassesOfCourseResolver] as Function[],
  routes: courseClassRoutes as Route[],
};
