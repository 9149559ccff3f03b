import { text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn } from '../../db/indexes.js';
import { schoolEntryTable } from '../../db/tables.js';
import { users } from '../users/user.table.js';

/** Password reset tokens, stored as SHA-256 digests: single use (`usedAt`), expiring. */
export const passwordResets = schoolEntryTable(
  'password_resets',
  {
    userId: belongsTo(() => users.id),
    tokenDigest: text().notNull().unique('password_resets_token_digest_key'),
    expiresAt: tstz().notNull(),
    usedAt: tstz(),
  },
  (t) => [indexOn(t.schoolId), indexOn(t.userId), indexOn(t.expiresAt)],
);

/**
 * Reset links waiting to be mailed (password-reset-delivery.ts writes them): the one place the clear
 * link exists, as in any mail outbox. Never in an event, a log or a reply.
 */
export const passwordResetMails = schoolEntryTable(
  'password_reset_mails',
  {
    userId: belongsTo(() => users.id),
    recipient: text().notNull(),
    link: text().notNull(),
  },
  (t) => [indexOn(t.schoolId), indexOn(t.userId)],
);
