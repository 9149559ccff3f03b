import 'reflect-metadata';
import { and, eq, not } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { authorOf, ForumAuthor, schoolUserById } from './forum-author.js';
import { CreateForumQuestionInput, ForumQuestionsArgs, MoveForumQuestionInput, UpdateForumQuestionInput } from './forum.input.js';
import { answeredByAdminOfQuestion, answeredByStaff, answersOfQuestion, questionById, sectionById } from './forum.loaders.js';
import { assertMayEdit, checkMove, questionCreated } from './forum.rules.js';
import { forumQuestions, forumSections, type ForumQuestionRow } from './forum.table.js';
import { ForumAnswer, ForumQuestion, ForumQuestionConnection, ForumSection } from './forum.type.js';

export const ForumQuestionPayload = Payload(ForumQuestion, 'forumQuestion');

const given = (v: string | null | undefined) => v !== undefined && v !== null;

/** Moves `question` to the section named by `target` (same forum only) and returns the changed row. */
async function moveTo(tx: Queryable, question: ForumQuestionRow, target: string, field: string, checks: Checks) {
  const sectionId = await checkMove(tx, checks, field, question, target);
  checks.throwIfAny();
  if (sectionId === question.forumSectionId) return question;
  const [row] = await tx.update(forumQuestions).set({ forumSectionId: sectionId! }).where(eq(forumQuestions.id, question.id)).returning();
  return row;
}

