import 'reflect-metadata';
import { and, eq, inArray } from 'drizzle-orm';
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { Checks } from '../../graphql/validation.js';
import { emitEvent } from '../events/events.js';
import { users } from '../users/user.table.js';
import { authorOf, ForumAuthor, schoolUserById, STAFF_USER_TYPES } from './forum-author.js';
import { ForumAnswerInput } from './forum.input.js';
import { answerById, questionById } from './forum.loaders.js';
import { assertMayEdit } from './forum.rules.js';
import { forumAnswers, type ForumAnswerRow, forumQuestions } from './forum.table.js';
import { ForumAnswer, ForumQuestion } from './forum.type.js';

export const ForumAnswerPayload = Payload(ForumAnswer, 'forumAnswer');

@Resolver(() => ForumAnswer)
export class ForumAnswerResolver {
  @Query(() => ForumAnswer)
  forumAnswer(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, answerById, parseId(id, 'ForumAnswer'), 'ForumAnswer');
  }

  @Mutation(() => ForumAnswerPayload, {
    description: "Answers a question. The author is the credential's user unless a staff credential names one; emits forum_answer.created.",
  })
  async createForumAnswer(
    @Arg('forumQuestionId', () => ID) forumQuestionId: string,
    @Arg('input', () => ForumAnswerInput) input: ForumAnswerInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const question = await findOr404(ctx, questionById, parseId(forumQuestionId, 'ForumQuestion'), 'ForumQuestion');
    return mutate(ctx, 'forumAnswer', async (tx) => {
      const checks = new Checks().required('text', input.text);
      const userId = await authorOf(tx, ctx, checks, input.userId, schoolId);
      checks.throwIfAny();
      // Staff answers of one question take turns (the question's lock), so exactly one is its first.
      const byStaff = userId !== null && (await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), inArray(users.type, [...STAFF_USER_TYPES])))).length > 0;
      if (byStaff) await tx.select({ id: forumQuestions.id }).from(forumQuestions).where(eq(forumQuestions.id, question.id)).for('update');
      const answeredBefore =
        byStaff &&
        (await tx
          .select({ id: forumAnswers.id })
          .from(forumAnswers)
          .innerJoin(users, eq(users.id, forumAnswers.userId))
          .where(and(eq(forumAnswers.forumQuestionId, question.id), inArray(users.type, [...STAFF_USER_TYPES])))
          .limit(1)).length > 0;
      const [row] = await tx.insert(forumAnswers).values({ schoolId, forumQuestionId: question.id, userId, text: input.text! }).returning();
      await emitEvent(tx, {
        schoolId,
        name: 'forum_answer.created',
        subjectType: 'ForumAnswer',
        subjectId: row.id,
        payload: { id: row.id, forum_question_id: row.forumQuestionId, user_id: row.userId },
      });
      if (byStaff && !answeredBefore)
        await emitEvent(tx, {
          schoolId,
          name: 'forum_question.answered',
          subjectType: 'ForumQuestion',
          subjectId: question.id,
          payload: { id: question.id, forum_answer_id: row.id, user_id: row.userId },
        });
      return row;
    });
  }

  @Mutation(() => ForumAnswerPayload, { description: 'Updates an answer (staff, or its author).' })
  updateForumAnswer(@Arg('id', () => ID) id: string, @Arg('input', () => ForumAnswerInput) input: ForumAnswerInput, @Ctx() ctx: Context) {
    const answerId = parseId(id, 'ForumAnswer');
    return mutate(ctx, 'forumAnswer', async (tx) => {
      const current = await lockOwned(tx, ctx, forumAnswers, answerId, 'ForumAnswer');
      assertMayEdit(ctx, current.userId);
      const checks = new Checks().notCleared('text', input.text);
      const userId = input.userId !== undefined && input.userId !== null ? await authorOf(tx, ctx, checks, input.userId, current.schoolId) : current.userId;
      checks.throwIfAny();
      const changes: Partial<ForumAnswerRow> = {};
      if (input.text !== undefined) changes.text = input.text!;
      if (userId !== current.userId) changes.userId = userId;
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(forumAnswers).set(changes).where(eq(forumAnswers.id, answerId)).returning();
      return row;
    });
  }

  @Mutation(() => ForumAnswerPayload, { description: 'Deletes an answer (staff, or its author).' })
  deleteForumAnswer(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const answerId = parseId(id, 'ForumAnswer');
    return mutate(ctx, 'forumAnswer', async (tx) => {
      const current = await lockOwned(tx, ctx, forumAnswers, answerId, 'ForumAnswer');
      assertMayEdit(ctx, current.userId);
      await tx.delete(forumAnswers).where(and(eq(forumAnswers.id, answerId), eq(forumAnswers.schoolId, current.schoolId)));
      return current;
    });
  }

  @FieldResolver(() => ForumQuestion)
  question(@Root() answer: ForumAnswerRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(questionById).load(answer.forumQuestionId);
  }

  @FieldResolver(() => ForumAuthor, { nullable: true, description: 'A Student, Collaborator or Admin: every type through one batched loader.' })
  author(@Root() answer: ForumAnswerRow, @Ctx() ctx: Context) {
    return answer.userId === null ? null : ctx.loaders.get(schoolUserById).load(answer.userId);
  }
}
