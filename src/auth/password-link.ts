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
  const token = randomBytes(32).toString('base64url');
  await tx.insert(passwordResets).values({ ...person, tokenDigest: digestToken(token), createdAt: now, expiresAt: new Date(now.getTime() + seconds * 1000) });
  return `${config.publicUrl}/users/password/edit?reset_password_token=${encodeURIComponent(token)}`;
}
