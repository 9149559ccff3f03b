import { pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, rowId, tstz } from '../../db/columns.js';
import { indexOn, uniqueIndexOn } from '../../db/indexes.js';
import { shardedTable } from '../../db/tables.js';
import { schoolRef } from '../../db/school.table.js';
import { users } from '../users/user.table.js';

/** How a person proved who they are: a password here; single sign-on adds its own methods. */
export const signInMethod = pgEnum('sign_in_method', ['password', 'oidc', 'jwt']);

/**
 * A signed-in session: one family of refresh tokens (each refresh replaces the last) and the access
 * tokens issued along it (api_tokens.session_id). Revoking the session revokes them all.
 */
export const sessions = shardedTable(
  'sessions',
  {
    id: rowId(),
    schoolId: schoolRef(),
    userId: belongsTo(() => users.id),
    method: signInMethod().notNull(),
    createdAt: tstz().notNull(),
    /** When the latest refresh token expires: past it, the session is over (the prune job deletes it). */
    expiresAt: tstz().notNull(),
    revokedAt: tstz(),
  },
  (t) => [t.id, t.schoolId],
  // (school_id, created_at): the sign-ins of a period (reports' active students).
  (t) => [indexOn(t.schoolId), indexOn(t.userId), indexOn(t.expiresAt), indexOn(t.schoolId, t.createdAt)],
);

/**
 * Refresh tokens, stored as SHA-256 digests, each of one session (its family). A refresh marks the
 * token used and issues the next; a used one presented again revokes the family (reuse detection).
 */
export const refreshTokens = shardedTable(
  'refresh_tokens',
  {
    id: rowId(),
    schoolId: schoolRef(),
    sessionId: belongsTo(() => sessions.id),
    tokenDigest: text().notNull(),
    createdAt: tstz().notNull(),
    expiresAt: tstz().notNull(),
    usedAt: tstz(),
  },
  (t) => [t.id, t.schoolId],
  // Digests are 256-bit random: unique within a school is unique; found by digest alone through this index.
  (t) => [indexOn(t.sessionId), uniqueIndexOn(t.tokenDigest, t.schoolId)],
);

export type SessionRow = typeof sessions.$inferSelect;
