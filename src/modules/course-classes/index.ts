import { AUTHORS, resource, STAFF_READ } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { CourseClassesOfCourseResolver, CourseClassFieldsResolver } from './course-class-relations.resolver.js';
import { CourseClassResolver } from './course-class.resolver.js';
import { courseClassRoutes } from './course-class.routes.js';

export const courseClassesModule = defineModule({
  name: 'course-classes',
  resolvers: [CourseClassResolver, CourseClassFieldsResolver, CourseClassesOfCourseResolver],
  routes: courseClassRoutes,
  rules: { operations: { content: resource('courseClass', 'courseClasses', STAFF_READ, AUTHORS) } },
  errors: { name: 'CourseClass', nodes: ['CourseClass'], codes: ['greater_than'] },
});
