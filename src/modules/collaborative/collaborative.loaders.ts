import { inSchool } from '../../auth/tenancy.js';
import { byIdLoader } from '../../graphql/loaders.js';
import { childConnectionLoaders } from '../../graphql/pagination.js';
import { collaborativeComments, collaborativeDiscussions } from './collaborative.table.js';

export const discussionById = byIdLoader('collaborativeDiscussion.byId', collaborativeDiscussions);
export const commentById = byIdLoader('collaborativeComment.byId', collaborativeComments);
export const commentsOfDiscussion = childConnectionLoaders(
  'collaborativeDiscussion.comments',
  collaborativeComments,
  collaborativeComments.collaborativeDiscussionId,
  (ctx) => inSchool(ctx, collaborativeComments.schoolId),
);
