import { beyondSpec, ofEnrollment, ofSchoolProduct, param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const course = '/courses/:id';
const courseModule = '/course_modules/:id';
const lesson = '/lessons/:id';
const ofCourse = { courseId: pathParam('course_id') };

// Each read also answers under a school product and under an enrollment (the scope of the result).
export const courseRoutes: Route[] = [
  ...rows.scopedReads(
    ['/courses', '/school_products/:school_product_id/courses', '/enrollments/:enrollment_id/courses'],
    'courses',
    ['/courses/:id', '/school_products/:school_product_id/courses/:id', '/enrollments/:enrollment_id/courses/:id'],
    'course',
  ),

  rows.list('/courses/:course_id/course_modules', 'courseModules', { args: ofCourse }),
  rows.list('/school_products/:school_product_id/courses/:course_id/course_modules', 'courseModules', { args: { ...ofSchoolProduct.args, ...ofCourse } }),
  rows.list('/enrollments/:enrollment_id/courses/:course_id/course_modules', 'courseModules', { args: { ...ofEnrollment.args, ...ofCourse } }),
  rows.show(courseModule, 'courseModule'),
  rows.show('/school_products/:school_product_id/course_modules/:id', 'courseModule', ofSchoolProduct),
  rows.show('/enrollments/:enrollment_id/course_modules/:id', 'courseModule', ofEnrollment),

  rows.show(lesson, 'lesson'),
  rows.show('/school_products/:school_product_id/lessons/:id', 'lesson', ofSchoolProduct),
  rows.show('/enrollments/:enrollment_id/lessons/:id', 'lesson', ofEnrollment),
  // The spec lists the lesson index with a trailing slash; `/lessons` answers too (trailing slashes are optional).
  rows.list('/lessons/', 'lessons', { args: { courseModuleId: param('course_module_id') } }),
  rows.list('/school_products/:school_product_id/lessons/', 'lessons', ofSchoolProduct),
  rows.list('/enrollments/:enrollment_id/lessons/', 'lessons', ofEnrollment),

  rows.create('/courses', 'createCourse', 'course', course),
  rows.update(course, 'updateCourse', 'course', course),
  rows.destroy(course, 'deleteCourse'),
  { method: 'POST', path: '/courses/:id/duplicate', field: 'duplicateCourse', args: { id: pathParam() }, reply: 'create', location: course,
    // Not a course created in a collection of the course's own: named for what it does.
    operationId: 'duplicateCourse', summary: 'Duplicate a course' },

  rows.create('/courses/:course_id/course_modules', 'createCourseModule', 'course_module', courseModule, { args: { courseId: pathParam('course_id') } }),
  rows.update(courseModule, 'updateCourseModule', 'course_module', courseModule),
  rows.destroy(courseModule, 'deleteCourseModule'),

  rows.create('/lessons', 'createLesson', 'lesson', lesson),
  // The spec lists update and destroy at the singular path; the plural twins answer too.
  ...['/lesson/:id', lesson].flatMap((path) => [rows.update(path, 'updateLesson', 'lesson', lesson), rows.destroy(path, 'deleteLesson')]),

  // Beyond the spec, the Edools v1 clients' name: a course content is a lesson (its hash is `course_content`).
  ...beyondSpec('a v1 course content is a lesson (the hash `course_content`)', [
    rows.list('/course_modules/:course_module_id/course_contents', 'lessons', { args: { courseModuleId: pathParam('course_module_id') } }),
    rows.create('/course_modules/:course_module_id/course_contents', 'createLesson', 'course_content', '/course_contents/:id', {
      args: { input: resource('course_content', { extra: ['course_module_id'] }) },
    }),
    rows.show('/course_contents/:id', 'lesson'),
    rows.update('/course_contents/:id', 'updateLesson', 'course_content', '/course_contents/:id'),
    rows.destroy('/course_contents/:id', 'deleteLesson'),
  ]),
];
