import 'reflect-metadata';
import { and, count, eq } from 'drizzle-orm';
import { FieldResolver, ID, Resolver, Root } from 'type-graphql';
import { ownStudentId } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idFilter } from '../../graphql/filters.js';
import { idOrNull } from '../../graphql/ids.js';
import { existingId } from '../../graphql/references.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { enrollmentScope, isActiveEnrollment, lessonCondition } from '../../content/scope.js';
import { lessons } from '../courses/course.table.js';
import { enrollments, type EnrollmentRow } from '../enrollments/enrollment.table.js';
import { users } from '../users/user.table.js';
import { activityById, answersOfExamAnswer, examAnswerById, visibleExamAnswers } from './activity.loaders.js';
import { activities, type ActivityRow, examAnswers, type ExamAnswerRow } from './activity.table.js';
import { Activity } from './activity.type.js';
import { onlyVisible } from './exam-answer.rules.js';
import {
  CreateExamAnswerInput,
  ExamAnswer,
  ExamAnswersArgs,
  ExamQuestionAnswer,
  UpdateExamAnswerInput,
} from './exam-answer.type.js';

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

/** The columns of a new attempt: its activity (locked, so concurrent attempts cannot pass maxAttempts together) and student. */
async function attemptColumns(tx: Queryable, ctx: Context, schoolId: number, input: CreateExamAnswerInput) {
  const own = ownStudentId(ctx);
  const checks = new Checks().required('activityId', input.activityId);
  if (own === null) checks.required('studentId', input.studentId);
  else checks.required('enrollmentId', input.enrollmentId);
  if (own !== null && input.studentId !== undefined && input.studentId !== null && idOrNull(input.studentId) !== own)
    checks.add('studentId', 'forbidden', 'a student credential makes attempts for itself only');
  checkGrade(ctx, checks, input.grade);
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
  return {
    activityId: activity.id,
    userId: studentId!,
    enrollmentId: enrollment?.id ?? null,
    grade: input.grade ?? null,
    submittedAt: input.submittedAt ?? null,
  };
}

/** The columns an update writes: the enrollment, the grade (staff) and the hand-in time. */
async function gradingColumns(tx: Queryable, ctx: Context, input: UpdateExamAnswerInput, current: ExamAnswerRow) {
  const checks = new Checks();
  checkGrade(ctx, checks, input.grade);
  const enrollment = await checkEnrollment(tx, checks, current.schoolId, input.enrollmentId, current.userId);
  checks.throwIfAny();
  const values: Partial<typeof examAnswers.$inferInsert> = {};
  if (input.enrollmentId !== undefined) values.enrollmentId = enrollment?.id ?? null;
  if (input.grade !== undefined) values.grade = input.grade;
  if (input.submittedAt !== undefined) values.submittedAt = input.submittedAt;
  return values;
}

const ExamAnswerBase = resourceResolver({
  type: ExamAnswer,
  input: CreateExamAnswerInput,
  updateInput: UpdateExamAnswerInput,
  byId: examAnswerById,
  columns: (tx, input: CreateExamAnswerInput, { ctx, schoolId, current }) =>
    current ? gradingColumns(tx, ctx, input, current) : attemptColumns(tx, ctx, schoolId, input),
  mayChange: onlyVisible(examAnswers, visibleExamAnswers, 'ExamAnswer'),
  listArgs: ExamAnswersArgs,
  listWhere: (ctx, args: ExamAnswersArgs) =>
    and(
      visibleExamAnswers(ctx),
      idFilter(examAnswers.activityId, args.activityId, 'Activity'),
      idFilter(examAnswers.userId, args.studentId, 'Student'),
      idFilter(examAnswers.enrollmentId, args.enrollmentId, 'Enrollment'),
    ),
  descriptions: {
    show: 'An attempt; a student credential sees only its own.',
    list: 'Attempts of the school, narrowed by activity, student and enrollment; a student sees its own.',
    create: "Starts an attempt at an activity (no more than the activity's maxAttempts per student). A student credential makes its own.",
    update: 'Grades (staff) or hands in (submittedAt) an attempt.',
    delete: 'Deletes an attempt with its question answers.',
  },
});

@Resolver(() => ExamAnswer)
@RelationFields<ExamAnswerRow>({
  activity: { type: () => Activity, loader: activityById, key: 'activityId' },
  questionAnswers: { type: () => [ExamQuestionAnswer], loader: answersOfExamAnswer, key: 'id', description: 'The answers of the attempt, in the order given.' },
})
export class ExamAnswerResolver extends ExamAnswerBase {
  @FieldResolver(() => ID, { description: 'The student making the attempt.' })
  studentId(@Root() answer: ExamAnswerRow): number {
    return answer.userId;
  }
}
