import { errors as joseErrors, jwtVerify } from 'jose';
import { decryptSecret } from '../../auth/secrets.js';
import { config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../errors/app-error.js';
import { jwtAudienceOf } from './sso.settings.js';
import { ssoJwtUses, type SsoSettingsRow } from './sso.table.js';
import type { SsoIdentity } from './sso.sign-in.js';
import { and, eq, lt } from 'drizzle-orm';

/** Seconds two clocks may disagree by (the school's site and this service). */
const CLOCK_SKEW_SECONDS = 30;
const MAX_JTI = 200;

const invalid = (why: string) => new AppError('invalid_sso_token', `The JWT is not valid: ${why}`);

/**
 * The person a school's JWT names, verified with the school's secret (jose): HS256 only, not
 * expired, issued within SSO_JWT_MAX_AGE_SECONDS and not in the future (30 s of skew), for the
 * school's audience (and issuer, when set), with a `jti`. Single use is `useJti`'s, in the sign-in's transaction.
 */
export async function verifySchoolJwt(settings: SsoSettingsRow, jwt: string, now: Date): Promise<SsoIdentity & { jti: string; expiresAt: Date }> {
  if (!settings.jwtEnabled || !settings.jwtSecretCiphertext) throw new AppError('sso_not_configured', 'JWT single sign-on is not enabled for this school');
  const key = new TextEncoder().encode(decryptSecret(settings.jwtSecretCiphertext));
  let payload;
  try {
    ({ payload } = await jwtVerify(jwt.trim(), key, {
      algorithms: ['HS256'],
      audience: jwtAudienceOf(settings),
      issuer: settings.jwtIssuer ?? undefined,
      currentDate: now,
      maxTokenAge: config.sso.jwtMaxAgeSeconds,
      clockTolerance: CLOCK_SKEW_SECONDS,
      requiredClaims: ['exp', 'iat', 'jti', 'email'],
    }));
  } catch (error) {
    // jose's messages name the claim that failed and never echo the token.
    if (error instanceof joseErrors.JOSEError) throw invalid(error instanceof joseErrors.JWSSignatureVerificationFailed ? 'its signature does not match' : error.message);
    throw error;
  }
  const { email, jti, exp } = payload;
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 320) throw invalid('the email claim is not an e-mail address');
  if (typeof jti !== 'string' || !jti || jti.length > MAX_JTI) throw invalid(`the jti claim must be a text of 1 to ${MAX_JTI} characters`);
  const name = [payload.first_name, payload.last_name].filter((p): p is string => typeof p === 'string' && !!p.trim()).join(' ');
  return { email, fullName: name || (typeof payload.name === 'string' ? payload.name : null), jti, expiresAt: new Date(exp! * 1000) };
}

/** Records a token's `jti` for the school until it expires; a second use is refused (the unique (school, jti)). */
export async function useJti(tx: Queryable, schoolId: number, jti: string, expiresAt: Date, now: Date): Promise<void> {
  // Expired uses can go: their tokens are refused by their `exp` anyway.
  await tx.delete(ssoJwtUses).where(and(eq(ssoJwtUses.schoolId, schoolId), lt(ssoJwtUses.expiresAt, new Date(now.getTime() - CLOCK_SKEW_SECONDS * 1000))));
  const [used] = await tx.insert(ssoJwtUses).values({ schoolId, jti, expiresAt }).onConflictDoNothing().returning({ id: ssoJwtUses.id });
  if (!used) throw invalid('it was used already (its jti)');
}
