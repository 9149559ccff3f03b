import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';
import { edoolsUser } from '../users/user.routes.js';

const show = '/enrollments/:id';
const byCode = { find_by: 'code' };
/** Every list answers the status filter (`?status=active`) and page/per_page. */
const status = { status: param('status') };

/**
 * A CSV line of the onboarding batch: the person's columns (first_name, last_name, email, document,
 * phone, locale...) and, with a school_product_id, one enrollment (max_attendance_type defaults to
 * indeterminate; available_until, unlimited and code as in the JSON form; else the product's access period).
 */
const ENROLLMENT_COLUMNS = ['school_product_id', 'max_attendance_type', 'max_attendance_length', 'available_until', 'unlimited', 'status', 'code'];
function onboardingLine(record: Record<string, string>): Record<string, unknown> {
  const person: Record<string, unknown> = {};
  const enrollment: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(record)) (ENROLLMENT_COLUMNS.includes(column) ? enrollment : person)[column] = value;
  if (enrollment.school_product_id !== undefined) person.enrollments = [{ max_attendance_type: 'indeterminate', ...enrollment }];
  return person;
}

const onboarding: Route = {
  method: 'POST',
  path: '/students/batch',
  field: 'createStudents',
  // dry_run is read by every row, so no spelling of it writes (`dry_run=1` too replies 200 as a dry run).
  args: { inputs: resource('students', { adapt: edoolsUser }), dryRun: param('dry_run') },
  reply: 'create',
  csv: { key: 'students', row: onboardingLine },
};

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
  // Also as CSV (`Content-Type: text/csv`, one person a line); `?dry_run=true` checks everything and writes nothing (200).
  ...['true', '1'].map((flag): Route => ({ ...onboarding, when: { dry_run: flag }, reply: 'action' })),
  onboarding,

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

  // REST twins of the GraphQL-only registrations (a person's membership of the school): all, a student's, one.
  rows.list('/registrations', 'registrations', { args: { studentId: param('student_id') } }),
  rows.list('/students/:student_id/registrations', 'registrations', { args: { studentId: pathParam('student_id') } }),
  rows.create('/registrations', 'createRegistration', 'registration', '/registrations/:id'),
  // The student in the path is the whole input: the body may be empty.
  rows.create('/students/:student_id/registrations', 'createRegistration', 'registration', '/registrations/:id', {
    args: { input: resource('registration', { extra: ['student_id'], optional: true }) },
  }),
  rows.show('/registrations/:id', 'registration'),
];
