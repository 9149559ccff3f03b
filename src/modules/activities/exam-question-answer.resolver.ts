import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import {
  examAnswerById,
  examQuestionById,
  examQuestionAnswerById,
  examQuestionOptionById,
  visibleExamAnswers,
  visibleQuestionAnswers,
} from './activity.loaders.js';
import {
  examAnswers,
  examQuestionAnswers,
  type ExamQuestionAnswerRow,
  examQuestionOptions,
  type ExamQuestionRow,
  examQuestions,
} from './activity.table.js';
import { ExamQuestion, ExamQuestionOption } from './activity.type.js';
import { ExamAnswer, ExamQuestionAnswer, ExamQuestionAnswerConnection, ExamQuestionAnswerInput } from './exam-answer.type.js';

export const ExamQuestionAnswerPayload = Payload(ExamQuestionAnswer, 'examQuestionAnswer');

/**
 * Checks an answer as it will be: its attempt (an ExamAnswer of the school at the question's
 * activity; a student credential's own) and its option (one of the question's). `correct` is
 * computed, never given: the chosen option's correctness for a multiple-choice question, else null.
 */
async function checkAnswer(tx: Queryable, ctx: Context, question: ExamQuestionRow, input: ExamQuestionAnswerInput, current?: ExamQuestionAnswerRow) {
  const checks = new Checks();
  if (current) checks.notCleared('examAnswerId', input.examAnswerId);
  else checks.required('examAnswerId', input.examAnswerId);
  const values: Partial<typeof examQuestionAnswers.$inferInsert> = {};
  if (input.examAnswerId !== undefined && input.examAnswerId !== null) {
    const id = idOrNull(input.examAnswerId);
    const [attempt] = id
      ? await tx
          .select({ id: examAnswers.id, activityId: examAnswers.activityId })
          .from(examAnswers)
          .where(and(eq(examAnswers.id, id), eq(examAnswers.schoolId, question.schoolId), visibleExamAnswers(ctx)))
      : [];
    if (!attempt) checks.add('examAnswerId', 'not_found', 'must exist in this school');
    else if (attempt.activityId !== question.activityId) checks.add('examAnswerId', 'invalid', "must be an attempt at the question's activity");
    else values.examAnswerId = attempt.id;
  }
  if (input.examQuestionOptionId !== undefined) {
    const id = idOrNull(input.examQuestionOptionId);
    const [option] = id
      ? await tx
          .select({ id: examQuestionOptions.id, correct: examQuestionOptions.correct })
          .from(examQuestionOptions)
          .where(and(eq(examQuestionOptions.id, id), eq(examQuestionOptions.examQuestionId, question.id)))
      : [];
    if (input.examQuestionOptionId !== null && !option) checks.add('examQuestionOptionId', 'not_found', 'must be an option of the question');
    values.examQuestionOptionId = option?.id ?? null;
    values.correct = question.type === 'multiple_choice' && option ? option.correct : null;
  }
  if (input.text !== undefined) values.text = input.text;
  checks.throwIfAny();
  return values;
}

