import { z } from 'zod';
import { changed, event } from '../events/catalog.js';

/** The events of school products (the catalog: events/catalog.ts). */
export const schoolProductEventCatalog = {
  'school_product.created': event({
    version: 1,
    subject: 'SchoolProduct',
    emittedBy: ['createSchoolProduct'],
    description: 'A school product was created.',
    payload: z.object({ title: z.string(), published: z.boolean() }),
  }),
  'school_product.updated': event({
    version: 1,
    subject: 'SchoolProduct',
    emittedBy: ['updateSchoolProduct'],
    description: 'A school product was changed (its columns or its linked lists).',
    payload: z.object({ title: z.string(), published: z.boolean(), changed }),
  }),
};

type SchoolProductEventCatalog = typeof schoolProductEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends SchoolProductEventCatalog {}
}
