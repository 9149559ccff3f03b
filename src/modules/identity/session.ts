import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { digestToken, issueCredential, type Role } from '../../auth/credential.js';
import { config, type IdentitySettings } from '../../config.js';
import type { Db, Queryable } from '../../db/client.js';
import { AppError } from '../../errors/app-error.js';
import { emitEvent } from '../events/events.js';
import { type UserRow, users } from '../users/user.table.js';
import { revokeSessions } from './revocation.js';
import { refreshTokens, type SessionRow, sessions, signInMethod } from './session.table.js';

export type SignInMethod = (typeof signInMethod.enumValues)[number];

/** The role a person's credentials act with: a student's, or staff's (a collaborator's, an admin's). */
export const roleOf = (user: Pick<UserRow, 'type'>): Role => (user.type === 'Admin' ? 'admin' : user.type === 'Collaborator' ? 'collaborator' : 'student');

/** What sign-in (any method) and a refresh answer: the tokens, shown once, and when they expire. */
export interface OpenedSession {
  sessionId: number;
  role: Role;
  user: UserRow;
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken: string;
  refreshTokenExpiresAt: Date;
}

const after = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

/** A new refresh token of a session (only its digest is stored). */
async function issueRefreshToken(tx: Queryable, session: { id: number; schoolId: number }, at: Date, settings: IdentitySettings) {
  const refreshToken = `lp_refresh_${randomBytes(32).toString('base64url')}`;
  const expiresAt = after(at, settings.refreshTokenSeconds);
  await tx.insert(refreshTokens).values({ schoolId: session.schoolId, sessionId: session.id, tokenDigest: digestToken(refreshToken), createdAt: at, expiresAt });
  await tx.update(sessions).set({ expiresAt }).where(eq(sessions.id, session.id));
  return { refreshToken, refreshTokenExpiresAt: expiresAt };
}

/** A new short-lived access token of a session, for its person's role. */
async function issueAccessToken(tx: Queryable, session: Pick<SessionRow, 'id' | 'schoolId'>, user: UserRow, at: Date, settings: IdentitySettings) {
  const accessTokenExpiresAt = after(at, settings.accessTokenSeconds);
  const { token } = await issueCredential(tx, {
    role: roleOf(user),
    schoolId: session.schoolId,
    userId: user.id,
    label: 'session',
    sessionId: session.id,
    expiresAt: accessTokenExpiresAt,
    createdAt: at,
  });
  return { accessToken: token, accessTokenExpiresAt };
}

/**
 * Opens a session for a person who proved who they are (a password here; single sign-on calls it
 * too): a short-lived access token for their role and a refresh token, and `user.signed_in`.
 * Runs in the caller's transaction.
 */
export async function openSession(
  tx: Queryable,
  { user, schoolId, method, now = new Date(), settings = config.identity }: { user: UserRow; schoolId: number; method: SignInMethod; now?: Date; settings?: IdentitySettings },
): Promise<OpenedSession> {
  const [session] = await tx
    .insert(sessions)
    .values({ schoolId, userId: user.id, method, createdAt: now, expiresAt: after(now, settings.refreshTokenSeconds) })
    .returning();
  const access = await issueAccessToken(tx, session, user, now, settings);
  const refresh = await issueRefreshToken(tx, session, now, settings);
  await emitEvent(tx, {
    schoolId,
    name: 'user.signed_in',
    subjectType: 'User',
    subjectId: user.id,
    payload: { userId: user.id, role: roleOf(user), method, sessionId: session.id },
  });
  return { sessionId: session.id, role: roleOf(user), user, ...access, ...refresh };
}

const invalidRefresh = () => new AppError('unauthenticated', 'The refresh token is not valid: sign in again');

/**
 * Rotates a refresh token: marks it used and issues a new access and refresh token of its session.
 * A token used before (or of a closed session) is a replay: the whole session (its family) is
 * revoked, in a transaction of its own that commits before the 401 is thrown.
 */
export async function refreshSession(db: Db, refreshToken: string, now: Date, settings: IdentitySettings = config.identity): Promise<OpenedSession> {
  const outcome = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ token: refreshTokens, session: sessions })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenDigest, digestToken(refreshToken)))
      .for('update', { of: refreshTokens });
    if (!found) return { refused: invalidRefresh() };
    const { token, session } = found;
    if (session.revokedAt) return { refused: invalidRefresh() };
    if (!token.usedAt && token.expiresAt.getTime() <= now.getTime()) return { refused: new AppError('token_expired', 'The refresh token has expired: sign in again') };
    // Marked used only if no one else did meanwhile: of two racing refreshes, one wins and the other is a replay.
    const used = token.usedAt ? [] : await tx.update(refreshTokens).set({ usedAt: now }).where(and(eq(refreshTokens.id, token.id), isNull(refreshTokens.usedAt))).returning({ id: refreshTokens.id });
    if (used.length === 0) return { reused: session };
    const [user] = await tx.select().from(users).where(eq(users.id, session.userId));
    if (!user) return { refused: invalidRefresh() };
    const access = await issueAccessToken(tx, session, user, now, settings);
    const refresh = await issueRefreshToken(tx, session, now, settings);
    return { opened: { sessionId: session.id, role: roleOf(user), user, ...access, ...refresh } satisfies OpenedSession };
  });
  if ('opened' in outcome && outcome.opened) return outcome.opened;
  if ('reused' in outcome && outcome.reused) {
    // Reuse detection (OAuth 2.0 Security BCP): someone holds a copy of the family's tokens.
    const session = outcome.reused;
    await db.transaction((tx) => revokeSessions(db, tx, eq(sessions.id, session.id), now, 'refresh_token_reused'));
    throw new AppError('unauthenticated', 'The refresh token was already used: its session is revoked, sign in again');
  }
  throw (outcome as { refused: AppError }).refused;
}

/** Signs out the session of the calling credential: its access and refresh tokens stop at once. */
export async function closeSession(db: Db, tx: Queryable, sessionId: number, now: Date): Promise<void> {
  await revokeSessions(db, tx, eq(sessions.id, sessionId), now, 'signed_out');
}
