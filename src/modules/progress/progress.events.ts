import { z } from 'zod';
import { event, id } from '../events/catalog.js';

// `progress` of what was released, `completion` of the whole product (added within v1: optional), when earned.
const completion = z.object({ enrollmentId: id, studentId: id, schoolProductId: id, progress: z.number().int(), completion: z.number().int().optional() });
/** An event of an enrollment's completion, recorded by the progress writes that complete it. */
const onCompletion = <const S extends string, P extends z.ZodObject>(subject: S, description: string, payload: P) =>
  event({ version: 1, subject, emittedBy: ['recordLessonProgress', 'submitActivityAttempt', 'gradeAttempt'], description, payload });

/** The events of an enrollment's completion (the catalog: events/catalog.ts). */
export const progressEventCatalog = {
  'enrollment.completed': onCompletion('Enrollment', "An enrollment reached its product's certification figure (its certificate rule: completion of the whole product, or progress of what is released).", completion),
  'certificate.issued': onCompletion(
    'Certificate',
    'A certificate was issued for a completed enrollment.',
    completion.extend({ code: z.string() }),
  ),
};

type ProgressEventCatalog = typeof progressEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends ProgressEventCatalog {}
}
