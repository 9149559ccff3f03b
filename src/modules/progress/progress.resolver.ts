import 'reflect-metadata';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, ownRows, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { paginate } from '../../graphql/pagination.js';
import { enrollmentById, studentById } from '../enrollments/enrollment.loaders.js';
import { enrollments, type EnrollmentRow } from '../enrollments/enrollment.table.js';
import { Enrollment } from '../enrollments/enrollment.type.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { ActivityAttemptInput, LessonProgressInput, ProgressArgs } from './progress.input.js';
import { certificateByCode } from './certificate.lookup.js';
import { certificateOfEnrollment, figuresOf } from './progress.loaders.js';
import type { LessonRow } from '../courses/course.table.js';
import { activityAttempts, lessonProgress } from './progress.table.js';
import { ActivityAttempt, ActivityAttemptConnection, CertificateVerification, LessonProgress, LessonProgressConnection } from './progress.type.js';
import { certifyIfDue, lockEnrollment, openLesson, releasedActivity, releasedLesson, writeAttempt, writeLessonProgress } from './progress.write.js';

export const LessonProgressPayload = Payload(LessonProgress, 'lessonProgress');
export const ActivityAttemptPayload = Payload(ActivityAttempt, 'activityAttempt');

/** The filters of a progress list: the school, a student's own rows, and the enrollment, student or product named. */
async function progressWhere(ctx: Context, args: ProgressArgs, table: typeof lessonProgress | typeof activityAttempts): Promise<SQL | undefined> {
  const conditions: (SQL | undefined)[] = [inSchool(ctx, table.schoolId), ownRows(ctx, table.studentId)];
  if (args.enrollmentId !== undefined && args.enrollmentId !== null) {
    const enrollment = await findOr404(ctx, enrollmentById, parseId(args.enrollmentId, 'Enrollment'), 'Enrollment');
    conditions.push(eq(table.enrollmentId, enrollment.id));
  }
  if (args.studentId !== undefined && args.studentId !== null) {
    const student = await findOr404(ctx, studentById, parseId(args.studentId, 'Student'), 'Student');
    conditions.push(eq(table.studentId, student.id));
  }
  if (args.schoolProductId !== undefined && args.schoolProductId !== null) {
    const product = await findOr404(ctx, schoolProductById, parseId(args.schoolProductId, 'SchoolProduct'), 'SchoolProduct');
    conditions.push(inArray(table.enrollmentId, ctx.db.select({ id: enrollments.id }).from(enrollments).where(eq(enrollments.schoolProductId, product.id))));
  }
  return and(...conditions);
}

/**
 * One progress write through an enrollment: the enrollment locked, the lesson (or the activity
 * and its lesson) it releases (`release` of the `target` id), the lesson opened, the row written,
 * then the certificate if now due.
 */
function recordProgress<Released extends { lesson: LessonRow }, R>(
  ctx: Context,
  key: 'lessonProgress' | 'activityAttempt',
  enrollmentId: string,
  [targetId, targetType]: [string, 'Lesson' | 'Activity'],
  release: (tx: Queryable, enrollment: EnrollmentRow, targetId: number) => Promise<Released>,
  write: (tx: Queryable, enrollment: EnrollmentRow, released: Released) => Promise<R>,
) {
  writeSchool(ctx);
  const ids = { enrollment: parseId(enrollmentId, 'Enrollment'), target: parseId(targetId, targetType) };
  return mutate(ctx, key, async (tx) => {
    const enrollment = await lockEnrollment(tx, ctx, ids.enrollment);
    const released = await release(tx, enrollment, ids.target);
    await openLesson(tx, ctx, enrollment, released.lesson.id);
    const row = await write(tx, enrollment, released);
    await certifyIfDue(tx, ctx, enrollment);
    return row;
  });
}

@Resolver()
export class ProgressResolver {
  @Query(() => LessonProgressConnection, {
    description: "Lesson progress, narrowed to an enrollment, a student or a school product (arguments combine). A student's credential reads its own.",
  })
  async lessonProgresses(@Args(() => ProgressArgs) args: ProgressArgs, @Ctx() ctx: Context) {
    return paginate(ctx, lessonProgress, await progressWhere(ctx, args, lessonProgress), args);
  }

