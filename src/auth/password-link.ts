import { randomBytes } from 'node:crypto';
import { config } from '../config.js';
import type { Queryable } from '../db/client.js';
import { digestToken } from './credential.js';
import { passwordResets } from './password-reset.table.js';

/**
 * A single-use link that sets a person's password (a reset, an invitation's first password), valid
 * `seconds` from `now`; resetPassword (modules/identity) consumes its token. Written in the caller's
 * transaction; only the token's digest is stored, and the clear link goes into the mail alone.
 */
export async function issuePasswordLink(tx: Queryable, person: { schoolId: number; userId: number }, now: Date, seconds: number): Promise<string> {
  return (await issuePasswordLinks(tx, person.schoolId, [person.userId], now, seconds))[0];
}

/** One link per person of one school, in one statement (the bulk onboarding invites a thousand). */
export async function issuePasswordLinks(tx: Queryable, schoolId: number, userIds: readonly number[], now: Date, seconds: number): Promise<string[]> {
  if (userIds.length === 0) return [];
  const tokens = userIds.map(() => randomBytes(32).toString('base64url'));
  const expiresAt = new Date(now.getTime() + seconds * 1000);
  await tx.insert(passwordResets).values(userIds.map((userId, i) => ({ schoolId, userId, tokenDigest: digestToken(tokens[i]), createdAt: now, expiresAt })));
  return tokens.map((token) => `${config.publicUrl}/users/password/edit?reset_password_token=${encodeURIComponent(token)}`);
}
