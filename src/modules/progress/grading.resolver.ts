import 'reflect-metadata';
import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { paginate } from '../../graphql/pagination.js';
import { activities } from '../activities/activity.table.js';
import { courseById } from '../courses/course.loaders.js';
import { courseModuleLinks, lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { AttemptGradingInput, AttemptsToGradeArgs } from './grading.input.js';
import { activityAttemptById } from './grading.loaders.js';
import { gradeAttempt, isOpenAnswer } from './grading.write.js';
import { activityAttempts, AWAITING_GRADING, type AttemptAnswer } from './progress.table.js';
import { ActivityAttempt, ActivityAttemptConnection } from './progress.type.js';

export const GradeAttemptPayload = Payload(ActivityAttempt, 'activityAttempt', 'GradeAttemptPayload');

/** The queue's filters: the school's attempts awaiting grading (the partial index's predicate), of a course's activities or a product's enrollments. */
async function queueWhere(ctx: Context, args: AttemptsToGradeArgs): Promise<SQL | undefined> {
  const conditions: (SQL | undefined)[] = [inSchool(ctx, activityAttempts.schoolId), AWAITING_GRADING];
  if (args.courseId !== undefined && args.courseId !== null) {
    const course = await findOr404(ctx, courseById, parseId(args.courseId, 'Course'), 'Course');
    const modules = ctx.db.select({ id: courseModuleLinks.courseModuleId }).from(courseModuleLinks).where(eq(courseModuleLinks.courseId, course.id));
    const lessonIds = ctx.db.select({ id: lessons.id }).from(lessons).where(inArray(lessons.courseModuleId, modules));
    conditions.push(inArray(activityAttempts.activityId, ctx.db.select({ id: activities.id }).from(activities).where(inArray(activities.examLessonId, lessonIds))));
  }
  if (args.schoolProductId !== undefined && args.schoolProductId !== null) {
    const product = await findOr404(ctx, schoolProductById, parseId(args.schoolProductId, 'SchoolProduct'), 'SchoolProduct');
    conditions.push(inArray(activityAttempts.enrollmentId, ctx.db.select({ id: enrollments.id }).from(enrollments).where(eq(enrollments.schoolProductId, product.id))));
  }
  return and(...conditions);
}

@Resolver(() => ActivityAttempt)
export class GradingResolver {
  @Query(() => ActivityAttempt, { description: "One attempt with its answers, grades and comments. A student's credential reads its own (another's is a 404)." })
  activityAttempt(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, activityAttemptById, parseId(id, 'ActivityAttempt'), 'ActivityAttempt');
  }

  @Query(() => ActivityAttemptConnection, {
    description:
      'The grading queue: attempts with open answers (texts) awaiting grading by hand, oldest first, narrowed to the activities of a course or the enrollments in a school product (arguments combine).',
  })
  async attemptsToGrade(@Args(() => AttemptsToGradeArgs) args: AttemptsToGradeArgs, @Ctx() ctx: Context) {
    // Ids follow submission (submittedAt is the insert's time): id order is oldest first, on keyset pages.
    return paginate(ctx, activityAttempts, await queueWhere(ctx, args), args);
  }

  @Mutation(() => GradeAttemptPayload, {
    description:
      "Grades open answers of an attempt by hand (points and a comment each): its score and pass/fail are recomputed as at submission, the exam lesson completed and the certificate issued when due, `attempt.graded` emitted and the student notified. Points from 0 to the question's points; a question its options graded, or one the attempt does not answer: errors naming each.",
  })
  gradeAttempt(@Arg('id', () => ID) id: string, @Arg('input', () => AttemptGradingInput) input: AttemptGradingInput, @Ctx() ctx: Context) {
    writeSchool(ctx);
    const attemptId = parseId(id, 'ActivityAttempt');
    return mutate(ctx, 'activityAttempt', (tx) => gradeAttempt(tx, ctx, attemptId, input));
  }

  @FieldResolver(() => Boolean, { description: 'An open answer (a text) still awaits grading by hand: the attempt is in the grading queue (attemptsToGrade).' })
  awaitingGrading(@Root() attempt: { answers: AttemptAnswer[]; gradedAt: Date | null }): boolean {
    return attempt.gradedAt === null && attempt.answers.some(isOpenAnswer);
  }
}
