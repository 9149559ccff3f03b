import { AUTHORS, CATALOGUE, resource, STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { courseEventCatalog } from './course.events.js';
import { CourseModuleResolver } from './course-module.resolver.js';
import { CourseResolver } from './course.resolver.js';
import { courseRoutes } from './course.routes.js';
import { LessonResolver } from './lesson.resolver.js';

export const coursesModule = defineModule({
  name: 'courses',
  resolvers: [CourseResolver, CourseModuleResolver, LessonResolver],
  routes: courseRoutes,
  rules: {
    operations: {
      catalogue: {
        ...resource('course', 'courses', CATALOGUE, AUTHORS),
        'Mutation.duplicateCourse': AUTHORS,
        ...resource('courseModule', 'courseModules', CATALOGUE, AUTHORS),
      },
      // Released content: a student reads it only through an active enrollment of its own.
      content: resource('lesson', 'lessons', STAFF_AND_OWN, AUTHORS),
    },
  },
  errors: { name: 'Course', nodes: ['Course', 'CourseModule', 'Lesson'], codes: [] },
  events: courseEventCatalog,
});
