import { and, isNotNull, lt } from 'drizzle-orm';
import { apiTokens } from '../../auth/api-token.table.js';
import type { Db } from '../../db/client.js';
import { inList } from '../../db/columns.js';
import { passwordResets } from '../../auth/password-reset.table.js';
import { refreshTokens, sessions } from './session.table.js';
import { signInFailures } from './sign-in-failure.table.js';

/** How often server.ts prunes (each instance; plain deletes, safe with several). */
export const SESSION_PRUNE_INTERVAL_MS = 10 * 60_000;

/** How long an expired access token stays listed (its `expiresAt` tells why it no longer works). */
const KEEP_EXPIRED_MS = 86_400_000;

/**
 * Deletes what can never be used again: sessions past their expiry (with their refresh tokens, by
 * cascade, and their access tokens: api_tokens, a reference table, has no foreign key to them), refresh tokens past theirs, access tokens of sessions expired a day ago,
 * failed sign-ins older than the window, and expired password resets.
 */
export async function pruneSessions(db: Db, now: Date, failureWindowSeconds: number): Promise<void> {
  const gone = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  if (gone.length) await db.delete(apiTokens).where(inList(apiTokens.sessionId, gone.map((s) => s.id)));
  await db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now));
  await db.delete(apiTokens).where(and(isNotNull(apiTokens.sessionId), lt(apiTokens.expiresAt, new Date(now.getTime() - KEEP_EXPIRED_MS))));
  await db.delete(signInFailures).where(lt(signInFailures.failedAt, new Date(now.getTime() - failureWindowSeconds * 1000)));
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, now));
}
