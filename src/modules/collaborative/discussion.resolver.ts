import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { lessons } from '../courses/course.table.js';
import { CollaborativeDiscussionInput, CollaborativeDiscussionsArgs } from './collaborative.input.js';
import { commentsOfDiscussion, discussionById } from './collaborative.loaders.js';
import { collaborativeDiscussions, type CollaborativeDiscussionRow } from './collaborative.table.js';
import { CollaborativeCommentConnection, CollaborativeDiscussion, CollaborativeDiscussionConnection } from './collaborative.type.js';

export const CollaborativeDiscussionPayload = Payload(CollaborativeDiscussion, 'collaborativeDiscussion');

@Resolver(() => CollaborativeDiscussion)
export class CollaborativeDiscussionResolver {
  @Query(() => CollaborativeDiscussion)
  collaborativeDiscussion(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, discussionById, parseId(id, 'CollaborativeDiscussion'), 'CollaborativeDiscussion');
  }

  @Query(() => CollaborativeDiscussionConnection, { description: "The school's discussions, optionally of one lesson." })
  collaborativeDiscussions(@Args(() => CollaborativeDiscussionsArgs) args: CollaborativeDiscussionsArgs, @Ctx() ctx: Context) {
    const lessonId = args.lessonId === undefined || args.lessonId === null ? undefined : (idOrNull(args.lessonId) ?? 0);
    return paginate(
      ctx,
      collaborativeDiscussions,
      and(inSchool(ctx, collaborativeDiscussions.schoolId), lessonId === undefined ? undefined : eq(collaborativeDiscussions.lessonId, lessonId)),
      args,
    );
  }

  @Mutation(() => CollaborativeDiscussionPayload)
  createCollaborativeDiscussion(@Arg('input', () => CollaborativeDiscussionInput) input: CollaborativeDiscussionInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'collaborativeDiscussion', async (tx) => {
      const checks = new Checks().required('title', input.title);
      const lessonId = await existingId(tx, checks, 'lessonId', lessons, input.lessonId, schoolId);
      checks.throwIfAny();
      const [row] = await tx.insert(collaborativeDiscussions).values({ schoolId, title: input.title!.trim(), lessonId }).returning();
      return row;
    });
  }

  @Mutation(() => CollaborativeDiscussionPayload)
  updateCollaborativeDiscussion(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CollaborativeDiscussionInput) input: CollaborativeDiscussionInput,
    @Ctx() ctx: Context,
  ) {
    const discussionId = parseId(id, 'CollaborativeDiscussion');
    return mutate(ctx, 'collaborativeDiscussion', async (tx) => {
      const current = await lockOwned(tx, ctx, collaborativeDiscussions, discussionId, 'CollaborativeDiscussion');
      const checks = new Checks().notCleared('title', input.title);
      const lessonId = await existingId(tx, checks, 'lessonId', lessons, input.lessonId, current.schoolId);
      checks.throwIfAny();
      const changes: Partial<CollaborativeDiscussionRow> = {};
      if (input.title !== undefined) changes.title = input.title!.trim();
      if (input.lessonId !== undefined) changes.lessonId = lessonId;
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(collaborativeDiscussions).set(changes).where(eq(collaborativeDiscussions.id, discussionId)).returning();
      return row;
    });
  }

  @Mutation(() => CollaborativeDiscussionPayload, { description: 'Deletes the discussion with its comments.' })
  deleteCollaborativeDiscussion(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const discussionId = parseId(id, 'CollaborativeDiscussion');
    return mutate(ctx, 'collaborativeDiscussion', (tx) => deleteOwned(tx, ctx, collaborativeDiscussions, discussionId, 'CollaborativeDiscussion'));
  }

  @FieldResolver(() => CollaborativeCommentConnection, { description: 'The comments, oldest first.' })
  comments(@Root() discussion: CollaborativeDiscussionRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return commentsOfDiscussion(ctx, discussion.id, args);
  }
}
