import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { schools, type SchoolStatus } from '../db/school.table.js';
import { apiTokens, tokenRole } from './api-token.table.js';

export type Role = (typeof tokenRole.enumValues)[number];

/** Who is calling: resolved once per request from the Authorization header. */
export interface Credential {
  tokenId: number;
  role: Role;
  /** null for a platform credential, which spans schools. */
  schoolId: number | null;
  userId: number | null;
}

export const digestToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Reads `Bearer <t>`, `Token token="<t>"` and `Token token=<t>` (the Rails forms). Tokens are opaque
 * and may contain `:`, so only the scheme and the optional `token=` / quotes are stripped.
 */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const bearer = /^Bearer\s+(.+)$/i.exec(value);
  if (bearer) return bearer[1].trim() || null;
  const rails = /^Token\s+token=(?:"([^"]*)"|([^\s,]+))/i.exec(value);
  // Clients pad the quoted value (`token="abc "`): a token never holds spaces at its ends.
  if (rails) return (rails[1] ?? rails[2]).trim() || null;
  return null;
}

/** The credential of a token and the status of its school (which gates it), in one statement. */
export async function findCredential(db: Queryable, token: string): Promise<{ credential: Credential; schoolStatus: SchoolStatus | null } | null> {
  const [row] = await db
    .select({ id: apiTokens.id, role: apiTokens.role, schoolId: apiTokens.schoolId, userId: apiTokens.userId, schoolStatus: schools.status })
    .from(apiTokens)
    .leftJoin(schools, eq(schools.id, apiTokens.schoolId))
    .where(and(eq(apiTokens.tokenDigest, digestToken(token)), isNull(apiTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  return { credential: { tokenId: row.id, role: row.role, schoolId: row.schoolId, userId: row.userId }, schoolStatus: row.schoolStatus };
}

/** Creates a credential and returns the token: the only time the clear token exists. */
export async function issueToken(db: Queryable, grant: Grant): Promise<string> {
  return (await issueCredential(db, grant)).token;
}

type Grant = { role: Role; schoolId?: number | null; userId?: number | null; label?: string | null };

/** Creates a credential; returns its row and the clear token. */
export async function issueCredential(db: Queryable, grant: Grant): Promise<{ token: string; row: typeof apiTokens.$inferSelect }> {
  const token = `lp_${grant.role}_${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      tokenDigest: digestToken(token),
      role: grant.role,
      schoolId: grant.schoolId ?? null,
      userId: grant.userId ?? null,
      label: grant.label ?? null,
    })
    .returning();
  return { token, row };
}
