import 'reflect-metadata';
import { and, eq, not } from 'drizzle-orm';
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { rowMatch } from '../../graphql/filters.js';
import { parseId } from '../../graphql/ids.js';
import { mutate } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { existingId } from '../../graphql/references.js';
import { RelationFields } from '../../graphql/relations.js';
import { type ColumnsScope, resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { authorOf, ForumAuthor, schoolUserById } from './forum-author.js';
import { CreateForumQuestionInput, ForumQuestionsArgs, MoveForumQuestionInput, UpdateForumQuestionInput } from './forum.input.js';
import { answeredByAdminOfQuestion, answeredByStaff, answersOfQuestion, questionById, sectionById } from './forum.loaders.js';
import { assertMayEdit, checkMove, questionCreated } from './forum.rules.js';
import { forumQuestions, forumSections, type ForumQuestionRow } from './forum.table.js';
import { ForumAnswer, ForumQuestion, ForumSection } from './forum.type.js';

const given = (v: string | null | undefined) => v !== undefined && v !== null;

/** Moves `question` to the section named by `target` (same forum only) and returns the changed row. */
async function moveTo(tx: Queryable, question: ForumQuestionRow, target: string, field: string, checks: Checks) {
  const sectionId = await checkMove(tx, checks, field, question, target);
  checks.throwIfAny();
  if (sectionId === question.forumSectionId) return question;
  const [row] = await tx.update(forumQuestions).set({ forumSectionId: sectionId! }).where(eq(forumQuestions.id, question.id)).returning();
  return row;
}

/**
 * The columns of a create (title, description and a section required; createdAt for an import) or of
 * an update. The section is the argument's (`parentId`), else the input's (a 422 when it is not the
 * school's; on update, one of the same forum).
 */
async function questionColumns(
  tx: Queryable,
  input: CreateForumQuestionInput,
  { ctx, schoolId, current, parentId }: ColumnsScope<typeof forumQuestions>,
) {
  const checks = new Checks().present(!current, 'title', input.title).present(!current, 'description', input.description);
  if (current) checks.notCleared('forumSectionId', input.forumSectionId);
  const field = given(input.forumSectionId) ? 'forumSectionId' : 'forumQuestionId';
  const target = input.forumSectionId ?? input.forumQuestionId;
  let sectionId = parentId ?? current?.forumSectionId ?? null;
  if (parentId === undefined && given(target))
    sectionId = current ? await checkMove(tx, checks, field, current, target!) : await existingId(tx, checks, field, forumSections, target, schoolId);
  else if (sectionId === null) checks.add('forumSectionId', 'blank');
  const userId = current && !given(input.userId) ? current.userId : await authorOf(tx, ctx, checks, input.userId, schoolId);
  checks.throwIfAny();
  const values: Partial<typeof forumQuestions.$inferInsert> = {};
  if (input.title !== undefined) values.title = input.title!.trim();
  if (input.description !== undefined) values.description = input.description!;
  if (input.fixed !== undefined && input.fixed !== null) values.fixed = input.fixed;
  if (sectionId !== current?.forumSectionId) values.forumSectionId = sectionId!;
  if (userId !== current?.userId) values.userId = userId;
  // An import keeps its time.
  if (!current && input.createdAt) values.createdAt = values.updatedAt = input.createdAt;
  return values;
}

const ForumQuestionBase = resourceResolver({
  type: ForumQuestion,
  input: CreateForumQuestionInput,
  updateInput: UpdateForumQuestionInput,
  byId: questionById,
  // A section named by the argument that is not the school's is a 404; one named in the input is a 422.
  parent: { arg: 'forumSectionId', type: 'ForumSection', byId: sectionById, column: 'forumSectionId', optional: true },
  columns: questionColumns,
  mayChange: (ctx, question) => assertMayEdit(ctx, question.userId),
  // createdAt given: an import; its callbacks (notifications, event) are skipped.
  written: (tx, question, { op, input }) => (op === 'create' && !input!.createdAt ? questionCreated(tx, question) : Promise.resolve()),
  listArgs: ForumQuestionsArgs,
  listWhere: async (ctx, args: ForumQuestionsArgs) => {
    const section = await rowMatch(ctx, forumQuestions.forumSectionId, sectionById, args.forumSectionId, 'ForumSection');
    const user = await rowMatch(ctx, forumQuestions.userId, schoolUserById, args.userId, 'User');
    const answered = args.answeredByAdmin === true ? answeredByStaff : args.answeredByAdmin === false ? not(answeredByStaff) : undefined;
    return and(section, user, answered);
  },
  descriptions: {
    list: "The school's questions, narrowed by section, author and whether staff answered.",
    create:
      'Asks a question in a section (the argument, else input.forumSectionId / forumQuestionId). Without createdAt, the ' +
      "school's collaborators and admins are notified and forum_question.created is emitted; with it, neither happens.",
    update: 'Updates a question (staff, or its author); a changed section moves it within its forum.',
    delete: 'Deletes a question (staff, or its author) with its answers.',
  },
});
export const ForumQuestionPayload = ForumQuestionBase.Payload;

@Resolver(() => ForumQuestion)
@RelationFields<ForumQuestionRow>({
  section: { type: () => ForumSection, loader: sectionById, key: 'forumSectionId' },
  author: { type: () => ForumAuthor, loader: schoolUserById, key: 'userId', nullable: true },
  answers: { type: () => [ForumAnswer], loader: answersOfQuestion, key: 'id', description: 'The answers, oldest first.' },
  answeredByAdmin: { type: () => Boolean, loader: answeredByAdminOfQuestion, key: 'id', description: 'A collaborator or an admin of the school answered (student answers do not count).' },
})
export class ForumQuestionResolver extends ForumQuestionBase {
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
}
