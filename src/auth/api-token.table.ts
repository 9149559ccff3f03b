import { sql } from 'drizzle-orm';
import { check, integer, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { id, tstz } from '../db/columns.js';
import { indexOn } from '../db/indexes.js';
import { schools } from '../db/school.table.js';

export const tokenRole = pgEnum('token_role', ['platform', 'admin', 'collaborator', 'student', 'app']);

/**
 * API credentials. Only a SHA-256 digest of the token is stored (tokens are 256-bit random
 * strings, so a slow hash adds nothing). A platform token has no school; every other role
 * belongs to exactly one school, and a student token to one student. A session's access tokens
 * expire; an API token may.
 *
 * A reference table when sharded by school (db/sharding.ts): it is read before the school is known, so it
 * holds no foreign key into school-owned tables. Its user goes with its school (users are deleted with
 * their school only); its session's tokens are deleted with the session (modules/identity/prune.ts).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: id(),
    tokenDigest: text().notNull().unique('api_tokens_token_digest_key'),
    role: tokenRole().notNull(),
    schoolId: integer().references(() => schools.id, { onDelete: 'cascade' }),
    userId: integer(),
    label: text(),
    createdAt: tstz().notNull().defaultNow(),
    revokedAt: tstz(),
    /** Past it the token answers 401 `token_expired`; none: it lives until revoked. */
    expiresAt: tstz(),
    /** When it was last used, recorded coarsely and in batches (auth/token-usage.ts). */
    lastUsedAt: tstz(),
    /** The signed-in session that issued it (an access token); revoking the session revokes it. */
    sessionId: integer(),
  },
  (t) => [
    indexOn(t.schoolId),
    indexOn(t.userId),
    indexOn(t.sessionId),
    indexOn(t.expiresAt),
    check('api_tokens_school_scope', sql`(${t.role} = 'platform') = (${t.schoolId} is null)`),
    check('api_tokens_student_user', sql`${t.role} <> 'student' or ${t.userId} is not null`),
  ],
);
