import { customType, integer, jsonb, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolEntryTable, shardedTable } from '../../db/tables.js';
import { schoolRef } from '../../db/school.table.js';

export const EXPORT_KINDS = ['enrollments', 'orders', 'progress'] as const;
export type ExportKindValue = (typeof EXPORT_KINDS)[number];
export const exportKind = pgEnum('export_kind', EXPORT_KINDS);
/** queued → running (claimed by a worker, under a lease) → done, or failed. */
export const exportStatus = pgEnum('export_status', ['queued', 'running', 'done', 'failed']);

/** The filters an export was started with, as given (ids as strings, dates as ISO text). */
export type StoredFilters = Record<string, string>;

/**
 * A CSV export run by the background job (`startExport`): the file is written in chunks
 * (export_chunks) so neither the writer nor a download holds more than one chunk in memory.
 */
export const exportFiles = schoolEntryTable(
  'exports',
  {
    kind: exportKind().notNull(),
    filters: jsonb().$type<StoredFilters>().notNull().default({}),
    status: exportStatus().notNull().default('queued'),
    rowCount: integer(),
    /** While running: until when the claiming worker holds it; past it another worker starts it over. */
    leaseUntil: tstz(),
    /** Why it failed (a filter's row gone since it was started, the database lost). */
    failure: text(),
    finishedAt: tstz(),
  },
  (t) => [orderedIndex(t.schoolId, t.id), indexOn(t.status, t.id), indexOn(t.finishedAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** One piece of an export's file, in order: about a megabyte of CSV each. */
export const exportChunks = shardedTable(
  'export_chunks',
  {
    schoolId: schoolRef(),
    exportId: belongsTo(() => exportFiles.id),
    position: integer().notNull(),
    data: bytea().notNull(),
  },
  (t) => [t.exportId, t.position, t.schoolId],
);

export type ExportRow = typeof exportFiles.$inferSelect;
