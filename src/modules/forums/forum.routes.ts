import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const section = '/forum_sections/:id';
const question = '/forum_questions/:id';
const ofForum = { args: { forumId: pathParam('forum_id') } };
const answeredByAdmin = param('answered_by_admin');
/** The move action: `PUT /forum_questions/:id/move`, and `PUT /forum_questions/:id?action=move` as the spec lists it. */
const move = (path: string, when?: Record<string, string>): Route => ({
  method: ['PUT', 'PATCH'],
  path,
  field: 'moveForumQuestion',
  reply: 'update',
  location: question,
  ...(when ? { when } : {}),
  args: { id: pathParam(), input: resource('forum_question') },
});

export const forumRoutes: Route[] = [
  ...rows.resource('/forums/:forum_id/forum_sections', section, 'forumSection', 'forumSections', ofForum),

  rows.list('/forum_sections/:forum_section_id/forum_questions', 'forumQuestions', {
    args: { forumSectionId: pathParam('forum_section_id'), answeredByAdmin },
  }),
  rows.list('/users/:user_id/forum_questions', 'forumQuestions', { args: { userId: pathParam('user_id'), answeredByAdmin } }),
  rows.list('/forum_questions', 'forumQuestions', { args: { answeredByAdmin } }),
  rows.create('/forum_sections/:forum_section_id/forum_questions', 'createForumQuestion', 'forum_question', question, {
    args: { forumSectionId: pathParam('forum_section_id') },
  }),
  rows.show(question, 'forumQuestion'),
  move(question, { action: 'move' }),
  rows.update(question, 'updateForumQuestion', 'forum_question', question),
  move('/forum_questions/:id/move'),
  rows.destroy(question, 'deleteForumQuestion'),

  // REST twins of the GraphQL-only forums and answers; a question's answers under it.
  ...rows.resource('/forums', '/forums/:id', 'forum', 'forums'),
  ...rows.resource('/forum_questions/:forum_question_id/answers', '/forum_answers/:id', 'forumAnswer', 'forumAnswers', {
    args: { forumQuestionId: pathParam('forum_question_id') },
  }),
];
