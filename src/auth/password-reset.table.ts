import { text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../db/columns.js';
import { indexOn, uniqueIndexOn } from '../db/indexes.js';
import { schoolEntryTable } from '../db/tables.js';
import { users } from '../modules/users/user.table.js';

/**
 * The tokens of set-password links (a reset, an invitation), stored as SHA-256 digests: single use
 * (`usedAt`), expiring. The clear link exists only in the mail that carries it (modules/mail).
 */
export const passwordResets = schoolEntryTable(
  'password_resets',
  {
    userId: belongsTo(() => users.id),
    tokenDigest: text().notNull(),
    expiresAt: tstz().notNull(),
    usedAt: tstz(),
  },
  // Digests are 256-bit random: unique within a school is unique; found by digest alone through this index.
  (t) => [uniqueIndexOn(t.tokenDigest, t.schoolId), indexOn(t.schoolId), indexOn(t.userId), indexOn(t.expiresAt)],
);
