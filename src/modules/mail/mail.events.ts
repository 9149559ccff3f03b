import { z } from 'zod';
import { event, id } from '../events/catalog.js';

/** The events of mails (the catalog: events/catalog.ts). */
export const mailEventCatalog = {
  'mail.failed': event({
    version: 1,
    subject: 'Mail',
    emittedBy: ['the mail worker'],
    description: 'A mail could not be delivered: the SMTP server refused it for good (5xx) or every retry failed.',
    payload: z.object({ userId: id, kind: z.string(), attempts: z.number().int(), responseCode: z.number().int().nullable() }),
  }),
};

type MailEventCatalog = typeof mailEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends MailEventCatalog {}
}
