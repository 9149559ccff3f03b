import { sql } from 'drizzle-orm';
import { bigint, integer, jsonb, text } from 'drizzle-orm/pg-core';
import { rowId, tstz } from '../../db/columns.js';
import { shardedTable } from '../../db/tables.js';
import { indexOn } from '../../db/indexes.js';
import { schoolRef } from '../../db/school.table.js';

/**
 * The outbox of events the service emits (e.g. 'enrollment.created'), written in the same
 * transaction as the change and read by integrations.
 */
export const domainEvents = shardedTable(
  'domain_events',
  {
    id: rowId(),
    schoolId: schoolRef(),
    name: text().notNull(),
    subjectType: text().notNull(),
    subjectId: integer(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: tstz().notNull().defaultNow(),
    /**
     * The id of the transaction that wrote the event. Ids from the sequence are handed out before
     * commit, so a reader that followed ids alone could pass an event still being committed; the
     * feed orders by (txid, id) and reads only below the oldest transaction still running.
     */
    txid: bigint({ mode: 'number' })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
  },
  (t) => [t.id, t.schoolId],
  (t) => [
    indexOn(t.schoolId, t.createdAt),
    indexOn(t.subjectType, t.subjectId),
    indexOn(t.schoolId, t.txid, t.id),
  ],
);

export type DomainEventRow = typeof domainEvents.$inferSelect;
