import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { users } from '../users/user.table.js';
import { lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';

export const activityShowComments = pgEnum('activity_show_comments', ['always', 'approved']);
export const examQuestionType = pgEnum('exam_question_type', ['multiple_choice', 'associative', 'essay']);
export const examQuestionAssertionSide = pgEnum('exam_question_assertion_side', ['first', 'second']);

/** An exam, attached to the lesson that presents it. */
export const activities = pgTable(
  'activities',
  {
    id: id(),
    schoolId: schoolRef(),
    title: text().notNull(),
    type: text().notNull(),
    showComments: activityShowComments().notNull(),
    examLessonId: belongsTo(() => lessons.id),
    timeLimit: integer(),
    retryTime: integer(),
    maxAttempts: integer(),
    ...timestamps,
  },
  (t) => [
    index('activities_school_id_idx').on(t.schoolId, t.id),
    index('activities_exam_lesson_id_idx').on(t.examLessonId),
    check('activities_time_limit_positive', sql`${t.timeLimit} > 0`),
    check('activities_retry_time_non_negative', sql`${t.retryTime} >= 0`),
    check('activities_max_attempts_positive', sql`${t.maxAttempts} > 0`),
  ],
);

export const examQuestions = pgTable(
  'exam_questions',
  {
    id: id(),
    schoolId: schoolRef(),
    activityId: belongsTo(() => activities.id),
    position: integer().notNull().default(0),
    title: text(),
    type: examQuestionType().notNull().default('multiple_choice'),
    comment: text(),
    point: integer(),
    ...timestamps,
  },
  (t) => [
    index('exam_questions_activity_id_position_idx').on(t.activityId, t.position),
    index('exam_questions_school_id_idx').on(t.schoolId),
    check('exam_questions_point_non_negative', sql`${t.point} >= 0`),
  ],
);

/** An option of a question: a choice (title, correct) or, for associative questions, a pair of assertions. */
export const examQuestionOptions = pgTable(
  'exam_question_options',
  {
    id: id(),
    schoolId: schoolRef(),
    examQuestionId: belongsTo(() => examQuestions.id),
    position: integer().notNull().default(0),
    title: text(),
    correct: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('exam_question_options_exam_question_id_position_idx').on(t.examQuestionId, t.position),
    index('exam_question_options_school_id_idx').on(t.schoolId),
  ],
);

/** The first and second assertions of an associative option. */
export const examQuestionAssertions = pgTable(
  'exam_question_assertions',
  {
    id: id(),
    schoolId: schoolRef(),
    optionId: belongsTo(() => examQuestionOptions.id),
    side: examQuestionAssertionSide().notNull(),
    text: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('exam_question_assertions_option_id_side_key').on(t.optionId, t.side),
    index('exam_question_assertions_school_id_idx').on(t.schoolId),
  ],
);

/** A student's attempt at an activity. */
export const examAnswers = pgTable(
  'exam_answers',
  {
    id: id(),
    schoolId: schoolRef(),
    activityId: belongsTo(() => activities.id),
    userId: belongsTo(() => users.id),
    enrollmentId: integer().references(() => enrollments.id, { onDelete: 'cascade' }),
    grade: integer(),
    submittedAt: tstz(),
    ...timestamps,
  },
  (t) => [
    index('exam_answers_school_id_idx').on(t.schoolId, t.id),
    index('exam_answers_activity_id_user_id_idx').on(t.activityId, t.userId),
    index('exam_answers_user_id_idx').on(t.userId),
    index('exam_answers_enrollment_id_idx').on(t.enrollmentId),
  ],
);

/** The answer of one question within an attempt: a chosen option or a text (essay). */
export const examQuestionAnswers = pgTable(
  'exam_question_answers',
  {
    id: id(),
    schoolId: schoolRef(),
    examQuestionId: belongsTo(() => examQuestions.id),
    examAnswerId: belongsTo(() => examAnswers.id),
    examQuestionOptionId: integer().references(() => examQuestionOptions.id, { onDelete: 'set null' }),
    text: text(),
    correct: boolean(),
    ...timestamps,
  },
  (t) => [
    index('exam_question_answers_exam_question_id_idx').on(t.examQuestionId, t.id),
    index('exam_question_answers_exam_answer_id_idx').on(t.examAnswerId),
    index('exam_question_answers_exam_question_option_id_idx').on(t.examQuestionOptionId),
    index('exam_question_answers_school_id_idx').on(t.schoolId),
  ],
);

export type ActivityRow = typeof activities.$inferSelect;
export type ExamQuestionRow = typeof examQuestions.$inferSelect;
export type ExamQuestionOptionRow = typeof examQuestionOptions.$inferSelect;
export type ExamQuestionAssertionRow = typeof examQuestionAssertions.$inferSelect;
export type ExamAnswerRow = typeof examAnswers.$inferSelect;
export type ExamQuestionAnswerRow = typeof examQuestionAnswers.$inferSelect;