  @Query(() => ActivityAttemptConnection, {
    description: "Activity attempts, narrowed to an enrollment, a student or a school product (arguments combine). A student's credential reads its own.",
  })
  async activityAttempts(@Args(() => ProgressArgs) args: ProgressArgs, @Ctx() ctx: Context) {
    return paginate(ctx, activityAttempts, await progressWhere(ctx, args, activityAttempts), args);
  }

  @Mutation(() => LessonProgressPayload, {
    description:
      'Records progress in a lesson the enrollment releases (idempotent: completing twice is one completion). A student writes through its own enrollments only; past the attendance limit: FORBIDDEN.',
  })
  recordLessonProgress(
    @Arg('enrollmentId', () => ID) enrollmentId: string,
    @Arg('lessonId', () => ID) lessonId: string,
    @Arg('input', () => LessonProgressInput) input: LessonProgressInput,
    @Ctx() ctx: Context,
  ) {
    return recordProgress(
      ctx,
      'lessonProgress',
      enrollmentId,
      [lessonId, 'Lesson'],
      async (tx, enrollment, id) => ({ lesson: await releasedLesson(tx, ctx, enrollment, id) }),
      (tx, enrollment, { lesson }) => writeLessonProgress(tx, ctx, enrollment, lesson.id, input),
    );
  }

  @Mutation(() => ActivityAttemptPayload, {
    description:
      "Submits an attempt at an activity on a lesson the enrollment releases: scored against the questions' correct options; a passed attempt completes the exam lesson. The same key again answers the recorded attempt.",
  })
  submitActivityAttempt(
    @Arg('enrollmentId', () => ID) enrollmentId: string,
    @Arg('activityId', () => ID) activityId: string,
    @Arg('input', () => ActivityAttemptInput) input: ActivityAttemptInput,
    @Ctx() ctx: Context,
  ) {
    return recordProgress(
      ctx,
      'activityAttempt',
      enrollmentId,
      [activityId, 'Activity'],
      (tx, enrollment, id) => releasedActivity(tx, ctx, enrollment, id),
      (tx, enrollment, { activity, lesson }) => writeAttempt(tx, ctx, enrollment, activity, lesson, input),
    );
  }

  @Query(() => CertificateVerification, { description: 'Confirms a certificate by its verification code, with no credential: the name, the product and the date only.' })
  async certificate(@Arg('code', () => String) code: string, @Ctx() ctx: Context) {
    // Public, by the rule the printed certificate shares (certificate.lookup.ts).
    const row = await certificateByCode(ctx.db, code);
    if (!row) throw notFound('Certificate');
    return { code: row.code, studentName: row.studentName, productTitle: row.productTitle, issuedAt: row.issuedAt };
  }
}

/** `Enrollment.progress`, `Enrollment.completion` and `Enrollment.certificateCode`, batched per request. */
@Resolver(() => Enrollment)
export class EnrollmentProgressResolver {
  @FieldResolver(() => Int, {
    description:
      'Percent (0-100, rounded down) of what the enrollment releases now that is completed: every available lesson released to it and every activity on one (see the README).',
  })
  async progress(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    return (await figuresOf(ctx, enrollment.id)).progress.percent;
  }

  @FieldResolver(() => Int, {
    description:
      "Percent (0-100, rounded down) of the whole product that is completed: every available lesson, released or still locked by drip, and every activity on one. The certificate follows it unless the product's certificateRule says released_progress.",
  })
  async completion(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    return (await figuresOf(ctx, enrollment.id)).completion.percent;
  }

  @FieldResolver(() => String, { nullable: true, description: "The verification code of the enrollment's certificate, once issued (GET /certificates/:code)." })
  async certificateCode(@Root() enrollment: EnrollmentRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(certificateOfEnrollment).load(enrollment.id))?.code ?? null;
  }
}
