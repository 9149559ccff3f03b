import 'reflect-metadata';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { ForumAuthor, postColumns, schoolUserById } from './forum-author.js';
import { ForumAnswerInput } from './forum.input.js';
import { answerById, questionById } from './forum.loaders.js';
import { answerCreated, assertMayEdit, takeStaffTurn } from './forum.rules.js';
import { forumAnswers, type ForumAnswerRow } from './forum.table.js';
import { ForumAnswer, ForumQuestion } from './forum.type.js';

const ForumAnswerBase = resourceResolver({
  type: ForumAnswer,
  table: forumAnswers,
  byId: answerById,
  parent: { arg: 'forumQuestionId', type: 'ForumQuestion', byId: questionById, column: 'forumQuestionId' },
  columns: async (tx, input: ForumAnswerInput, scope) => {
    const values = await postColumns(tx, input, scope);
    if (!scope.current) await takeStaffTurn(tx, scope.parentId!, values.userId!);
    return values;
  },
  mayChange: (ctx, answer) => assertMayEdit(ctx, answer.userId),
  written: (tx, answer, { op }) => (op === 'create' ? answerCreated(tx, answer) : Promise.resolve()),
  descriptions: {
    create: "Answers a question. The author is the credential's user unless a staff credential names one; emits forum_answer.created.",
    update: 'Updates an answer (staff, or its author).',
    delete: 'Deletes an answer (staff, or its author).',
  },
  // No list of answers: a question's answers field lists them.
  omit: ['list'],
});
export const ForumAnswerPayload = ForumAnswerBase.Payload;

@Resolver(() => ForumAnswer)
export class ForumAnswerResolver extends ForumAnswerBase {
  @FieldResolver(() => ForumQuestion)
  question(@Root() answer: ForumAnswerRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(questionById).load(answer.forumQuestionId);
  }

  @FieldResolver(() => ForumAuthor, { nullable: true, description: 'A Student, Collaborator or Admin: every type through one batched loader.' })
  author(@Root() answer: ForumAnswerRow, @Ctx() ctx: Context) {
    return answer.userId === null ? null : ctx.loaders.get(schoolUserById).load(answer.userId);
  }
}
