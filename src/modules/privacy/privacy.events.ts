import { z } from 'zod';
import { event, id } from '../events/catalog.js';

/** The events of a person's own data (the catalog: events/catalog.ts). Ids only: never what was erased. */
export const privacyEventCatalog = {
  'user.erased': event({
    version: 1,
    subject: 'User',
    emittedBy: ['erasePerson'],
    description: "A person's personal data was erased (anonymised in place); the records the school keeps stay, without it.",
    payload: z.object({ userId: id, revokedTokenIds: z.array(id) }),
  }),
};

type PrivacyEventCatalog = typeof privacyEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends PrivacyEventCatalog {}
}
