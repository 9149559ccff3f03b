import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { childRowIndexes, indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';
import { lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';

export const activityShowComments = pgEnum('activity_show_comments', ['always', 'approved']);
export const examQuestionType = pgEnum('exam_question_type', ['multiple_choice', 'associative', 'essay']);
export const examQuestionAssertionSide = pgEnum('exam_question_assertion_side', ['first', 'second']);

/** An exam, attached to the lesson that presents it. */
export const activities = schoolTable(
  'activities',
  {
    title: text().notNull(),
    type: text().notNull(),
    showComments: activityShowComments().notNull(),
    examLessonId: belongsTo(() => lessons.id),
    timeLimit: integer(),
    retryTime: integer(),
    maxAttempts: integer(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.examLessonId),
    check('activities_time_limit_positive', sql`${t.timeLimit} > 0`),
    check('activities_retry_time_non_negative', sql`${t.retryTime} >= 0`),
    check('activities_max_attempts_positive', sql`${t.maxAttempts} > 0`),
  ],
);

export const examQuestions = schoolTable(
  'exam_questions',
  {
    activityId: belongsTo(() => activities.id),
    position: integer().notNull().default(0),
    title: text(),
    type: examQuestionType().notNull().default('multiple_choice'),
    comment: text(),
    point: integer(),
  },
  (t) => [
    indexOn(t.activityId, t.position),
    indexOn(t.schoolId),
    check('exam_questions_point_non_negative', sql`${t.point} >= 0`),
  ],
);

/** An option of a question: a choice (title, correct) or, for associative questions, a pair of assertions. */
export const examQuestionOptions = schoolTable(
  'exam_question_options',
  {
    examQuestionId: belongsTo(() => examQuestions.id),
    position: integer().notNull().default(0),
    title: text(),
    correct: boolean().notNull().default(false),
  },
  (t) => [
    indexOn(t.examQuestionId, t.position),
    indexOn(t.schoolId),
  ],
);

/** The first and second assertions of an associative option. */
export const examQuestionAssertions = schoolTable(
  'exam_question_assertions',
  {
    optionId: belongsTo(() => examQuestionOptions.id),
    side: examQuestionAssertionSide().notNull(),
    text: text(),
  },
  (t) => [
    uniqueIndexOn(t.optionId, t.side, t.schoolId),
    indexOn(t.schoolId),
  ],
);

/** A student's attempt at an activity. */
export const examAnswers = schoolTable(
  'exam_answers',
  {
    activityId: belongsTo(() => activities.id),
    userId: belongsTo(() => users.id),
    enrollmentId: integer().references(() => enrollments.id, { onDelete: 'cascade' }),
    grade: integer(),
    submittedAt: tstz(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.activityId, t.userId),
    indexOn(t.userId),
    indexOn(t.enrollmentId),
  ],
);

/** The answer of one question within an attempt: a chosen option or a text (essay). */
export const examQuestionAnswers = schoolTable(
  'exam_question_answers',
  {
    examQuestionId: belongsTo(() => examQuestions.id),
    examAnswerId: belongsTo(() => examAnswers.id),
    examQuestionOptionId: integer().references(() => examQuestionOptions.id, { onDelete: 'set null' }),
    text: text(),
    correct: boolean(),
  },
  (t) => [
    ...childRowIndexes(t, t.examQuestionId),
    indexOn(t.examAnswerId),
    indexOn(t.examQuestionOptionId),
  ],
);

export type ActivityRow = typeof activities.$inferSelect;
export type ExamQuestionRow = typeof examQuestions.$inferSelect;
export type ExamQuestionOptionRow = typeof examQuestionOptions.$inferSelect;
export type ExamQuestionAssertionRow = typeof examQuestionAssertions.$inferSelect;
export type ExamAnswerRow = typeof examAnswers.$inferSelect;
export type ExamQuestionAnswerRow = typeof examQuestionAnswers.$inferSelect;
