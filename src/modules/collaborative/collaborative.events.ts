import { z } from 'zod';
import { event, id } from '../events/catalog.js';

/** The events of collaborative discussions (the catalog: events/catalog.ts). */
export const collaborativeEventCatalog = {
  'collaborative_comment.created': event({
    version: 1,
    subject: 'CollaborativeComment',
    emittedBy: ['createCollaborativeComment'],
    description: 'A comment was posted to a collaborative discussion.',
    payload: z.object({ id, collaborative_discussion_id: id, user_id: id }),
  }),
};

type CollaborativeEventCatalog = typeof collaborativeEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends CollaborativeEventCatalog {}
}
