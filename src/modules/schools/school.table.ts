import { sql } from 'drizzle-orm';
import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, rowId, tstz } from '../../db/columns.js';
import { shardedTable } from '../../db/tables.js';
import { orderedIndex } from '../../db/indexes.js';
import { schoolRef, schools, schoolStatus } from '../../db/school.table.js';

// The schools table itself, its organizations and its status live in db/school.table.ts (below auth/).

/** A school's custom domains: a table (not an array column) so a domain is unique across schools. */
export const schoolDomains = pgTable(
  'school_domains',
  {
    id: id(),
    schoolId: belongsTo(() => schools.id),
    domain: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('school_domains_domain_key').on(sql`lower(${t.domain})`),
    orderedIndex(t.schoolId, t.position),
  ],
);

/** Every state change of a school, with the event that caused it. */
export const schoolStatusChanges = shardedTable(
  'school_status_changes',
  {
    id: rowId(),
    schoolId: schoolRef(),
    event: text().notNull(),
    fromStatus: schoolStatus().notNull(),
    toStatus: schoolStatus().notNull(),
    createdAt: tstz().notNull().defaultNow(),
  },
  (t) => [t.id, t.schoolId],
  (t) => [orderedIndex(t.schoolId, t.createdAt)],
);
