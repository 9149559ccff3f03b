import 'reflect-metadata';
import { and, count, eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ownStudentId, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { enrollmentScope, isActiveEnrollment, lessonCondition } from '../content/content-scope.js';
import { lessons } from '../courses/course.table.js';
import { enrollments, type EnrollmentRow } from '../enrollments/enrollment.table.js';
import { users } from '../users/user.table.js';
import { activityById, answersOfExamAnswer, examAnswerById, visibleExamAnswers } from './activity.loaders.js';
import { activities, type ActivityRow, examAnswers, type ExamAnswerRow } from './activity.table.js';
import { Activity } from './activity.type.js';
import { CreateExamAnswerInput, ExamAnswer, ExamAnswerConnection, ExamQuestionAnswer, UpdateExamAnswerInput } from './exam-answer.type.js';

export const ExamAnswerPayload = Payload(ExamAnswer, 'examAnswer');

@ArgsType()
export class ExamAnswersArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) activityId?: string | null;
  @Field(() => ID, { nullable: true }) studentId?: string | null;
  @Field(() => ID, { nullable: true }) enrollmentId?: string | null;
}

/** The enrollment must be one of the school's, of the attempt's student. Returns its row (null when not given or not found). */
async function checkEnrollment(tx: Queryable, checks: Checks, schoolId: number, enrollmentId: string | null | undefined, studentId: number | null) {
  if (enrollmentId === undefined || enrollmentId === null) return null;
  const id = idOrNull(enrollmentId);
  const [row] = id
    ? await tx
        .select()
        .from(enrollments)
        .where(and(eq(enrollments.id, id), eq(enrollments.schoolId, schoolId)))
    : [];
  if (!row) checks.add('enrollmentId', 'not_found', 'must exist in this school');
  else if (studentId !== null && row.studentId !== studentId) checks.add('enrollmentId', 'invalid', 'must be an enrollment of the student');
  return row ?? null;
}

/**
 * A student makes attempts through an active enrollment of its own, at activities of the lessons
 * that enrollment has released (what GET /enrollments/:id/activities lists).
 */
async function checkStudentAccess(tx: Queryable, ctx: Context, checks: Checks, enrollment: EnrollmentRow | null, activity: ActivityRow | undefined) {
  if (!enrollment || !activity || !checks.ok) return;
  const now = ctx.now();
  if (!isActiveEnrollment(enrollment, now)) {
    checks.add('enrollmentId', 'invalid', 'is not active');
    return;
  }
  const scope = enrollmentScope(enrollment, now);
  const [released] = await tx
    .select({ id: lessons.id })
    .from(lessons)
    .where(and(eq(lessons.id, activity.examLessonId), lessonCondition(ctx, scope)));
  if (!released) checks.add('activityId', 'not_found', 'is not among the activities the enrollment shows');
}

/** Grades are given by the school's staff; a student credential may only make and hand in attempts. */
function checkGrade(ctx: Context, checks: Checks, grade: number | null | undefined) {
  if (grade !== undefined && ownStudentId(ctx) !== null) checks.add('grade', 'forbidden', "is given by the school's staff");
  checks.range('grade', grade, 0);
}

