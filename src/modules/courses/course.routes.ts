import { param, pathParam, rows, type Route } from '../../rest/route-table.js';

const course = '/courses/:id';
const courseModule = '/course_modules/:id';
const lesson = '/lessons/:id';
const ofProduct = { args: { schoolProductId: pathParam('school_product_id') } };
const ofEnrollment = { args: { enrollmentId: pathParam('enrollment_id') } };
/** Each read also answers under a school product and under an enrollment (the scope of the result). */
const scopes: [string, { args?: Record<string, ReturnType<typeof pathParam>> }][] = [
  ['', {}],
  ['/school_products/:school_product_id', ofProduct],
  ['/enrollments/:enrollment_id', ofEnrollment],
];
const withArgs = (scope: { args?: Record<string, ReturnType<typeof pathParam>> }, args: Record<string, ReturnType<typeof pathParam>>) => ({
  args: { ...scope.args, ...args },
});

export const courseRoutes: Route[] = [
  ...scopes.flatMap(([prefix, scope]) => [
    rows.list(`${prefix}/courses`, 'courses', scope),
    rows.show(`${prefix}/courses/:id`, 'course', scope),
    rows.list(`${prefix}/courses/:course_id/course_modules`, 'courseModules', withArgs(scope, { courseId: pathParam('course_id') })),
    rows.show(`${prefix}/course_modules/:id`, 'courseModule', scope),
    rows.show(`${prefix}/lessons/:id`, 'lesson', scope),
  ]),
  // The spec lists the lesson index with a trailing slash; `/lessons` answers too (trailing slashes are optional).
  rows.list('/lessons/', 'lessons', { args: { courseModuleId: param('course_module_id') } }),
  rows.list('/school_products/:school_product_id/lessons/', 'lessons', ofProduct),
  rows.list('/enrollments/:enrollment_id/lessons/', 'lessons', ofEnrollment),

  rows.create('/courses', 'createCourse', 'course', course),
  rows.update(course, 'updateCourse', 'course', course),
  rows.destroy(course, 'deleteCourse'),
  { method: 'POST', path: '/courses/:id/duplicate', field: 'duplicateCourse', args: { id: pathParam() }, reply: 'create', location: course },

  rows.create('/courses/:course_id/course_modules', 'createCourseModule', 'course_module', courseModule, { args: { courseId: pathParam('course_id') } }),
  rows.update(courseModule, 'updateCourseModule', 'course_module', courseModule),
  rows.destroy(courseModule, 'deleteCourseModule'),

  rows.create('/lessons', 'createLesson', 'lesson', lesson),
  // The spec lists update and destroy at the singular path; the plural twins answer too.
  ...['/lesson/:id', lesson].flatMap((path) => [rows.update(path, 'updateLesson', 'lesson', lesson), rows.destroy(path, 'deleteLesson')]),
];
