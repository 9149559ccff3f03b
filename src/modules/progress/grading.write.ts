import { and, eq } from 'drizzle-orm';
import { inSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import { Checks, isBlank } from '../../graphql/validation.js';
import { activities, examQuestions } from '../activities/activity.table.js';
import { lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { emitRowEvent } from '../events/events.js';
import type { AttemptGradingInput } from './grading.input.js';
import { passes, scoreOf } from './grading.score.js';
import { activityAttempts, type AttemptAnswer } from './progress.table.js';
import { certifyIfDue, writeLessonProgress } from './progress.write.js';

type Grade = Required<Pick<AttemptAnswer, 'points' | 'maxPoints' | 'comment'>>;

/** An open answer: a text that no option judged (an essay's); the answers staff grade by hand. */
export const isOpenAnswer = (a: AttemptAnswer) => a.correct === null && a.text !== null;

/**
 * The credit of each open question graded by hand (points over the question's points), by question.
 * A question worth no points weighs nothing: graded, it adds no credit and is not counted.
 */
function handCredits(answers: readonly AttemptAnswer[]): Map<number, number> {
  const credits = new Map<number, number>();
  for (const a of answers) if (isOpenAnswer(a) && a.points != null && a.maxPoints) credits.set(a.examQuestionId, a.points / a.maxPoints);
  return credits;
}

/**
 * The grades of the input, by question, once every item is checked: each names a question the
 * attempt answers with a text (not one its options graded), once, with points from 0 to the
 * question's points (1 when it has none). Every problem is named at once (422).
 */
function checkGrades(answers: readonly AttemptAnswer[], weights: Map<number, number | null>, input: AttemptGradingInput): Map<number, Grade> {
  const checks = new Checks();
  const items = input.answers ?? [];
  if (!items.length) checks.add('answers', 'blank', "can't be blank: grade at least one answer");
  const grades = new Map<number, Grade>();
  items.forEach((item, i) => {
    const at = checks.nested('answers', i);
    const id = idOrNull(item.examQuestionId);
    const given = id === null ? [] : answers.filter((a) => a.examQuestionId === id);
    if (isBlank(item.examQuestionId)) at.add('examQuestionId', 'blank');
    else if (id === null || !given.length) at.add('examQuestionId', 'not_found', 'must be a question this attempt answers');
    else if (grades.has(id)) at.add('examQuestionId', 'duplicate', 'is graded twice in this request');
    else if (given.some((a) => a.correct !== null)) at.add('examQuestionId', 'auto_graded');
    else if (!given.some(isOpenAnswer)) at.add('examQuestionId', 'invalid', 'has no written answer to grade');
    const maxPoints = (id !== null ? weights.get(id) : null) ?? 1;
    if (item.points === null || item.points === undefined) at.add('points', 'blank');
    else at.range('points', item.points, 0, maxPoints);
    if (id !== null && !grades.has(id)) grades.set(id, { points: item.points ?? 0, maxPoints, comment: item.comment?.trim() || null });
  });
  checks.throwIfAny();
  return grades;
}

/**
 * Grades open answers of an attempt by hand, in the mutation's transaction: the score and pass/fail
 * recomputed by the scoring rule of submissions (grading.score.ts), the exam lesson completed when it
 * now passes and the certificate issued when due (the progress writes' own steps), `attempt.graded`
 * emitted (which notifies the student). Another school's attempt is a 404.
 */
export async function gradeAttempt(tx: Queryable, ctx: Context, attemptId: number, input: AttemptGradingInput) {
  const [found] = await tx
    .select({ enrollmentId: activityAttempts.enrollmentId })
    .from(activityAttempts)
    .where(and(eq(activityAttempts.id, attemptId), inSchool(ctx, activityAttempts.schoolId)));
  if (!found) throw notFound('ActivityAttempt');
  // The enrollment first, as every progress write locks it: grading takes turns with them (a certificate is issued once).
  const [enrollment] = await tx.select().from(enrollments).where(eq(enrollments.id, found.enrollmentId)).for('update');
  const [attempt] = await tx.select().from(activityAttempts).where(eq(activityAttempts.id, attemptId)).for('update');
  const [activity] = await tx.select().from(activities).where(eq(activities.id, attempt.activityId));
  const [lesson] = await tx.select().from(lessons).where(eq(lessons.id, activity.examLessonId));
  const questions = await tx.select({ id: examQuestions.id, point: examQuestions.point }).from(examQuestions).where(eq(examQuestions.activityId, activity.id));

  const grades = checkGrades(attempt.answers, new Map(questions.map((q) => [q.id, q.point])), input);
  const answers = attempt.answers.map((a) => (isOpenAnswer(a) && grades.has(a.examQuestionId) ? { ...a, ...grades.get(a.examQuestionId)! } : a));
  // The questions its options graded are the stored counts less the open ones graded before: the
  // student's unanswered questions count there too, and the submission's judgement stands.
  const before = handCredits(attempt.answers);
  const optionGraded = attempt.gradableCount - before.size;
  const optionRight = attempt.correctCount - [...before.values()].filter((c) => c >= 1).length;
  const credits = [...Array.from({ length: optionGraded }, (_, i) => (i < optionRight ? 1 : 0)), ...handCredits(answers).values()];
  const scored = scoreOf(credits);
  const passed = passes(scored.score, lesson.minGrade);
  const complete = !answers.some((a) => isOpenAnswer(a) && a.points == null);
  const gradedById = ctx.credential?.userId ?? null;
  const now = ctx.now();
  const [row] = await tx
    .update(activityAttempts)
    .set({ answers, ...scored, passed, gradedAt: complete ? now : null, gradedById, updatedAt: now })
    .where(eq(activityAttempts.id, attempt.id))
    .returning();

  if (passed) await writeLessonProgress(tx, ctx, enrollment, lesson.id, { completed: true });
  await certifyIfDue(tx, ctx, enrollment);
  // The student's notification follows the event (notifications/notification.consumer.ts), in this transaction.
  await emitRowEvent(tx, 'attempt.graded', row, {
    enrollmentId: row.enrollmentId,
    studentId: row.studentId,
    activityId: row.activityId,
    activityTitle: activity.title,
    gradedById,
    score: row.score,
    passed,
    complete,
  });
  return row;
}
