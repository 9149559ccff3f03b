import { beyondSpec, param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const activity = '/activities/:id';
const examAnswer = '/exam_answers/:id';
const answer = '/v1/exam_question_answers/:id';
const ofProduct = { args: { schoolProductId: pathParam('school_product_id') } };
const ofEnrollment = { args: { enrollmentId: pathParam('enrollment_id') } };
/** The question tree comes as `exam_questions_attributes` beside `activity` (the spec's top-level key). */
const withQuestions = { args: { input: resource('activity', { extra: ['exam_questions_attributes'] }) } };
const ofQuestion = { args: { examQuestionId: pathParam('exam_question_id') } };

export const activityRoutes: Route[] = [
  rows.list('/courses/:course_id/activities', 'activities', { args: { courseId: pathParam('course_id') } }),
  rows.list('/school_products/:school_product_id/activities', 'activities', ofProduct),
  rows.list('/enrollments/:enrollment_id/activities', 'activities', ofEnrollment),
  rows.show(activity, 'activity'),
  rows.show('/school_products/:school_product_id/activities/:id', 'activity', ofProduct),
  rows.show('/enrollments/:enrollment_id/activities/:id', 'activity', ofEnrollment),
  rows.create('/activities', 'createActivity', 'activity', activity, withQuestions),
  rows.update(activity, 'updateActivity', 'activity', activity, withQuestions),
  rows.destroy(activity, 'deleteActivity'),

  ...rows.resource('/exam_questions/:exam_question_id/exam_question_answers', answer, 'examQuestionAnswer', 'examQuestionAnswers', ofQuestion),
  // Beyond the spec: the Edools v1 clients read an attempt.
  ...beyondSpec('an attempt at an activity', [rows.show('/exam_answers/:id', 'examAnswer')]),
  // REST twins of the GraphQL-only attempts (filtered by activity, student or enrollment) and questions. No list under
  // /activities/:id: examAnswers' filters find nothing of another school rather than 404 as a path's parent must.
  rows.list('/exam_answers', 'examAnswers', { args: { activityId: param('activity_id'), studentId: param('student_id'), enrollmentId: param('enrollment_id') } }),
  rows.create('/exam_answers', 'createExamAnswer', 'exam_answer', examAnswer),
  rows.update(examAnswer, 'updateExamAnswer', 'exam_answer', examAnswer),
  rows.destroy(examAnswer, 'deleteExamAnswer'),
  rows.show('/exam_questions/:id', 'examQuestion'),
];
