import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { schools, type SchoolStatus } from '../db/school.table.js';
import { apiTokens, tokenRole } from './api-token.table.js';
import { remembered } from '../lib/remembered.js';

export type Role = (typeof tokenRole.enumValues)[number];

/** Who is calling: resolved once per request from the Authorization header. */
export interface Credential {
  tokenId: number;
  role: Role;
  /** null for a platform credential, which spans schools. */
  schoolId: number | null;
  userId: number | null;
  /** The signed-in session that issued it (modules/identity), or null for an API token. */
  sessionId?: number | null;
  /** Past it the token answers 401 `token_expired` (graphql/request-context.ts); null: no expiry. */
  expiresAt?: Date | null;
}

// crypto.hash: one call, no Hash object per request (every request digests its credential).
export const digestToken = (token: string) => hash('sha256', token, 'hex');

/**
 * A request credential's digest, remembered (at most 1,024): a request needs it twice (its rate-limit
 * bucket and its cached credential), and a client sends the same token request after request.
 */
export const credentialDigest = remembered(1024, digestToken);

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

/**
 * The credential of a token and the status of its school (which gates it), in one statement. An
 * expired token is found too (with its `expiresAt`): its caller answers that it expired.
 */
export async function findCredential(db: Queryable, token: string): Promise<{ credential: Credential; schoolStatus: SchoolStatus | null } | null> {
  const [row] = await db
    .select({
      id: apiTokens.id,
      role: apiTokens.role,
      schoolId: apiTokens.schoolId,
      userId: apiTokens.userId,
      sessionId: apiTokens.sessionId,
      expiresAt: apiTokens.expiresAt,
      schoolStatus: schools.status,
    })
    .from(apiTokens)
    .leftJoin(schools, eq(schools.id, apiTokens.schoolId))
    .where(and(eq(apiTokens.tokenDigest, digestToken(token)), isNull(apiTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  const { id, role, schoolId, userId, sessionId, expiresAt } = row;
  return { credential: { tokenId: id, role, schoolId, userId, sessionId, expiresAt }, schoolStatus: row.schoolStatus };
}

/** Creates a credential and returns the token: the only time the clear token exists. */
export async function issueToken(db: Queryable, grant: Grant): Promise<string> {
  return (await issueCredential(db, grant)).token;
}

export type Grant = {
  role: Role;
  schoolId?: number | null;
  userId?: number | null;
  label?: string | null;
  expiresAt?: Date | null;
  /** The session issuing an access token (modules/identity/session.ts). */
  sessionId?: number | null;
  /** Its creation time (the service's clock; the database's by default). */
  createdAt?: Date;
};

/** Whether a credential has expired at `now`. */
export const expired = (credential: Pick<Credential, 'expiresAt'>, now: Date) => !!credential.expiresAt && credential.expiresAt.getTime() <= now.getTime();

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
      expiresAt: grant.expiresAt ?? null,
      sessionId: grant.sessionId ?? null,
      ...(grant.createdAt ? { createdAt: grant.createdAt } : {}),
    })
    .returning();
  return { token, row };
}
