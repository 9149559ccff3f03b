import { and, eq } from 'drizzle-orm';
import type { IdentitySettings } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { openSession } from '../identity/session.js';
import { AppError } from '../../errors/app-error.js';
import { normalEmail } from '../users/user.email.js';
import { type UserRow, users } from '../users/user.table.js';
import { domainsOf } from './sso.settings.js';
import type { SsoSettingsRow } from './sso.table.js';

/** How a person proved who they are. */
type SignInMethod = 'oidc' | 'jwt';

/** Who a provider (or a school's site) vouches for: a verified e-mail and, maybe, a name. */
export interface SsoIdentity {
  email: string;
  fullName: string | null;
}

/**
 * The person of the school with the identity's e-mail, or a new student when the school creates
 * missing ones; refused when the e-mail's domain is not one the school allows.
 */
export async function personFor(tx: Queryable, schoolId: number, settings: SsoSettingsRow, identity: SsoIdentity): Promise<{ user: UserRow; created: boolean }> {
  const email = normalEmail(identity.email);
  const domains = domainsOf(settings);
  if (domains.length && !domains.includes(email.slice(email.lastIndexOf('@') + 1)))
    throw new AppError('email_domain_not_allowed', 'The e-mail\'s domain is not one this school signs in through single sign-on');
  const [found] = await tx.select().from(users).where(and(eq(users.schoolId, schoolId), eq(users.email, email))).limit(1);
  if (found) return { user: found, created: false };
  if (!settings.createMissingStudents) throw new AppError('sso_no_account', 'No person of this school has this e-mail');
  const fullName = identity.fullName?.trim() || email.slice(0, email.indexOf('@'));
  // Two first sign-ins at once: the unique (school, e-mail) lets one insert; the other reads it.
  const [inserted] = await tx.insert(users).values({ schoolId, type: 'Student', fullName, email }).onConflictDoNothing().returning();
  if (inserted) return { user: inserted, created: true };
  const [raced] = await tx.select().from(users).where(and(eq(users.schoolId, schoolId), eq(users.email, email))).limit(1);
  return { user: raced, created: false };
}

/**
 * The last step of every single sign-on: the person gets a session (identity/session.ts: a
 * short-lived access token for their role, a refresh token, and `user.signed_in` with the method).
 */
export async function signInPerson(
  tx: Queryable,
  { user, schoolId, method, now, settings }: { user: UserRow; schoolId: number; method: SignInMethod; now: Date; settings?: IdentitySettings },
) {
  const session = await openSession(tx, { user, schoolId, method, now, settings });
  return {
    token: session.accessToken,
    accessTokenExpiresAt: session.accessTokenExpiresAt,
    refreshToken: session.refreshToken,
    refreshTokenExpiresAt: session.refreshTokenExpiresAt,
    user,
  };
}
