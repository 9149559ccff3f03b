import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Resolver } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idFilter } from '../../graphql/filters.js';
import { idOrNull } from '../../graphql/ids.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
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
import { onlyVisible } from './exam-answer.rules.js';
import {
  ExamAnswer,
  ExamQuestionAnswer,
  ExamQuestionAnswerInput,
  ExamQuestionAnswersArgs,
} from './exam-answer.type.js';

/**
 * Checks an answer as it will be: its attempt (an ExamAnswer of the school at the question's
 * activity; a student credential's own) and its option (one of the question's). `correct` is
 * computed, never given: the chosen option's correctness for a multiple-choice question, else null.
 */
async function checkAnswer(tx: Queryable, ctx: Context, question: ExamQuestionRow, input: ExamQuestionAnswerInput, current?: ExamQuestionAnswerRow) {
  const checks = new Checks().present(!current, 'examAnswerId', input.examAnswerId);
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

async function questionOf(tx: Queryable, id: number): Promise<ExamQuestionRow> {
  const [question] = await tx.select().from(examQuestions).where(eq(examQuestions.id, id));
  return question;
}

const ExamQuestionAnswerBase = resourceResolver({
  type: ExamQuestionAnswer,
  byId: examQuestionAnswerById,
  parent: { arg: 'examQuestionId', type: 'ExamQuestion', byId: examQuestionById, column: 'examQuestionId', inList: true },
  columns: async (tx, input: ExamQuestionAnswerInput, { ctx, current, parent }) => {
    // The question: on create the parent argument's, on update the answer's (read through tx: PGlite has one connection).
    const question = current ? await questionOf(tx, current.examQuestionId) : (parent as ExamQuestionRow);
    return checkAnswer(tx, ctx, question, input, current);
  },
  mayChange: onlyVisible(examQuestionAnswers, visibleQuestionAnswers, 'ExamQuestionAnswer'),
  listArgs: ExamQuestionAnswersArgs,
  listWhere: (ctx, args: ExamQuestionAnswersArgs) =>
    and(visibleQuestionAnswers(ctx), idFilter(examQuestionAnswers.examAnswerId, args.examAnswerId, 'ExamAnswer')),
  descriptions: {
    show: 'A student credential sees only the answers of its own attempts.',
    list: 'The answers to a question, optionally of one attempt; a student sees its own.',
    create: 'Answers a question within an attempt (a student credential: within its own).',
    update: 'Changes an answer; correct is recomputed when the option changes.',
    delete: 'Deletes an answer (a student credential: one of its own attempts).',
  },
});

@Resolver(() => ExamQuestionAnswer)
@RelationFields<ExamQuestionAnswerRow>({
  examQuestion: { type: () => ExamQuestion, loader: examQuestionById, key: 'examQuestionId' },
  examAnswer: { type: () => ExamAnswer, loader: examAnswerById, key: 'examAnswerId' },
  option: { type: () => ExamQuestionOption, loader: examQuestionOptionById, key: 'examQuestionOptionId', nullable: true, description: 'The chosen option.' },
})
export class ExamQuestionAnswerResolver extends ExamQuestionAnswerBase {}
