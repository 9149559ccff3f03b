import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { inSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { AppError, forbidden, notFound } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import { Checks } from '../../graphql/validation.js';
import { activities, examQuestionOptions, examQuestions, type ActivityRow } from '../activities/activity.table.js';
import { enrollmentScope, isActiveEnrollment, listedLessonCondition } from '../../content/scope.js';
import { releaseColumns } from '../../content/release.js';
import { lessons, type LessonRow } from '../courses/course.table.js';
import { visibleEnrollments } from '../enrollments/enrollment.loaders.js';
import { effectiveStatus } from '../enrollments/enrollment.status.js';
import { enrollments, type EnrollmentRow } from '../enrollments/enrollment.table.js';
import { emitEvents } from '../events/events.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import type { ActivityAttemptInput, LessonProgressInput } from './progress.input.js';
import { attendanceRefusal, dayOf } from '../../content/attendance.js';
import { passes, scoreOf } from './grading.score.js';
import { progressOf } from './progress.sql.js';
import { activityAttempts, type AttemptAnswer, certificates, contentOpenings, lessonProgress } from './progress.table.js';

/**
 * The enrollment a progress write goes through, locked so that the writes of one enrollment take
 * turns (openings are counted, certificates issued once). A student's credential finds only its own
 * enrollments (another's is a 404); an enrollment that is not active refuses with 403.
 */
export async function lockEnrollment(tx: Queryable, ctx: Context, id: number): Promise<EnrollmentRow> {
  const [row] = await tx
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.id, id), visibleEnrollments(ctx)))
    .for('update');
  if (!row) throw notFound('Enrollment');
  if (!isActiveEnrollment(row, ctx.now())) throw forbidden(`This enrollment is ${effectiveStatus(row, ctx.now())}: it releases no content`);
  return row;
}

/**
 * A lesson the enrollment releases now: one of its product that is locked (its release dates to
 * come; the student's list shows it, with when it opens) is a 403 saying when it opens, any other a
 * 404, as the enrollment's content reads answer.
 */
export async function releasedLesson(tx: Queryable, ctx: Context, e: EnrollmentRow, lessonId: number): Promise<LessonRow> {
  const scope = enrollmentScope(e, ctx.now());
  const [row] = await tx
    .select({ lesson: lessons, ...releaseColumns(scope) })
    .from(lessons)
    .where(and(eq(lessons.id, lessonId), inSchool(ctx, lessons.schoolId), listedLessonCondition(ctx, scope)));
  if (!row) throw notFound('Lesson');
  if (!row.released) throw forbidden(`This lesson is locked until ${row.releasedAt?.toISOString() ?? 'it is released'}`);
  return row.lesson;
}

/** An activity on a lesson the enrollment releases (else 404; 403 while its lesson is locked), with that lesson. */
export async function releasedActivity(tx: Queryable, ctx: Context, e: EnrollmentRow, activityId: number): Promise<{ activity: ActivityRow; lesson: LessonRow }> {
  const [activity] = await tx
    .select()
    .from(activities)
    .where(and(eq(activities.id, activityId), inSchool(ctx, activities.schoolId)));
  if (!activity) throw notFound('Activity');
  const lesson = await releasedLesson(tx, ctx, e, activity.examLessonId).catch((error: unknown) => {
    throw error instanceof AppError && error.code === 'forbidden' ? error : notFound('Activity');
  });
  return { activity, lesson };
}

/** Records the opening of a lesson (once per lesson and day), refused past the attendance limit. */
export async function openLesson(tx: Queryable, ctx: Context, e: EnrollmentRow, lessonId: number): Promise<void> {
  const now = ctx.now();
  const where = and(eq(contentOpenings.enrollmentId, e.id), eq(contentOpenings.lessonId, lessonId), eq(contentOpenings.day, dayOf(now)));
  const [existing] = await tx.select({ id: contentOpenings.id }).from(contentOpenings).where(where);
  const refusal = await attendanceRefusal(tx, e, now, !existing);
  if (refusal) throw forbidden(refusal);
  if (!existing) await tx.insert(contentOpenings).values({ schoolId: e.schoolId, enrollmentId: e.id, lessonId, day: dayOf(now) }).onConflictDoNothing();
}

/** Upserts a lesson's progress: idempotent (completion set once, time spent the highest total). */
export async function writeLessonProgress(tx: Queryable, ctx: Context, e: EnrollmentRow, lessonId: number, input: LessonProgressInput) {
  const now = ctx.now();
  new Checks().range('lastPosition', input.lastPosition, 0).range('timeSpent', input.timeSpent, 0).throwIfAny();
  const t = lessonProgress;
  const [row] = await tx
    .insert(t)
    .values({
      schoolId: e.schoolId,
      enrollmentId: e.id,
      studentId: e.studentId,
      lessonId,
      startedAt: now,
      completedAt: input.completed ? now : null,
      lastPosition: input.lastPosition ?? null,
      timeSpent: input.timeSpent ?? 0,
    })
    .onConflictDoUpdate({
      target: [t.enrollmentId, t.lessonId, t.schoolId],
      set: {
        completedAt: sql`coalesce(${t.completedAt}, excluded.completed_at)`,
        lastPosition: sql`coalesce(excluded.last_position, ${t.lastPosition})`,
        timeSpent: sql`greatest(${t.timeSpent}, excluded.time_spent)`,
        updatedAt: now,
      },
    })
    .returning();
  return row;
}

