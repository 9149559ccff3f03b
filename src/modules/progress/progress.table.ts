import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, type PgColumn, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolEntryTable, schoolTable } from '../../db/tables.js';
import { activities } from '../activities/activity.table.js';
import { lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { users } from '../users/user.table.js';

const enrollmentRef = () =>
  integer()
    .notNull()
    .references(() => enrollments.id, { onDelete: 'cascade' });
const studentRef = () =>
  integer()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
/** The enrollment a row is written through, and its student (kept on the row for a student's own lists). */
const enrolledStudent = () => ({ enrollmentId: enrollmentRef(), studentId: studentRef() });
/** A school's rows and a student's, each in id order (keyset pages). */
const schoolAndStudentIndexes = (t: { id: PgColumn; schoolId: PgColumn; studentId: PgColumn }) => [orderedIndex(t.schoolId, t.id), orderedIndex(t.studentId, t.id)];

/** A student's progress in one lesson through one enrollment: one row per (enrollment, lesson). */
export const lessonProgress = schoolTable(
  'lesson_progress',
  {
    ...enrolledStudent(),
    lessonId: belongsTo(() => lessons.id),
    startedAt: tstz().notNull(),
    /** Set once; a later write never clears it (the same completion twice is one). */
    completedAt: tstz(),
    /** Seconds into the lesson's media where the student stopped. */
    lastPosition: integer(),
    /** Seconds spent in the lesson: the highest total reported (a repeated report changes nothing). */
    timeSpent: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndexOn(t.enrollmentId, t.lessonId, t.schoolId),
    ...schoolAndStudentIndexes(t),
    indexOn(t.lessonId),
    // Reports' active students: a school's progress writes of a period.
    indexOn(t.schoolId, t.updatedAt),
    check('lesson_progress_last_position_non_negative', sql`${t.lastPosition} >= 0`),
    check('lesson_progress_time_spent_non_negative', sql`${t.timeSpent} >= 0`),
  ],
);

export interface AttemptAnswer {
  examQuestionId: number;
  examQuestionOptionId: number | null;
  text: string | null;
  /** Whether the question was answered right; null for a question with no correct option (an essay). */
  correct: boolean | null;
  /** Graded by hand (an open answer: grading.write.ts): the points given, of the question's `maxPoints`, and the grader's comment. */
  points?: number | null;
  maxPoints?: number | null;
  comment?: string | null;
}

/**
 * An attempt awaiting grading by hand: an open answer (a text no option judged) and not yet graded.
 * Written on raw column names: it is also the predicate of the queue's partial index, which a query matches by it.
 */
export const AWAITING_GRADING = sql`graded_at is null and jsonb_path_exists(answers, '$[*] ? (@.correct == null && @.text != null)')`;

/** One submitted attempt at an activity (exam): its answers and score. */
export const activityAttempts = schoolTable(
  'activity_attempts',
  {
    ...enrolledStudent(),
    activityId: belongsTo(() => activities.id),
    /** The client's key for the attempt: the same key again answers the attempt already recorded. */
    key: text(),
    answers: jsonb().$type<AttemptAnswer[]>().notNull().default([]),
    correctCount: integer().notNull().default(0),
    gradableCount: integer().notNull().default(0),
    /** Percent of gradable questions answered right; null when no question has a correct option. */
    score: integer(),
    passed: boolean().notNull(),
    submittedAt: tstz().notNull(),
    /** When staff graded its last open answer (gradeAttempt); null while one awaits grading, or none has any. */
    gradedAt: tstz(),
    gradedById: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndexOn(t.enrollmentId, t.activityId, t.key, t.schoolId),
    // The grading queue (attemptsToGrade): a school's attempts awaiting grading, oldest (id order) first.
    index('activity_attempts_awaiting_grading_idx').on(t.schoolId, t.id).where(AWAITING_GRADING),
    // Erasing or deleting a grader sets its attempts' grader to null: found by this index, not a scan.
    indexOn(t.gradedById),
    indexOn(t.enrollmentId, t.activityId),
    ...schoolAndStudentIndexes(t),
    indexOn(t.activityId),
  ],
);

/** A content opening: the first progress write for a lesson on a given (UTC) day through an enrollment. */
export const contentOpenings = schoolEntryTable(
  'content_openings',
  {
    enrollmentId: enrollmentRef(),
    lessonId: belongsTo(() => lessons.id),
    day: date({ mode: 'string' }).notNull(),
  },
  (t) => [
    uniqueIndexOn(t.enrollmentId, t.lessonId, t.day, t.schoolId),
    indexOn(t.schoolId),
    indexOn(t.lessonId),
  ],
);

/** A certificate: issued once per enrollment, verified publicly by its random code. */
export const certificates = schoolTable(
  'certificates',
  {
    ...enrolledStudent(),
    schoolProductId: belongsTo(() => schoolProducts.id),
    code: text().notNull(),
    issuedAt: tstz().notNull(),
  },
  (t) => [
    uniqueIndexOn(t.enrollmentId, t.schoolId),
    uniqueIndexOn(t.code, t.schoolId),
    orderedIndex(t.schoolId, t.id),
    indexOn(t.studentId),
    indexOn(t.schoolProductId),
  ],
);

/**
 * The expiries the sweep has announced: one row per (enrollment, available_until), so the
 * `enrollment.expired` event is recorded once however many instances sweep, and again only when
 * the enrollment is extended and runs out anew.
 */
export const enrollmentExpirations = schoolEntryTable(
  'enrollment_expirations',
  {
    enrollmentId: enrollmentRef(),
    availableUntil: tstz().notNull(),
  },
  (t) => [
    uniqueIndexOn(t.enrollmentId, t.availableUntil, t.schoolId),
    indexOn(t.schoolId),
  ],
);

export type CertificateRow = typeof certificates.$inferSelect;
