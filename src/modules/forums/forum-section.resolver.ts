import 'reflect-metadata';
import { and, eq, isNull } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { ForumSectionInput, ForumSectionsArgs } from './forum.input.js';
import { childrenOfSection, forumById, questionsOfSection, sectionById } from './forum.loaders.js';
import { checkParent, lockForum, moveSubtree, nextSequence } from './forum.rules.js';
import { forumSections, type ForumSectionRow } from './forum.table.js';
import { Forum, ForumQuestionConnection, ForumSection, ForumSectionConnection } from './forum.type.js';

export const ForumSectionPayload = Payload(ForumSection, 'forumSection');

const text = (v: string | null | undefined) => (typeof v === 'string' ? v.trim() : v);

@Resolver(() => ForumSection)
export class ForumSectionResolver {
  @Query(() => ForumSection)
  forumSection(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, sectionById, parseId(id, 'ForumSection'), 'ForumSection');
  }

  @Query(() => ForumSectionConnection, { description: 'The sections of a forum (nested ones included), in id order.' })
  async forumSections(
    @Arg('forumId', () => ID) forumId: string,
    @Args(() => ForumSectionsArgs) args: ForumSectionsArgs,
    @Ctx() ctx: Context,
  ) {
    const forum = await findOr404(ctx, forumById, parseId(forumId, 'Forum'), 'Forum');
    const where = and(eq(forumSections.forumId, forum.id), inSchool(ctx, forumSections.schoolId), args.rootsOnly ? isNull(forumSections.parentForumSectionId) : undefined);
    return paginate(ctx, forumSections, where, args);
  }

  @Mutation(() => ForumSectionPayload, { description: 'Adds a section to a forum (the argument, else input.forumId, names it).' })
  createForumSection(
    @Arg('forumId', () => ID, { nullable: true }) forumId: string | null | undefined,
    @Arg('input', () => ForumSectionInput) input: ForumSectionInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    // A forum named by the path (argument) that is not the school's is a 404; one named in the body is a 422.
    const fromPath = forumId !== null && forumId !== undefined ? parseId(forumId, 'Forum') : null;
    return mutate(ctx, 'forumSection', async (tx) => {
      const checks = new Checks().required('title', input.title).required('description', input.description).range('sequence', input.sequence, 0);
      let forum = null;
      if (fromPath !== null) {
        forum = await lockForum(tx, schoolId, fromPath);
        if (!forum) throw notFound('Forum');
      } else {
        const bodyId = idOrNull(input.forumId);
        forum = bodyId === null ? null : await lockForum(tx, schoolId, bodyId);
        if (input.forumId === undefined || input.forumId === null) checks.add('forumId', 'blank');
        else if (!forum) checks.add('forumId', 'not_found', 'must exist in this school');
      }
      const hasParent = input.parentForumSectionId !== undefined && input.parentForumSectionId !== null;
      const parentId = forum && hasParent ? await checkParent(tx, checks, schoolId, forum.id, input.parentForumSectionId!) : null;
      checks.throwIfAny();
      const sequence = input.sequence ?? (await nextSequence(tx, forum!.id, parentId));
      const [row] = await tx
        .insert(forumSections)
        .values({
          schoolId,
          forumId: forum!.id,
          parentForumSectionId: parentId,
          title: text(input.title)!,
          description: input.description!,
          sequence,
          category: input.category ?? null,
        })
        .returning();
      return row;
    });
  }

  @Mutation(() => ForumSectionPayload, {
    description: 'Updates a section; a new parent is checked in one recursive statement (no cycles), a new forum moves its subsections along.',
  })
  updateForumSection(@Arg('id', () => ID) id: string, @Arg('input', () => ForumSectionInput) input: ForumSectionInput, @Ctx() ctx: Context) {
    const sectionId = parseId(id, 'ForumSection');
    return mutate(ctx, 'forumSection', async (tx) => {
      const current = await lockOwned(tx, ctx, forumSections, sectionId, 'ForumSection');
      const checks = new Checks()
        .notCleared('title', input.title)
        .notCleared('description', input.description)
        .notCleared('sequence', input.sequence)
        .notCleared('forumId', input.forumId)
        .range('sequence', input.sequence, 0);
      let forumId = current.forumId;
      const newForumId = idOrNull(input.forumId);
      if (input.forumId !== undefined && input.forumId !== null && newForumId !== current.forumId) {
        const forum = newForumId === null ? null : await lockForum(tx, current.schoolId, newForumId);
        if (forum) forumId = forum.id;
        else checks.add('forumId', 'not_found', 'must exist in this school');
      }
      const forumChanged = forumId !== current.forumId;
      let parentId = current.parentForumSectionId;
      if (input.parentForumSectionId === null) parentId = null;
      else if (input.parentForumSectionId !== undefined) parentId = await checkParent(tx, checks, current.schoolId, forumId, input.parentForumSectionId, current.id);
      else if (forumChanged) parentId = null;
      checks.throwIfAny();

      const changes: Partial<ForumSectionRow> = {};
      if (input.title !== undefined) changes.title = text(input.title)!;
      if (input.description !== undefined) changes.description = input.description!;
      if (input.category !== undefined) changes.category = input.category;
      if (parentId !== current.parentForumSectionId) changes.parentForumSectionId = parentId;
      if (input.sequence !== undefined) changes.sequence = input.sequence!;
      else if (forumChanged || parentId !== current.parentForumSectionId) {
        if (!forumChanged) await lockForum(tx, current.schoolId, forumId);
        changes.sequence = await nextSequence(tx, forumId, parentId);
      }
      if (forumChanged) await moveSubtree(tx, current, forumId);
      if (Object.keys(changes).length === 0) return forumChanged ? { ...current, forumId } : current;
      const [row] = await tx.update(forumSections).set(changes).where(eq(forumSections.id, sectionId)).returning();
      return row;
    });
  }

  @Mutation(() => ForumSectionPayload, { description: 'Deletes the section with its subsections, questions and answers.' })
  deleteForumSection(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const sectionId = parseId(id, 'ForumSection');
    return mutate(ctx, 'forumSection', (tx) => deleteOwned(tx, ctx, forumSections, sectionId, 'ForumSection'));
  }

  @FieldResolver(() => Forum)
  forum(@Root() section: ForumSectionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(forumById).load(section.forumId);
  }

  @FieldResolver(() => ForumSection, { nullable: true })
  parent(@Root() section: ForumSectionRow, @Ctx() ctx: Context) {
    return section.parentForumSectionId === null ? null : ctx.loaders.get(sectionById).load(section.parentForumSectionId);
  }

  @FieldResolver(() => [ForumSection], { description: 'The subsections, in sequence order.' })
  children(@Root() section: ForumSectionRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(childrenOfSection).load(section.id);
  }

  @FieldResolver(() => ForumQuestionConnection, { description: 'The questions of the section, in id order.' })
  questions(@Root() section: ForumSectionRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return questionsOfSection(ctx, section.id, args);
  }
}
