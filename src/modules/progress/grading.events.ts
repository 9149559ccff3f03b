import { z } from 'zod';
import { event, id, nullableId } from '../events/catalog.js';

/** The events of grading by hand (the catalog: events/catalog.ts). */
export const gradingEventCatalog = {
  'attempt.graded': event({
    version: 1,
    subject: 'ActivityAttempt',
    emittedBy: ['gradeAttempt'],
    description: "Staff graded open answers of an attempt by hand: its score and pass/fail recomputed; `complete` once no open answer awaits grading. The student is notified (notifications' consumer).",
    payload: z.object({
      enrollmentId: id,
      studentId: id,
      activityId: id,
      activityTitle: z.string(),
      gradedById: nullableId,
      score: z.number().int().nullable(),
      passed: z.boolean(),
      complete: z.boolean(),
    }),
  }),
};

type GradingEventCatalog = typeof gradingEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends GradingEventCatalog {}
}
