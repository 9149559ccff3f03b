import type { Route } from '../../rest/route-table.js';
import { CourseModuleResolver } from './course-module.resolver.js';
import { CourseResolver } from './course.resolver.js';
import { courseRoutes } from './course.routes.js';
import { LessonResolver } from './lesson.resolver.js';

export const coursesModule = {
  resolvers: [CourseResolver, CourseModuleResolver, LessonResolver] as Function[],
  routes: courseRoutes as Route[],
};
