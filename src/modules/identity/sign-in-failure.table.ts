import { pgTable, text } from 'drizzle-orm/pg-core';
import { id, tstz } from '../../db/columns.js';
import { indexOn } from '../../db/indexes.js';

/**
 * Failed sign-ins, one row each, shared by every instance: counted per key over the window
 * (modules/identity/throttle.ts). `key` is `account:<digest of school and e-mail>` or
 * `address:<client address>`: never an e-mail in the clear. Rows past the window are pruned.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: id(),
    key: text().notNull(),
    failedAt: tstz().notNull(),
  },
  (t) => [indexOn(t.key, t.failedAt), indexOn(t.failedAt)],
);
