import 'reflect-metadata';
import { and } from 'drizzle-orm';
import { Resolver } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import { rowMatch } from '../../graphql/filters.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { emitRowEvent } from '../events/events.js';
import { postColumns, schoolUserById } from '../forums/forum-author.js';
import { assertMayEdit } from '../forums/forum.rules.js';
import { CollaborativeCommentInput, CollaborativeCommentsArgs } from './collaborative.input.js';
import { commentById, discussionById } from './collaborative.loaders.js';
import { collaborativeComments, type CollaborativeCommentRow } from './collaborative.table.js';
import { CollaborativeComment, CollaborativeDiscussion, CollaborativeUser } from './collaborative.type.js';

/** The callback of a new comment: its event. */
function commentCreated(tx: Queryable, comment: CollaborativeCommentRow) {
  const payload = { id: comment.id, collaborative_discussion_id: comment.collaborativeDiscussionId, user_id: comment.userId };
  return emitRowEvent(tx, 'collaborative_comment.created', comment, payload);
}

const CollaborativeCommentBase = resourceResolver({
  type: CollaborativeComment,
  byId: commentById,
  parent: { arg: 'collaborativeDiscussionId', type: 'CollaborativeDiscussion', byId: discussionById, column: 'collaborativeDiscussionId' },
  // A comment names its author: userId is required, so never null.
  columns: async (tx, input: CollaborativeCommentInput, scope) => (await postColumns(tx, input, scope, true)) as { text?: string; userId?: number },
  mayChange: (ctx, comment) => assertMayEdit(ctx, comment.userId),
  written: (tx, comment, { op }) => (op === 'create' ? commentCreated(tx, comment) : Promise.resolve()),
  listArgs: CollaborativeCommentsArgs,
  listWhere: async (ctx, args: CollaborativeCommentsArgs) => {
    const discussion = await rowMatch(
      ctx,
      collaborativeComments.collaborativeDiscussionId,
      discussionById,
      args.collaborativeDiscussionId,
      'CollaborativeDiscussion',
    );
    const user = await rowMatch(ctx, collaborativeComments.userId, schoolUserById, args.userId, 'User');
    return and(discussion, user);
  },
  descriptions: {
    list: "The school's comments, narrowed by discussion and author.",
    create: 'Comments in a discussion; emits collaborative_comment.created.',
    update: 'Updates a comment (staff, or its author).',
    delete: 'Deletes a comment (staff, or its author).',
  },
});

@Resolver(() => CollaborativeComment)
@RelationFields<CollaborativeCommentRow>({
  discussion: { type: () => CollaborativeDiscussion, loader: discussionById, key: 'collaborativeDiscussionId' },
  user: { type: () => CollaborativeUser, loader: schoolUserById, key: 'userId', nullable: true, description: 'The author: a Student, Collaborator or Admin, every type through one batched loader.' },
})
export class CollaborativeCommentResolver extends CollaborativeCommentBase {}
