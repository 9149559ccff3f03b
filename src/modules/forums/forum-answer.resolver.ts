import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { ForumAuthor, postColumns, schoolUserById } from './forum-author.js';
import { ForumAnswerInput } from './forum.input.js';
import { answerById, questionById } from './forum.loaders.js';
import { answerCreated, assertMayEdit, takeStaffTurn } from './forum.rules.js';
import type { ForumAnswerRow } from './forum.table.js';
import { ForumAnswer, ForumQuestion } from './forum.type.js';

const ForumAnswerBase = resourceResolver({
  type: ForumAnswer,
  byId: answerById,
  parent: { arg: 'forumQuestionId', type: 'ForumQuestion', byId: questionById, column: 'forumQuestionId', inList: true },
  columns: async (tx, input: ForumAnswerInput, scope) => {
    const values = await postColumns(tx, input, scope);
    if (!scope.current) await takeStaffTurn(tx, scope.parentId!, values.userId!);
    return values;
  },
  mayChange: (ctx, answer) => assertMayEdit(ctx, answer.userId),
  written: (tx, answer, { op }) => (op === 'create' ? answerCreated(tx, answer) : Promise.resolve()),
  descriptions: {
    list: "A question's answers (its answers field lists them too), for the REST twin GET /forum_questions/:forum_question_id/answers.",
    create: "Answers a question. The author is the credential's user unless a staff credential names one; emits forum_answer.created and notifies the question's author (not of its own answer).",
    update: 'Updates an answer (staff, or its author).',
    delete: 'Deletes an answer (staff, or its author).',
  },
});

@Resolver(() => ForumAnswer)
@RelationFields<ForumAnswerRow>({
  question: { type: () => ForumQuestion, loader: questionById, key: 'forumQuestionId' },
  author: { type: () => ForumAuthor, loader: schoolUserById, key: 'userId', nullable: true, description: 'A Student, Collaborator or Admin: every type through one batched loader.' },
})
export class ForumAnswerResolver extends ForumAnswerBase {}
