import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { secretKeys, type SecretColumns, storedSecret } from '../db/secrets.js';

// The key and the cipher live in db/secrets.ts (a data migration encrypts with them); re-exported for the modules.
export {
  checkSecretsKey,
  chooseSecretsKey,
  decryptSecret,
  DEVELOPMENT_KEY_WARNING,
  encryptSecret,
  SECRET_HINT_MIN_LENGTH,
  type SecretColumns,
  secretHint,
  type SecretsEnv,
  storedSecret,
} from '../db/secrets.js';

/** Where a write-only secret's problem is told (graphql/validation.ts' Checks is one; auth/ does not import graphql/). */
export interface SecretProblems {
  add(field: string, code: 'invalid', message: string): unknown;
}

/**
 * The columns to write for a write-only secret given as `field` of an input: undefined keeps, null
 * or '' clears, the stored hint sent back keeps (clients send a fetched object back), any other
 * value replaces. A masked value that is not the stored hint is refused: it would store the mask
 * as the secret.
 */
export function writeOnlySecret<F extends string>(checks: SecretProblems, field: F, given: string | null | undefined, current?: SecretColumns<F>): SecretColumns<F> {
  if (given === undefined) return {};
  const value = given?.trim() ?? '';
  if (value && current?.[`${field}Ciphertext`] && value === current[`${field}Hint`]) return {};
  if (value.startsWith('****')) {
    checks.add(field, 'invalid', 'is a masked hint, not a token: send the token itself');
    return {};
  }
  return storedSecret(field, value);
}

/** A signed, expiring token carrying `claims` (`<payload>.<signature>`, base64url). */
export function signToken(claims: Record<string, unknown>, expiresAt: Date): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(expiresAt.getTime() / 1000) })).toString('base64url');
  return `${payload}.${createHmac('sha256', secretKeys().signingKey).update(payload).digest('base64url')}`;
}

/** The claims of a token this service signed and that has not expired at `now`; null otherwise. */
export function verifyToken(token: string, now: Date): Record<string, unknown> | null {
  const [payload, signature] = token.split('.');
  if (!payload || !signature) return null;
  const expected = createHmac('sha256', secretKeys().signingKey).update(payload).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims.exp === 'number' && claims.exp * 1000 > now.getTime() ? claims : null;
  } catch {
    return null;
  }
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64 (integrations' webhooks, gateways' callbacks). */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Signing secrets are rows with an `expiresAt` (none: the current one). A rotation sets every
 * secret in force to expire `overlapSeconds` from now, or earlier when it already did: this value.
 */
export function overlapExpiry(expiresAt: PgColumn, overlapSeconds: number): SQL {
  const until = sql`now() + make_interval(secs => ${overlapSeconds})`;
  return sql`least(coalesce(${expiresAt}, ${until}), ${until})`;
}

/** The signing secrets still in force: current, or not expired yet. */
export const inForce = (expiresAt: PgColumn): SQL => or(isNull(expiresAt), gt(expiresAt, sql`now()`))!;
