import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { emitEvent } from '../events/events.js';
import { postColumns, schoolUserById } from '../forums/forum-author.js';
import { assertMayEdit } from '../forums/forum.rules.js';
import { CollaborativeCommentInput, CollaborativeCommentsArgs } from './collaborative.input.js';
import { commentById, discussionById } from './collaborative.loaders.js';
import { collaborativeComments, type CollaborativeCommentRow } from './collaborative.table.js';
import { CollaborativeComment, CollaborativeDiscussion, CollaborativeUser } from './collaborative.type.js';

const given = (v: string | null | undefined) => v !== undefined && v !== null;

/** The callback of a new comment: its event. */
function commentCreated(tx: Queryable, comment: CollaborativeCommentRow) {
  return emitEvent(tx, {
    schoolId: comment.schoolId,
    name: 'collaborative_comment.created',
    subjectType: 'CollaborativeComment',
    subjectId: comment.id,
    payload: { id: comment.id, collaborative_discussion_id: comment.collaborativeDiscussionId, user_id: comment.userId },
  });
}

const CollaborativeCommentBase = resourceResolver({
  type: CollaborativeComment,
  table: collaborativeComments,
  byId: commentById,
  parent: { arg: 'collaborativeDiscussionId', type: 'CollaborativeDiscussion', byId: discussionById, column: 'collaborativeDiscussionId' },
  // A comment names its author: userId is required, so never null.
  columns: async (tx, input: CollaborativeCommentInput, scope) => (await postColumns(tx, input, scope, true)) as { text?: string; userId?: number },
  mayChange: (ctx, comment) => assertMayEdit(ctx, comment.userId),
  written: (tx, comment, { op }) => (op === 'create' ? commentCreated(tx, comment) : Promise.resolve()),
  listArgs: CollaborativeCommentsArgs,
  listWhere: async (ctx, args: CollaborativeCommentsArgs) => {
    const discussion = given(args.collaborativeDiscussionId)
      ? await findOr404(ctx, discussionById, parseId(args.collaborativeDiscussionId!, 'CollaborativeDiscussion'), 'CollaborativeDiscussion')
      : null;
    const user = given(args.userId) ? await findOr404(ctx, schoolUserById, parseId(args.userId!, 'User'), 'User') : null;
    return and(
      discussion ? eq(collaborativeComments.collaborativeDiscussionId, discussion.id) : undefined,
      user ? eq(collaborativeComments.userId, user.id) : undefined,
    );
  },
  descriptions: {
    list: "The school's comments, narrowed by discussion and author.",
    create: 'Comments in a discussion; emits collaborative_comment.created.',
    update: 'Updates a comment (staff, or its author).',
    delete: 'Deletes a comment (staff, or its author).',
  },
});
export const CollaborativeCommentPayload = CollaborativeCommentBase.Payload;

@Resolver(() => CollaborativeComment)
export class CollaborativeCommentResolver extends CollaborativeCommentBase {
  @FieldResolver(() => CollaborativeDiscussion)
  discussion(@Root() comment: CollaborativeCommentRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(discussionById).load(comment.collaborativeDiscussionId);
  }

  @FieldResolver(() => CollaborativeUser, { nullable: true, description: 'The author: a Student, Collaborator or Admin, every type through one batched loader.' })
  user(@Root() comment: CollaborativeCommentRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(schoolUserById).load(comment.userId);
  }
}
