import { z } from 'zod';
import { event, id } from '../events/catalog.js';

/** The events of messages (the catalog: events/catalog.ts). */
export const messageEventCatalog = {
  'message.created': event({
    version: 1,
    subject: 'Message',
    emittedBy: ['createMessage'],
    description: 'A message was posted.',
    payload: z.object({
      channelIds: z.array(id),
      senderId: id,
      owners: z.array(z.object({ ownerId: id, ownerType: z.string() })),
      notifiedUserIds: z.array(id),
    }),
  }),
};

type MessageEventCatalog = typeof messageEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends MessageEventCatalog {}
}
