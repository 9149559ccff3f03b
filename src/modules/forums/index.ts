import { AUTHORS, CATALOGUE, crud, POSTS, resource } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ForumAnswerResolver } from './forum-answer.resolver.js';
import { ForumQuestionResolver } from './forum-question.resolver.js';
import { ForumSectionResolver } from './forum-section.resolver.js';
import { forumEventCatalog } from './forum.events.js';
import { ForumResolver } from './forum.resolver.js';
import { forumRoutes } from './forum.routes.js';

export const forumsModule = defineModule({
  name: 'forums',
  resolvers: [ForumResolver, ForumSectionResolver, ForumQuestionResolver, ForumAnswerResolver],
  routes: forumRoutes,
  rules: {
    operations: {
      // The school's students read them and write their own posts.
      discussions: {
        ...resource('forum', 'forums', CATALOGUE, AUTHORS),
        ...resource('forumSection', 'forumSections', CATALOGUE, AUTHORS),
        'Query.forumQuestion': CATALOGUE,
        'Query.forumQuestions': CATALOGUE,
        ...crud('ForumQuestion', POSTS),
        'Mutation.moveForumQuestion': POSTS,
        'Query.forumAnswer': CATALOGUE,
        'Query.forumAnswers': CATALOGUE,
        ...crud('ForumAnswer', POSTS),
      },
    },
  },
  errors: { name: 'Forum', nodes: ['Forum', 'ForumSection', 'ForumQuestion', 'ForumAnswer'], codes: ['forbidden'] },
  events: forumEventCatalog,
});
