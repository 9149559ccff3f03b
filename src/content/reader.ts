import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';

/**
 * Who reads, as plain values, so the read rules below know nothing of a request: the database, the
 * request's tenancy rule (auth/ decides it: this layer builds no school condition of its own) and
 * the student the `own` rule acts for. graphql/reader.ts makes one from a resolver's context.
 */
export interface Reader {
  readonly db: Db;
  /** The tenancy condition on a school_id column (undefined: every school; it fails closed). */
  inSchool(column: PgColumn): SQL | undefined;
  /** The same rule for a row already read: whether a row of school `schoolId` is in scope. */
  seesSchool(schoolId: number): boolean;
  /** The student a student credential acts for (0 when it names none: no row matches); null for every other role. */
  readonly studentId: number | null;
}

/** What builds the conditions that need only the database (a Reader, or anything holding `db`). */
export type DbHandle = Pick<Reader, 'db'>;
