import { and, eq, isNull, ne, type SQL } from 'drizzle-orm';
import { apiTokens } from '../../auth/api-token.table.js';
import { credentialsChanged } from '../../auth/credential-cache.js';
import type { Db, Queryable } from '../../db/client.js';
import { emitEvent } from '../events/events.js';
import type { EventPayload } from '../events/catalog.js';
import { sessions } from './session.table.js';

type Reason = EventPayload<'token.revoked'>['reason'];

/**
 * Revokes the tokens `which` selects (those not revoked yet), in the write's transaction: every
 * instance drops its cached credentials when it commits (credentialsChanged), and each school whose
 * tokens stopped working records `token.revoked`. Resolves to the ids revoked.
 */
export async function revokeTokens(
  db: Db,
  tx: Queryable,
  which: SQL,
  at: Date,
  why: { reason: Reason; sessionId?: number | null; userId?: number | null },
): Promise<number[]> {
  const revoked = await tx
    .update(apiTokens)
    .set({ revokedAt: at })
    .where(and(which, isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id, schoolId: apiTokens.schoolId, userId: apiTokens.userId });
  if (revoked.length === 0) return [];
  await credentialsChanged(db, tx);
  const bySchool = new Map<number, typeof revoked>();
  for (const row of revoked) if (row.schoolId !== null) bySchool.set(row.schoolId, [...(bySchool.get(row.schoolId) ?? []), row]);
  for (const [schoolId, rows] of bySchool) {
    const userId = why.userId ?? (rows.every((r) => r.userId === rows[0].userId) ? rows[0].userId : null);
    await emitEvent(tx, {
      schoolId,
      name: 'token.revoked',
      subjectType: 'ApiToken',
      subjectId: rows.length === 1 ? rows[0].id : null,
      payload: { tokenIds: rows.map((r) => r.id), sessionId: why.sessionId ?? null, userId, reason: why.reason },
    });
  }
  return revoked.map((r) => r.id);
}

/** Closes sessions and revokes their access tokens (their refresh tokens stop with the session). */
export async function revokeSessions(db: Db, tx: Queryable, which: SQL, at: Date, reason: Reason): Promise<number[]> {
  const closed = await tx
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(which, isNull(sessions.revokedAt)))
    .returning({ id: sessions.id, userId: sessions.userId });
  const tokens: number[] = [];
  for (const session of closed)
    tokens.push(...(await revokeTokens(db, tx, eq(apiTokens.sessionId, session.id), at, { reason, sessionId: session.id, userId: session.userId })));
  return closed.map((s) => s.id);
}

/** The sessions of a person: all of them, or all but `keep` (the one changing its password). */
export const sessionsOf = (userId: number, keep?: number | null): SQL => and(eq(sessions.userId, userId), keep ? ne(sessions.id, keep) : undefined)!;
