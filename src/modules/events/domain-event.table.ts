import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';

/**
 * The outbox of events the service emits (e.g. 'enrollment.created'), written in the same
 * transaction as the change and read by integrations.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text().notNull(),
    subjectType: text().notNull(),
    subjectId: integer(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    index('domain_events_school_id_created_at_idx').on(t.schoolId, t.createdAt),
    index('domain_events_subject_type_subject_id_idx').on(t.subjectType, t.subjectId),
  ],
);

export type DomainEventRow = typeof domainEvents.$inferSelect;