@Resolver(() => ExamQuestionAnswer)
export class ExamQuestionAnswerResolver {
  @Query(() => ExamQuestionAnswer, { description: 'A student credential sees only the answers of its own attempts.' })
  examQuestionAnswer(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, examQuestionAnswerById, parseId(id, 'ExamQuestionAnswer'), 'ExamQuestionAnswer');
  }

  @Query(() => ExamQuestionAnswerConnection, { description: 'The answers to a question, optionally of one attempt; a student sees its own.' })
  async examQuestionAnswers(
    @Arg('examQuestionId', () => ID) examQuestionId: string,
    @Arg('examAnswerId', () => ID, { nullable: true }) examAnswerId: string | null | undefined,
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Ctx() ctx: Context,
  ) {
    const question = await findOr404(ctx, examQuestionById, parseId(examQuestionId, 'ExamQuestion'), 'ExamQuestion');
    const ofAttempt = examAnswerId === undefined || examAnswerId === null ? undefined : eq(examQuestionAnswers.examAnswerId, parseId(examAnswerId, 'ExamAnswer'));
    return paginate(ctx, examQuestionAnswers, and(eq(examQuestionAnswers.examQuestionId, question.id), visibleQuestionAnswers(ctx), ofAttempt), args);
  }

  @Mutation(() => ExamQuestionAnswerPayload, { description: 'Answers a question within an attempt (a student credential: within its own).' })
  async createExamQuestionAnswer(
    @Arg('examQuestionId', () => ID) examQuestionId: string,
    @Arg('input', () => ExamQuestionAnswerInput) input: ExamQuestionAnswerInput,
    @Ctx() ctx: Context,
  ) {
    writeSchool(ctx);
    const question = await findOr404(ctx, examQuestionById, parseId(examQuestionId, 'ExamQuestion'), 'ExamQuestion');
    return mutate(ctx, 'examQuestionAnswer', async (tx) => {
      const values = await checkAnswer(tx, ctx, question, input);
      const [row] = await tx
        .insert(examQuestionAnswers)
        .values({ ...values, examAnswerId: values.examAnswerId!, schoolId: question.schoolId, examQuestionId: question.id })
        .returning();
      return row;
    });
  }

  @Mutation(() => ExamQuestionAnswerPayload, { description: 'Changes an answer; correct is recomputed when the option changes.' })
  updateExamQuestionAnswer(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ExamQuestionAnswerInput) input: ExamQuestionAnswerInput,
    @Ctx() ctx: Context,
  ) {
    writeSchool(ctx);
    const answerId = parseId(id, 'ExamQuestionAnswer');
    return mutate(ctx, 'examQuestionAnswer', async (tx) => {
      const current = await lockAnswer(tx, ctx, answerId);
      // Inside the transaction every read goes through tx (PGlite has one connection).
      const [question] = await tx.select().from(examQuestions).where(eq(examQuestions.id, current.examQuestionId));
      const values = await checkAnswer(tx, ctx, question, input, current);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(examQuestionAnswers).set(values).where(eq(examQuestionAnswers.id, answerId)).returning();
      return row;
    });
  }

  @Mutation(() => ExamQuestionAnswerPayload, { description: 'Deletes an answer (a student credential: one of its own attempts).' })
  deleteExamQuestionAnswer(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    writeSchool(ctx);
    const answerId = parseId(id, 'ExamQuestionAnswer');
    return mutate(ctx, 'examQuestionAnswer', async (tx) => {
      const current = await lockAnswer(tx, ctx, answerId);
      await tx.delete(examQuestionAnswers).where(eq(examQuestionAnswers.id, current.id));
      return current;
    });
  }

  @FieldResolver(() => ExamQuestion)
  examQuestion(@Root() answer: ExamQuestionAnswerRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(examQuestionById).load(answer.examQuestionId);
  }

  @FieldResolver(() => ExamAnswer)
  examAnswer(@Root() answer: ExamQuestionAnswerRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(examAnswerById).load(answer.examAnswerId);
  }

  @FieldResolver(() => ExamQuestionOption, { nullable: true, description: 'The chosen option.' })
  option(@Root() answer: ExamQuestionAnswerRow, @Ctx() ctx: Context) {
    return answer.examQuestionOptionId === null ? null : ctx.loaders.get(examQuestionOptionById).load(answer.examQuestionOptionId);
  }
}

/** The answer, locked; for a student credential only one of its own attempts (another's is a 404). */
async function lockAnswer(tx: Queryable, ctx: Context, id: number): Promise<ExamQuestionAnswerRow> {
  const [row] = await tx
    .select()
    .from(examQuestionAnswers)
    .where(and(eq(examQuestionAnswers.id, id), eq(examQuestionAnswers.schoolId, writeSchool(ctx)), visibleQuestionAnswers(ctx)))
    .for('update');
  if (!row) throw notFound('ExamQuestionAnswer');
  return row;
}

