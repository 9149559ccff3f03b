import { beyondSpec, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const show = '/course_classes/:id';
/** `/course_classes/:code?find_by=code` names the class by its code, on every verb. */
const byCode = { find_by: 'code' };
const code = { code: pathParam('code') };

export const courseClassRoutes: Route[] = [
  rows.list('/course_classes', 'courseClasses'),
  rows.list('/courses/:id/course_classes', 'courseClasses', { args: { courseId: pathParam('id') } }),
  // Beyond the spec, the Edools v1 clients' name: a v1 school class is a course class, of the product's courses.
  ...beyondSpec("a v1 school class is a course class: those of the product's courses", [
    rows.list('/school_products/:id/school_classes', 'courseClasses', { args: { schoolProductId: pathParam('id') } }),
  ]),
  rows.create('/courses/:id/course_classes', 'createCourseClass', 'course_class', show, { args: { courseId: pathParam('id') } }),

  { method: 'GET', path: '/course_classes/:code', when: byCode, field: 'courseClass', args: code, reply: 'show' },
  rows.show(show, 'courseClass'),
  {
    method: ['PUT', 'PATCH'],
    path: '/course_classes/:code',
    when: byCode,
    field: 'updateCourseClass',
    args: { ...code, input: resource('course_class') },
    reply: 'update',
    location: show,
  },
  rows.update(show, 'updateCourseClass', 'course_class', show),
  { method: 'DELETE', path: '/course_classes/:code', when: byCode, field: 'deleteCourseClass', args: code, reply: 'destroy' },
  rows.destroy(show, 'deleteCourseClass'),
];
