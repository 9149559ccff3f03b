import { certificatePdf } from './certificate.print.js';
import { beyondSpec, param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

/** The progress lists answer under each parent a school reads them by. */
const lists = (segment: string, field: string): Route[] => [
  rows.list(`/${segment}`, field),
  rows.list(`/enrollments/:enrollment_id/${segment}`, field, { args: { enrollmentId: pathParam('enrollment_id') } }),
  rows.list(`/students/:student_id/${segment}`, field, { args: { studentId: pathParam('student_id') } }),
  rows.list(`/school_products/:school_product_id/${segment}`, field, { args: { schoolProductId: pathParam('school_product_id') } }),
];

export const progressRoutes: Route[] = [
  ...lists('lesson_progress', 'lessonProgresses'),
  ...lists('activity_attempts', 'activityAttempts'),
  {
    method: ['PUT', 'PATCH', 'POST'],
    path: '/enrollments/:id/lessons/:lesson_id/progress',
    field: 'recordLessonProgress',
    args: { enrollmentId: pathParam('id'), lessonId: pathParam('lesson_id'), input: resource('progress', { optional: true }) },
    reply: 'action',
  },
  {
    method: 'POST',
    path: '/enrollments/:id/activities/:activity_id/attempts',
    field: 'submitActivityAttempt',
    args: { enrollmentId: pathParam('id'), activityId: pathParam('activity_id'), input: resource('attempt', { optional: true }) },
    reply: 'create',
  },
  // Beyond the spec, the Edools v1 clients' name: a lessons progress is a lesson progress; its hash names the lesson.
  ...beyondSpec('a v1 lessons progress is a lesson progress', lists('lessons_progresses', 'lessonProgresses')),
  ...beyondSpec('records a lesson progress: the lesson is `lesson_id` (in the `lessons_progress` hash or beside it)', [
    {
      method: 'POST',
      path: '/enrollments/:id/lessons_progresses',
      field: 'recordLessonProgress',
      args: { enrollmentId: pathParam('id'), lessonId: param('lesson_id', { within: 'lessons_progress' }), input: resource('lessons_progress', { optional: true }) },
      reply: 'create',
    },
  ]),
  // The code is all it takes to read a person's full name: a secret, kept out of logs.
  { method: 'GET', path: '/certificates/:code', field: 'certificate', args: { code: pathParam('code', { secret: true }) }, reply: 'show', public: true },
  // The same certificate to print: a PDF made from `printableCertificate` (certificate.pdf.ts).
  {
    method: 'GET',
    path: '/certificates/:code.pdf',
    field: 'printableCertificate',
    args: { code: pathParam('code', { secret: true }) },
    reply: 'show',
    public: true,
    stream: certificatePdf,
    operationId: 'printCertificate',
    summary: 'Print a certificate (PDF)',
  },
];