@Resolver(() => ForumQuestion)
export class ForumQuestionResolver {
  @Query(() => ForumQuestion)
  forumQuestion(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, questionById, parseId(id, 'ForumQuestion'), 'ForumQuestion');
  }

  @Query(() => ForumQuestionConnection, { description: "The school's questions, narrowed by section, author and whether staff answered." })
  async forumQuestions(@Args(() => ForumQuestionsArgs) args: ForumQuestionsArgs, @Ctx() ctx: Context) {
    const section = given(args.forumSectionId) ? await findOr404(ctx, sectionById, parseId(args.forumSectionId!, 'ForumSection'), 'ForumSection') : null;
    const user = given(args.userId) ? await findOr404(ctx, schoolUserById, parseId(args.userId!, 'User'), 'User') : null;
    const answered = args.answeredByAdmin === true ? answeredByStaff : args.answeredByAdmin === false ? not(answeredByStaff) : undefined;
    const where = and(
      inSchool(ctx, forumQuestions.schoolId),
      section ? eq(forumQuestions.forumSectionId, section.id) : undefined,
      user ? eq(forumQuestions.userId, user.id) : undefined,
      answered,
    );
    return paginate(ctx, forumQuestions, where, args);
  }

  @Mutation(() => ForumQuestionPayload, {
    description:
      'Asks a question in a section (the argument, else input.forumSectionId / forumQuestionId). Without createdAt, the ' +
      "school's collaborators and admins are notified and forum_question.created is emitted; with it, neither happens.",
  })
  async createForumQuestion(
    @Arg('forumSectionId', () => ID, { nullable: true }) forumSectionId: string | null | undefined,
    @Arg('input', () => CreateForumQuestionInput) input: CreateForumQuestionInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    // A section named by the path (argument) that is not the school's is a 404; one named in the body is a 422.
    const section = given(forumSectionId) ? await findOr404(ctx, sectionById, parseId(forumSectionId!, 'ForumSection'), 'ForumSection') : null;
    return mutate(ctx, 'forumQuestion', async (tx) => {
      const checks = new Checks().required('title', input.title).required('description', input.description);
      let sectionId = section?.id ?? null;
      if (!section) {
        const field = given(input.forumSectionId) ? 'forumSectionId' : 'forumQuestionId';
        const ref = input.forumSectionId ?? input.forumQuestionId;
        if (!given(ref)) checks.add('forumSectionId', 'blank');
        else sectionId = await existingId(tx, checks, field, forumSections, ref, schoolId);
      }
      const userId = await authorOf(tx, ctx, checks, input.userId, schoolId);
      checks.throwIfAny();
      const at = input.createdAt ?? undefined;
      const [row] = await tx
        .insert(forumQuestions)
        .values({
          schoolId,
          forumSectionId: sectionId!,
          userId,
          title: input.title!.trim(),
          description: input.description!,
          fixed: input.fixed ?? false,
          ...(at ? { createdAt: at, updatedAt: at } : {}),
        })
        .returning();
      // created_at given: an import; its callbacks (notifications, event) are skipped.
      if (!at) await questionCreated(tx, row);
      return row;
    });
  }

  @Mutation(() => ForumQuestionPayload, { description: 'Updates a question (staff, or its author); a changed section moves it within its forum.' })
  updateForumQuestion(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateForumQuestionInput) input: UpdateForumQuestionInput, @Ctx() ctx: Context) {
    const questionId = parseId(id, 'ForumQuestion');
    return mutate(ctx, 'forumQuestion', async (tx) => {
      const current = await lockOwned(tx, ctx, forumQuestions, questionId, 'ForumQuestion');
      assertMayEdit(ctx, current.userId);
      const checks = new Checks()
        .notCleared('title', input.title)
        .notCleared('description', input.description)
        .notCleared('forumSectionId', input.forumSectionId);
      const field = given(input.forumSectionId) ? 'forumSectionId' : 'forumQuestionId';
      const target = input.forumSectionId ?? input.forumQuestionId;
      const sectionId = given(target) ? await checkMove(tx, checks, field, current, target!) : current.forumSectionId;
      const userId = given(input.userId) ? await authorOf(tx, ctx, checks, input.userId, current.schoolId) : current.userId;
      checks.throwIfAny();
      const changes: Partial<ForumQuestionRow> = {};
      if (input.title !== undefined) changes.title = input.title!.trim();
      if (input.description !== undefined) changes.description = input.description!;
      if (input.fixed !== undefined && input.fixed !== null) changes.fixed = input.fixed;
      if (sectionId !== current.forumSectionId) changes.forumSectionId = sectionId!;
      if (userId !== current.userId) changes.userId = userId;
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(forumQuestions).set(changes).where(eq(forumQuestions.id, questionId)).returning();
      return row;
    });
  }

  @Mutation(() => ForumQuestionPayload, {
    description: 'Moves a question to another section of the same forum (forumSectionId, else input.forumSectionId / forumQuestionId).',
  })
  moveForumQuestion(
    @Arg('id', () => ID) id: string,
    @Arg('forumSectionId', () => ID, { nullable: true }) forumSectionId: string | null | undefined,
    @Arg('input', () => MoveForumQuestionInput, { nullable: true }) input: MoveForumQuestionInput | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const questionId = parseId(id, 'ForumQuestion');
    return mutate(ctx, 'forumQuestion', async (tx) => {
      const current = await lockOwned(tx, ctx, forumQuestions, questionId, 'ForumQuestion');
      assertMayEdit(ctx, current.userId);
      const checks = new Checks();
      const field = given(forumSectionId) || given(input?.forumSectionId) || !given(input?.forumQuestionId) ? 'forumSectionId' : 'forumQuestionId';
      const target = forumSectionId ?? input?.forumSectionId ?? input?.forumQuestionId;
      if (!given(target)) checks.add('forumSectionId', 'blank').throwIfAny();
      return moveTo(tx, current, target!, field, checks);
    });
  }

  @Mutation(() => ForumQuestionPayload, { description: 'Deletes a question (staff, or its author) with its answers.' })
  deleteForumQuestion(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const questionId = parseId(id, 'ForumQuestion');
    return mutate(ctx, 'forumQuestion', async (tx) => {
      const current = await lockOwned(tx, ctx, forumQuestions, questionId, 'ForumQuestion');
      assertMayEdit(ctx, current.userId);
      await tx.delete(forumQuestions).where(and(eq(forumQuestions.id, questionId), eq(forumQuestions.schoolId, current.schoolId)));
      return current;
    });
  }

  @FieldResolver(() => ForumSection)
  section(@Root() question: ForumQuestionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(sectionById).load(question.forumSectionId);
  }

  @FieldResolver(() => ForumAuthor, { nullable: true })
  author(@Root() question: ForumQuestionRow, @Ctx() ctx: Context) {
    return question.userId === null ? null : ctx.loaders.get(schoolUserById).load(question.userId);
  }

  @FieldResolver(() => [ForumAnswer], { description: 'The answers, oldest first.' })
  answers(@Root() question: ForumQuestionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(answersOfQuestion).load(question.id);
  }

  @FieldResolver(() => Boolean, { description: 'A collaborator or an admin of the school answered (student answers do not count).' })
  answeredByAdmin(@Root() question: ForumQuestionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(answeredByAdminOfQuestion).load(question.id);
  }
}