@Resolver(() => ExamAnswer)
export class ExamAnswerResolver {
  @Query(() => ExamAnswer, { description: 'An attempt; a student credential sees only its own.' })
  examAnswer(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, examAnswerById, parseId(id, 'ExamAnswer'), 'ExamAnswer');
  }

  @Query(() => ExamAnswerConnection, { description: 'Attempts of the school, narrowed by activity, student and enrollment; a student sees its own.' })
  examAnswers(@Args(() => ExamAnswersArgs) args: ExamAnswersArgs, @Ctx() ctx: Context) {
    const by = (column: PgColumn, id: string | null | undefined, what: string): SQL | undefined =>
      id === undefined || id === null ? undefined : eq(column, parseId(id, what));
    const conditions = [
      visibleExamAnswers(ctx),
      by(examAnswers.activityId, args.activityId, 'Activity'),
      by(examAnswers.userId, args.studentId, 'Student'),
      by(examAnswers.enrollmentId, args.enrollmentId, 'Enrollment'),
    ];
    return paginate(ctx, examAnswers, and(...conditions), args);
  }

  @Mutation(() => ExamAnswerPayload, {
    description: "Starts an attempt at an activity (no more than the activity's maxAttempts per student). A student credential makes its own.",
  })
  createExamAnswer(@Arg('input', () => CreateExamAnswerInput) input: CreateExamAnswerInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    const own = ownStudentId(ctx);
    return mutate(ctx, 'examAnswer', async (tx) => {
      const checks = new Checks().required('activityId', input.activityId);
      if (own === null) checks.required('studentId', input.studentId);
      else checks.required('enrollmentId', input.enrollmentId);
      if (own !== null && input.studentId !== undefined && input.studentId !== null && idOrNull(input.studentId) !== own)
        checks.add('studentId', 'forbidden', 'a student credential makes attempts for itself only');
      checkGrade(ctx, checks, input.grade);
      // The activity is locked so that concurrent attempts cannot pass maxAttempts together.
      const activityId = idOrNull(input.activityId);
      const [activity] = activityId
        ? await tx
            .select()
            .from(activities)
            .where(and(eq(activities.id, activityId), eq(activities.schoolId, schoolId)))
            .for('update')
        : [];
      if (input.activityId && !activity) checks.add('activityId', 'not_found', 'must exist in this school');
      const studentId = await existingId(tx, checks, 'studentId', users, own ?? input.studentId, schoolId, eq(users.type, 'Student'));
      const enrollment = await checkEnrollment(tx, checks, schoolId, input.enrollmentId, studentId);
      if (own !== null) await checkStudentAccess(tx, ctx, checks, enrollment, activity);
      checks.throwIfAny();
      if (activity.maxAttempts !== null) {
        const [made] = await tx
          .select({ n: count() })
          .from(examAnswers)
          .where(and(eq(examAnswers.activityId, activity.id), eq(examAnswers.userId, studentId!)));
        if (Number(made.n) >= activity.maxAttempts)
          checks.add(null, 'too_many_attempts', `the student has made all ${activity.maxAttempts} attempts this activity allows`).throwIfAny();
      }
      const [row] = await tx
        .insert(examAnswers)
        .values({
          schoolId,
          activityId: activity.id,
          userId: studentId!,
          enrollmentId: enrollment?.id ?? null,
          grade: input.grade ?? null,
          submittedAt: input.submittedAt ?? null,
        })
        .returning();
      return row;
    });
  }

  @Mutation(() => ExamAnswerPayload, { description: 'Grades (staff) or hands in (submittedAt) an attempt.' })
  updateExamAnswer(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateExamAnswerInput) input: UpdateExamAnswerInput, @Ctx() ctx: Context) {
    writeSchool(ctx);
    const answerId = parseId(id, 'ExamAnswer');
    return mutate(ctx, 'examAnswer', async (tx) => {
      const [current] = await tx
        .select()
        .from(examAnswers)
        .where(and(eq(examAnswers.id, answerId), visibleExamAnswers(ctx)))
        .for('update');
      if (!current) throw notFound('ExamAnswer');
      const checks = new Checks();
      checkGrade(ctx, checks, input.grade);
      const enrollment = await checkEnrollment(tx, checks, current.schoolId, input.enrollmentId, current.userId);
      checks.throwIfAny();
      const values: Partial<typeof examAnswers.$inferInsert> = {};
      if (input.enrollmentId !== undefined) values.enrollmentId = enrollment?.id ?? null;
      if (input.grade !== undefined) values.grade = input.grade;
      if (input.submittedAt !== undefined) values.submittedAt = input.submittedAt;
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(examAnswers).set(values).where(eq(examAnswers.id, answerId)).returning();
      return row;
    });
  }

  @Mutation(() => ExamAnswerPayload, { description: 'Deletes an attempt with its question answers.' })
  deleteExamAnswer(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    const answerId = parseId(id, 'ExamAnswer');
    return mutate(ctx, 'examAnswer', async (tx) => {
      const [row] = await tx
        .delete(examAnswers)
        .where(and(eq(examAnswers.id, answerId), eq(examAnswers.schoolId, schoolId)))
        .returning();
      if (!row) throw notFound('ExamAnswer');
      return row;
    });
  }

  @FieldResolver(() => ID, { description: 'The student making the attempt.' })
  studentId(@Root() answer: ExamAnswerRow): number {
    return answer.userId;
  }

  @FieldResolver(() => Activity)
  activity(@Root() answer: ExamAnswerRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(activityById).load(answer.activityId);
  }

  @FieldResolver(() => [ExamQuestionAnswer], { description: 'The answers of the attempt, in the order given.' })
  questionAnswers(@Root() answer: ExamAnswerRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(answersOfExamAnswer).load(answer.id);
  }
}
