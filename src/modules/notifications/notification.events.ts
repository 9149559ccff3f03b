import { z } from 'zod';
import { event, id } from '../events/catalog.js';

/** The events of notifications (the catalog: events/catalog.ts). */
export const notificationEventCatalog = {
  'notification.created': event({
    version: 1,
    subject: 'Notification',
    emittedBy: ['createNotification', 'createMessage', 'createForumQuestion', 'createForumAnswer', 'gradeAttempt'],
    description: 'A person was notified.',
    payload: z.object({ userId: id, text: z.string().nullable(), url: z.string().nullable() }),
    recipient: 'userId',
  }),
};

type NotificationEventCatalog = typeof notificationEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends NotificationEventCatalog {}
}
