import { AUTHORS, CATALOGUE, POSTS, resource } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { collaborativeEventCatalog } from './collaborative.events.js';
import { collaborativeRoutes } from './collaborative.routes.js';
import { CollaborativeCommentResolver } from './comment.resolver.js';
import { CollaborativeDiscussionResolver } from './discussion.resolver.js';

export const collaborativeModule = defineModule({
  name: 'collaborative',
  resolvers: [CollaborativeDiscussionResolver, CollaborativeCommentResolver],
  routes: collaborativeRoutes,
  rules: {
    operations: {
      discussions: {
        ...resource('collaborativeDiscussion', 'collaborativeDiscussions', CATALOGUE, AUTHORS),
        ...resource('collaborativeComment', 'collaborativeComments', CATALOGUE, POSTS),
      },
    },
  },
  errors: { name: 'Collaborative', nodes: ['CollaborativeDiscussion', 'CollaborativeComment'], codes: ['forbidden'] },
  events: collaborativeEventCatalog,
});
