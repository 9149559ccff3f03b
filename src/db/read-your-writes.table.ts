import { customType, integer, pgTable } from 'drizzle-orm/pg-core';
import { tstz } from './columns.js';

/** A WAL position (`pg_lsn`), read and written as its text form `16/B374D848`. */
const pgLsn = customType<{ data: string }>({ dataType: () => 'pg_lsn' });

/**
 * Read-your-writes of read routing (db/read-routing.ts): per credential, the primary's WAL position
 * after its latest write; its queries read the replica only once the replica has replayed past it.
 * Runtime state, not data of record: the migration makes it UNLOGGED (not replicated, emptied by a
 * crash, which only sends reads to the primary until the next writes). Rows older than the replica's
 * position are deleted as it passes them.
 */
export const readYourWrites = pgTable('read_your_writes', {
  tokenId: integer().primaryKey(),
  lsn: pgLsn().notNull(),
  writtenAt: tstz().notNull().defaultNow(),
});
