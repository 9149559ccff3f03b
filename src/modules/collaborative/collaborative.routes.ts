import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const comment = '/collaborative_comments/:id';
const discussion = '/collaborative_discussions/:id';

export const collaborativeRoutes: Route[] = [
  rows.list('/collaborative_discussions/:collaborative_discussion_id/collaborative_comments', 'collaborativeComments', {
    args: { collaborativeDiscussionId: pathParam('collaborative_discussion_id') },
  }),
  // The spec's create path is misspelled (discurssions); the correct spelling works too.
  rows.create('/collaborative_discurssions/:collaborative_discurssion_id/collaborative_comments', 'createCollaborativeComment', 'collaborative_comment', comment, {
    args: { collaborativeDiscussionId: pathParam('collaborative_discurssion_id') },
  }),
  rows.create('/collaborative_discussions/:collaborative_discussion_id/collaborative_comments', 'createCollaborativeComment', 'collaborative_comment', comment, {
    args: { collaborativeDiscussionId: pathParam('collaborative_discussion_id') },
  }),
  rows.show(comment, 'collaborativeComment'),
  rows.update(comment, 'updateCollaborativeComment', 'collaborative_comment', comment),
  rows.destroy(comment, 'deleteCollaborativeComment'),

  // REST twins of the GraphQL-only discussions: all of the school's (filtered by lesson), or created under their lesson.
  rows.list('/collaborative_discussions', 'collaborativeDiscussions', { args: { lessonId: param('lesson_id') } }),
  ...rows.resource('/collaborative_discussions', discussion, 'collaborativeDiscussion', 'collaborativeDiscussions').slice(1),
  rows.create('/lessons/:lesson_id/collaborative_discussions', 'createCollaborativeDiscussion', 'collaborative_discussion', discussion, {
    args: { input: resource('collaborative_discussion', { extra: ['lesson_id'] }) },
  }),
];
