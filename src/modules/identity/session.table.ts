import { integer, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { belongsTo, id, tstz } from '../../db/columns.js';
import { indexOn } from '../../db/indexes.js';
import { schoolRef } from '../../db/school.table.js';
import { users } from '../users/user.table.js';

/** How a person proved who they are: a password here; single sign-on adds its own methods. */
export const signInMethod = pgEnum('sign_in_method', ['password', 'oidc', 'jwt']);

/**
 * A signed-in session: one family of refresh tokens (each refresh replaces the last) and the access
 * tokens issued along it (api_tokens.session_id). Revoking the session revokes them all.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    schoolId: schoolRef(),
    userId: belongsTo(() => users.id),
    method: signInMethod().notNull(),
    createdAt: tstz().notNull(),
    /** When the latest refresh token expires: past it, the session is over (the prune job deletes it). */
    expiresAt: tstz().notNull(),
    revokedAt: tstz(),
  },
  // (school_id, created_at): the sign-ins of a period (reports' active students).
  (t) => [indexOn(t.schoolId), indexOn(t.userId), indexOn(t.expiresAt), indexOn(t.schoolId, t.createdAt)],
);

/**
 * Refresh tokens, stored as SHA-256 digests, each of one session (its family). A refresh marks the
 * token used and issues the next; a used one presented again revokes the family (reuse detection).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    sessionId: integer()
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenDigest: text().notNull().unique('refresh_tokens_token_digest_key'),
    createdAt: tstz().notNull(),
    expiresAt: tstz().notNull(),
    usedAt: tstz(),
  },
  (t) => [indexOn(t.sessionId)],
);

export type SessionRow = typeof sessions.$inferSelect;
