import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';
import { edoolsUser } from '../users/user.routes.js';

const show = '/enrollments/:id';
const byCode = { find_by: 'code' };
/** Every list answers the status filter (`?status=active`) and page/per_page. */
const status = { status: param('status') };

export const enrollmentRoutes: Route[] = [
  rows.list('/enrollments', 'enrollments', { args: status }),
  rows.list('/students/:student_id/enrollments', 'enrollments', { args: { studentId: pathParam('student_id'), ...status } }),
  rows.list('/course_classes/:course_class_id/enrollments', 'enrollments', { args: { courseClassId: pathParam('course_class_id'), ...status } }),
  rows.list('/school_products/:school_product_id/enrollments', 'enrollments', { args: { schoolProductId: pathParam('school_product_id'), ...status } }),

  { method: 'GET', path: '/enrollments/:code', when: byCode, field: 'enrollment', args: { code: pathParam('code') }, reply: 'show' },
  rows.show(show, 'enrollment'),
  {
    method: 'GET',
    path: '/students/:student_id/enrollments/:id',
    field: 'enrollmentStatus',
    args: { studentId: pathParam('student_id'), id: pathParam() },
    reply: 'show',
  },

  rows.create('/enrollments', 'createEnrollment', 'enrollment', show),
  // The batch replies 201 with the array of created enrollments (no Location: there are several).
  { method: 'POST', path: '/enrollments/batch', field: 'createEnrollments', args: { inputs: resource('enrollments') }, reply: 'create' },
  // Bulk onboarding: `{"students": [{first_name, last_name, email, enrollments: [...]}, ...]}` (each the v1 `user` hash);
  // 201 with the array of created students, all or none.
  { method: 'POST', path: '/students/batch', field: 'createStudents', args: { inputs: resource('students', { adapt: edoolsUser }) }, reply: 'create' },

  {
    method: ['PUT', 'PATCH'],
    path: '/enrollments/:code',
    when: byCode,
    field: 'updateEnrollment',
    args: { code: pathParam('code'), input: resource('enrollment') },
    reply: 'update',
    location: show,
  },
  rows.update(show, 'updateEnrollment', 'enrollment', show),
];
