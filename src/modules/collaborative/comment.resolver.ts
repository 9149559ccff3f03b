import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { emitEvent } from '../events/events.js';
import { authorOf, schoolUserById } from '../forums/forum-author.js';
import { assertMayEdit } from '../forums/forum.rules.js';
import { CollaborativeCommentInput, CollaborativeCommentsArgs } from './collaborative.input.js';
import { commentById, discussionById } from './collaborative.loaders.js';
import { collaborativeComments, type CollaborativeCommentRow } from './collaborative.table.js';
import { CollaborativeComment, CollaborativeCommentConnection, CollaborativeDiscussion, CollaborativeUser } from './collaborative.type.js';

export const CollaborativeCommentPayload = Payload(CollaborativeComment, 'collaborativeComment');

const given = (v: string | null | undefined) => v !== undefined && v !== null;

@Resolver(() => CollaborativeComment)
export class CollaborativeCommentResolver {
  @Query(() => CollaborativeComment)
  collaborativeComment(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, commentById, parseId(id, 'CollaborativeComment'), 'CollaborativeComment');
  }

  @Query(() => CollaborativeCommentConnection, { description: "The school's comments, narrowed by discussion and author." })
  async collaborativeComments(@Args(() => CollaborativeCommentsArgs) args: CollaborativeCommentsArgs, @Ctx() ctx: Context) {
    const discussion = given(args.collaborativeDiscussionId)
      ? await findOr404(ctx, discussionById, parseId(args.collaborativeDiscussionId!, 'CollaborativeDiscussion'), 'CollaborativeDiscussion')
      : null;
    const user = given(args.userId) ? await findOr404(ctx, schoolUserById, parseId(args.userId!, 'User'), 'User') : null;
    const where = and(
      inSchool(ctx, collaborativeComments.schoolId),
      discussion ? eq(collaborativeComments.collaborativeDiscussionId, discussion.id) : undefined,
      user ? eq(collaborativeComments.userId, user.id) : undefined,
    );
    return paginate(ctx, collaborativeComments, where, args);
  }

  @Mutation(() => CollaborativeCommentPayload, { description: 'Comments in a discussion; emits collaborative_comment.created.' })
  async createCollaborativeComment(
    @Arg('collaborativeDiscussionId', () => ID) collaborativeDiscussionId: string,
    @Arg('input', () => CollaborativeCommentInput) input: CollaborativeCommentInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const discussion = await findOr404(ctx, discussionById, parseId(collaborativeDiscussionId, 'CollaborativeDiscussion'), 'CollaborativeDiscussion');
    return mutate(ctx, 'collaborativeComment', async (tx) => {
      const checks = new Checks().required('text', input.text).required('userId', input.userId);
      const userId = given(input.userId) ? await authorOf(tx, ctx, checks, input.userId, schoolId) : null;
      checks.throwIfAny();
      const [row] = await tx
        .insert(collaborativeComments)
        .values({ schoolId, collaborativeDiscussionId: discussion.id, userId: userId!, text: input.text! })
        .returning();
      await emitEvent(tx, {
        schoolId,
        name: 'collaborative_comment.created',
        subjectType: 'CollaborativeComment',
        subjectId: row.id,
        payload: { id: row.id, collaborative_discussion_id: row.collaborativeDiscussionId, user_id: row.userId },
      });
      return row;
    });
  }

  @Mutation(() => CollaborativeCommentPayload, { description: 'Updates a comment (staff, or its author).' })
  updateCollaborativeComment(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CollaborativeCommentInput) input: CollaborativeCommentInput,
    @Ctx() ctx: Context,
  ) {
    const commentId = parseId(id, 'CollaborativeComment');
    return mutate(ctx, 'collaborativeComment', async (tx) => {
      const current = await lockOwned(tx, ctx, collaborativeComments, commentId, 'CollaborativeComment');
      assertMayEdit(ctx, current.userId);
      const checks = new Checks().notCleared('text', input.text).notCleared('userId', input.userId);
      const userId = given(input.userId) ? await authorOf(tx, ctx, checks, input.userId, current.schoolId) : current.userId;
      checks.throwIfAny();
      const changes: Partial<CollaborativeCommentRow> = {};
      if (input.text !== undefined) changes.text = input.text!;
      if (userId !== current.userId) changes.userId = userId!;
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(collaborativeComments).set(changes).where(eq(collaborativeComments.id, commentId)).returning();
      return row;
    });
  }

  @Mutation(() => CollaborativeCommentPayload, { description: 'Deletes a comment (staff, or its author).' })
  deleteCollaborativeComment(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const commentId = parseId(id, 'CollaborativeComment');
    return mutate(ctx, 'collaborativeComment', async (tx) => {
      const current = await lockOwned(tx, ctx, collaborativeComments, commentId, 'CollaborativeComment');
      assertMayEdit(ctx, current.userId);
      await tx.delete(collaborativeComments).where(and(eq(collaborativeComments.id, commentId), eq(collaborativeComments.schoolId, current.schoolId)));
      return current;
    });
  }

  @FieldResolver(() => CollaborativeDiscussion)
  discussion(@Root() comment: CollaborativeCommentRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(discussionById).load(comment.collaborativeDiscussionId);
  }

  @FieldResolver(() => CollaborativeUser, { nullable: true, description: 'The author: a Student, Collaborator or Admin, every type through one batched loader.' })
  user(@Root() comment: CollaborativeCommentRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(schoolUserById).load(comment.userId);
  }
}
