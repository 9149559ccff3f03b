import { z } from 'zod';
import { event } from '../events/catalog.js';

/** The events of media's processing (the catalog: events/catalog.ts). */
export const mediaEventCatalog = {
  'media.reprocess_requested': event({
    version: 1,
    subject: 'Media',
    emittedBy: ['reprocessMedia'],
    description: 'A media was queued for processing again.',
    payload: z.object({ type: z.string(), previousStatus: z.string() }),
  }),
  'media.processed': event({
    version: 1,
    subject: 'Media',
    emittedBy: ['reportMediaProcessing'],
    description: 'The processing of a media ended (ready or failed).',
    payload: z.object({ status: z.string() }),
  }),
};

type MediaEventCatalog = typeof mediaEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends MediaEventCatalog {}
}
