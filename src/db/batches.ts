import type { SQL } from 'drizzle-orm';
import { postgresCursor } from './driver-adapter.js';
import { rowsOf } from './rows.js';
import type { Db } from './types.js';

/** A keyset page of a statement read in batches: the rows after `after` (the key), at most `limit`. */
export interface KeysetPage {
  after: number;
  limit: number;
}

/** How many batch readers are open now (tests: a client gone mid-download leaves none). */
let open = 0;
export const openBatchReaders = () => open;

/**
 * A statement's rows in batches of `size`, in constant memory whatever their number. The statement
 * is built by `statement(page)`, ordered by its integer key `key` (a row property):
 *
 * - PostgreSQL: built once (`page` null) and read through a cursor (postgres.js `cursor(size)`): the
 *   server runs it once and hands over `size` rows at each fetch. It holds one pooled connection until
 *   the last batch, or until the reader stops: `return()` of the iteration (a `for await` left by break
 *   or throw, a stream destroyed) closes the cursor and gives the connection back.
 * - PGlite, one session for the whole process: keyset pages (`key > after order by key limit size`),
 *   one statement each, so the embedded database is free between batches (a cursor would need a
 *   transaction holding its only session while a slow client reads). Each page sees what is
 *   committed when it runs: a row written during the read may or may not appear.
 */
export async function* readInBatches<T extends Record<string, unknown>>(
  db: Db,
  statement: (page: KeysetPage | null) => SQL,
  key: keyof T & string,
  size = 1000,
): AsyncGenerator<T[]> {
  open += 1;
  try {
    const cursor = postgresCursor(db, statement(null), size);
    if (cursor) {
      for await (const rows of cursor) yield rows as T[];
      return;
    }
    let after = 0;
    for (;;) {
      const rows = rowsOf<T>(await db.execute(statement({ after, limit: size })));
      if (rows.length) yield rows;
      if (rows.length < size) return;
      after = Number(rows[rows.length - 1][key]);
    }
  } finally {
    open -= 1;
  }
}