/** Scores the answers against the activity's correct options; unknown questions or options are UserErrors. */
async function scoreAnswers(tx: Queryable, activity: ActivityRow, input: ActivityAttemptInput) {
  const questions = await tx.select({ id: examQuestions.id }).from(examQuestions).where(eq(examQuestions.activityId, activity.id));
  const questionIds = questions.map((q) => q.id);
  const options = questionIds.length
    ? await tx
        .select({ id: examQuestionOptions.id, questionId: examQuestionOptions.examQuestionId, correct: examQuestionOptions.correct })
        .from(examQuestionOptions)
        .where(inArray(examQuestionOptions.examQuestionId, questionIds))
    : [];
  const checks = new Checks();
  const given = (input.answers ?? []).map((a, i) => {
    const at = checks.nested('answers', i);
    const questionId = idOrNull(a.examQuestionId);
    const optionId = a.examQuestionOptionId === null || a.examQuestionOptionId === undefined ? null : idOrNull(a.examQuestionOptionId);
    if (questionId === null || !questionIds.includes(questionId)) at.add('examQuestionId', 'not_found', 'must be a question of this activity');
    else if (a.examQuestionOptionId != null && (optionId === null || !options.some((o) => o.id === optionId && o.questionId === questionId)))
      at.add('examQuestionOptionId', 'not_found', 'must be an option of its question');
    return { examQuestionId: questionId ?? 0, examQuestionOptionId: optionId, text: a.text ?? null };
  });
  checks.throwIfAny();
  // A question is gradable when it has correct options; it is right when the chosen options are exactly those.
  const right = new Map<number, boolean>();
  for (const id of questionIds) {
    const correct = options.filter((o) => o.questionId === id && o.correct).map((o) => o.id);
    if (!correct.length) continue;
    const chosen = new Set(given.filter((g) => g.examQuestionId === id && g.examQuestionOptionId !== null).map((g) => g.examQuestionOptionId));
    right.set(id, chosen.size === correct.length && correct.every((o) => chosen.has(o)));
  }
  const answers: AttemptAnswer[] = given.map((g) => ({ ...g, correct: right.has(g.examQuestionId) ? right.get(g.examQuestionId)! : null }));
  return { answers, ...scoreOf([...right.values()].map((r) => (r ? 1 : 0))) };
}

/**
 * Records an attempt (the same key again answers the recorded one). It passes when its score is at
 * least the exam lesson's minGrade (a percent), or when nothing in it is gradable; a passed attempt
 * completes the exam lesson too.
 */
export async function writeAttempt(tx: Queryable, ctx: Context, e: EnrollmentRow, activity: ActivityRow, lesson: LessonRow, input: ActivityAttemptInput) {
  const key = input.key?.trim() || null;
  if (key) {
    const [same] = await tx
      .select()
      .from(activityAttempts)
      .where(and(eq(activityAttempts.enrollmentId, e.id), eq(activityAttempts.activityId, activity.id), eq(activityAttempts.key, key)));
    if (same) return same;
  }
  if (activity.maxAttempts) {
    const [{ n }] = await tx
      .select({ n: count() })
      .from(activityAttempts)
      .where(and(eq(activityAttempts.enrollmentId, e.id), eq(activityAttempts.activityId, activity.id)));
    if (Number(n) >= activity.maxAttempts) new Checks().add(null, 'too_many_attempts', `this activity allows ${activity.maxAttempts} attempts`).throwIfAny();
  }
  const scored = await scoreAnswers(tx, activity, input);
  const passed = passes(scored.score, lesson.minGrade);
  const [row] = await tx
    .insert(activityAttempts)
    .values({ schoolId: e.schoolId, enrollmentId: e.id, studentId: e.studentId, activityId: activity.id, key, ...scored, passed, submittedAt: ctx.now() })
    .returning();
  if (passed) await writeLessonProgress(tx, ctx, e, lesson.id, { completed: true });
  return row;
}

/**
 * Issues the enrollment's certificate once the figure its product's certificate_rule names reaches
 * the product's certification_min_progress (100 when unset), on a product with certification:
 * `completion` (the default) counts the whole product, drip-locked lessons included, so a lesson that
 * opens later and is completed then issues it; `released_progress` counts what is released now. The
 * unique enrollment key makes it once, and only the write that issues it emits the events.
 */
export async function certifyIfDue(tx: Queryable, ctx: Context, e: EnrollmentRow): Promise<void> {
  const [product] = await tx
    .select({ certification: schoolProducts.certification, min: schoolProducts.certificationMinProgress, rule: schoolProducts.certificateRule })
    .from(schoolProducts)
    .where(eq(schoolProducts.id, e.schoolProductId));
  if (!product?.certification) return;
  const figures = (await progressOf(tx, [e.id], ctx.now())).get(e.id);
  const earned = figures && (product.rule === 'released_progress' ? figures.progress : figures.completion);
  if (!figures || !earned || earned.total === 0 || earned.percent < (product.min ?? 100)) return;
  const [certificate] = await tx
    .insert(certificates)
    .values({ schoolId: e.schoolId, enrollmentId: e.id, studentId: e.studentId, schoolProductId: e.schoolProductId, code: randomBytes(12).toString('base64url'), issuedAt: ctx.now() })
    .onConflictDoNothing({ target: [certificates.enrollmentId, certificates.schoolId] })
    .returning();
  if (!certificate) return;
  const payload = { enrollmentId: e.id, studentId: e.studentId, schoolProductId: e.schoolProductId, progress: figures.progress.percent, completion: figures.completion.percent };
  const base = { schoolId: e.schoolId, payload };
  await emitEvents(tx, [
    { ...base, name: 'enrollment.completed', subjectType: 'Enrollment', subjectId: e.id },
    { ...base, name: 'certificate.issued', subjectType: 'Certificate', subjectId: certificate.id, payload: { ...base.payload, code: certificate.code } },
  ]);
}
