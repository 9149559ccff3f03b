import 'reflect-metadata';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idMatch } from '../../graphql/filters.js';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { lessons } from '../courses/course.table.js';
import { CollaborativeDiscussionInput, CollaborativeDiscussionsArgs } from './collaborative.input.js';
import { commentsOfDiscussion, discussionById } from './collaborative.loaders.js';
import { collaborativeDiscussions, type CollaborativeDiscussionRow } from './collaborative.table.js';
import { CollaborativeCommentConnection, CollaborativeDiscussion } from './collaborative.type.js';

/** The columns of a create (title required) or an update, with a lesson of the school. */
async function discussionColumns(tx: Queryable, input: CollaborativeDiscussionInput, schoolId: number, current?: CollaborativeDiscussionRow) {
  const checks = new Checks().present(!current, 'title', input.title);
  const lessonId = await existingId(tx, checks, 'lessonId', lessons, input.lessonId, schoolId);
  checks.throwIfAny();
  const values: Partial<CollaborativeDiscussionRow> = {};
  if (input.title !== undefined) values.title = input.title!.trim();
  if (!current || input.lessonId !== undefined) values.lessonId = lessonId;
  return values;
}

@Resolver(() => CollaborativeDiscussion)
export class CollaborativeDiscussionResolver extends resourceResolver({
  type: CollaborativeDiscussion,
  byId: discussionById,
  columns: (tx, input: CollaborativeDiscussionInput, { schoolId, current }) => discussionColumns(tx, input, schoolId, current),
  listArgs: CollaborativeDiscussionsArgs,
  listWhere: (_ctx, args: CollaborativeDiscussionsArgs) => idMatch(collaborativeDiscussions.lessonId, args.lessonId),
  descriptions: { list: "The school's discussions, optionally of one lesson.", delete: 'Deletes the discussion with its comments.' },
}) {
  @FieldResolver(() => CollaborativeCommentConnection, { description: 'The comments, oldest first.' })
  comments(@Root() discussion: CollaborativeDiscussionRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return commentsOfDiscussion(ctx, discussion.id, args);
  }
}
