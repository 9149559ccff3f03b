import { z } from 'zod';
import { event } from '../events/catalog.js';

/** The events of the school's lifecycle (the catalog: events/catalog.ts). */
export const schoolEventCatalog = {
  'school.status_changed': event({
    version: 1,
    subject: 'School',
    emittedBy: ['updateSchool'],
    description: 'A lifecycle event moved the school to another status.',
    payload: z.object({ event: z.string(), from: z.string(), to: z.string() }),
  }),
};

type SchoolEventCatalog = typeof schoolEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends SchoolEventCatalog {}
}
