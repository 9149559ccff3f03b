import { pathParam, resource, rows, type Route } from '../../rest/route-table.js';

/** Grading by hand: an attempt, its grading, and the queue of attempts awaiting it (whole, per course, per school product). */
export const gradingRoutes: Route[] = [
  rows.show('/activity_attempts/:id', 'activityAttempt'),
  rows.action('POST', '/activity_attempts/:id/grade', 'gradeAttempt', {
    args: { input: resource('grade') },
    summary: "Grade an attempt's open answers by hand",
  }),
  rows.list('/attempts_to_grade', 'attemptsToGrade'),
  rows.list('/courses/:course_id/attempts_to_grade', 'attemptsToGrade', { args: { courseId: pathParam('course_id') } }),
  rows.list('/school_products/:school_product_id/attempts_to_grade', 'attemptsToGrade', { args: { schoolProductId: pathParam('school_product_id') } }),
];
