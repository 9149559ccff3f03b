import { ForumAnswerResolver } from './forum-answer.resolver.js';
import { ForumQuestionResolver } from './forum-question.resolver.js';
import { ForumSectionResolver } from './forum-section.resolver.js';
import { ForumResolver } from './forum.resolver.js';
import { forumRoutes } from './forum.routes.js';

export const forumsModule = {
  resolvers: [ForumResolver, ForumSectionResolver, ForumQuestionResolver, ForumAnswerResolver],
  routes: forumRoutes,
};
