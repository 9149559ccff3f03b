import { collaborativeRoutes } from './collaborative.routes.js';
import { CollaborativeCommentResolver } from './comment.resolver.js';
import { CollaborativeDiscussionResolver } from './discussion.resolver.js';

export const collaborativeModule = {
  resolvers: [CollaborativeDiscussionResolver, CollaborativeCommentResolver],
  routes: collaborativeRoutes,
};
