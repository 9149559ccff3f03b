import { pathParam, rows, type Route } from '../../rest/route-table.js';

const comment = '/collaborative_comments/:id';

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
];
