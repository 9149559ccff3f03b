import { timingSafeEqual } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { decryptSecret, encryptSecret, inForce, newSigningSecret, overlapExpiry } from '../../auth/secrets.js';
import type { Queryable } from '../../db/client.js';
import { AppError } from '../../errors/app-error.js';
import { gatewaySigningSecrets } from './gateway-notification.table.js';

/**
 * The signing secrets of gateway credentials and the Standard Webhooks check of a callback
 * (https://www.standardwebhooks.com: `webhook-id`, `webhook-timestamp`, `webhook-signature`, an
 * HMAC-SHA256 of `<id>.<timestamp>.<raw body>`), the same scheme the service signs its own
 * webhooks with (modules/webhooks/).
 */

/** How far a callback's `webhook-timestamp` may be from the service's clock: Standard Webhooks' 5 minutes. */
export const CALLBACK_TOLERANCE_SECONDS = 5 * 60;
/** How long the previous secret keeps verifying after a rotation, unless the caller says otherwise. */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 60 * 60;
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

type Credential = { id: number; schoolId: number };

/** Stores a new current secret for the credential and returns it in clear: the only time it is shown. */
export async function createGatewaySigningSecret(tx: Queryable, credential: Credential): Promise<string> {
  const secret = newSigningSecret();
  await tx.insert(gatewaySigningSecrets).values({ schoolId: credential.schoolId, gatewayCredentialId: credential.id, secretCiphertext: encryptSecret(secret) });
  return secret;
}

/**
 * A new current secret; the ones in force keep verifying for `overlapSeconds` more (an earlier
 * expiry stays; 0 ends them now: a leaked secret), and expired ones are removed. Returns the new one in clear.
 */
export async function rotateGatewaySigningSecret(tx: Queryable, credential: Credential, overlapSeconds = DEFAULT_SECRET_OVERLAP_SECONDS): Promise<string> {
  const mine = eq(gatewaySigningSecrets.gatewayCredentialId, credential.id);
  await tx.delete(gatewaySigningSecrets).where(and(mine, lt(gatewaySigningSecrets.expiresAt, sql`now()`)));
  await tx.update(gatewaySigningSecrets).set({ expiresAt: overlapExpiry(gatewaySigningSecrets.expiresAt, overlapSeconds) }).where(mine);
  return createGatewaySigningSecret(tx, credential);
}

/** The credential's secrets in force, newest first, decrypted. */
export async function gatewaySecretsInForce(db: Queryable, credentialId: number): Promise<string[]> {
  const rows = await db
    .select({ secret: gatewaySigningSecrets.secretCiphertext })
    .from(gatewaySigningSecrets)
    .where(and(eq(gatewaySigningSecrets.gatewayCredentialId, credentialId), inForce(gatewaySigningSecrets.expiresAt)))
    .orderBy(sql`${gatewaySigningSecrets.id} desc`);
  return rows.map((r) => decryptSecret(r.secret));
}

/** A callback as it arrived: the Standard Webhooks headers and the body's bytes as text, untouched. */
export interface SignedCallback {
  id: string | null | undefined;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  body: string;
}

const refused = (message: string) => new AppError('invalid_signature', message);

/**
 * Checks a callback: a `v1,<base64>` of `webhook-signature` (space-separated, any of them) must be
 * the HMAC of one secret in force, then its timestamp within CALLBACK_TOLERANCE_SECONDS of `now`
 * (a replay captured long ago is refused even with a good signature). The signature is judged
 * first, so a caller without a secret learns nothing else. Returns the event id and when it was sent.
 */
export function verifyStandardWebhook(callback: SignedCallback, secrets: readonly string[], now: Date): { eventId: string; sentAt: Date } {
  const id = callback.id?.trim();
  const stamp = callback.timestamp?.trim();
  if (!id || !stamp || !callback.signature) throw refused('webhook-id, webhook-timestamp and webhook-signature are required');
  if (secrets.length === 0) throw refused('The gateway credential has no signing secret: rotate one (rotateGatewaySigningSecret)');
  if (!/^\d{1,12}$/.test(stamp)) throw refused('webhook-timestamp must be Unix seconds');
  const sentAt = new Date(Number(stamp) * 1000);
  const given = callback.signature
    .split(' ')
    .map((s) => s.split(','))
    .filter(([version, sig]) => version === 'v1' && sig)
    .map(([, sig]) => Buffer.from(sig));
  const matches = secrets.some((secret) => {
    const expected = Buffer.from(new Webhook(secret).sign(id, sentAt, callback.body).split(',')[1]);
    return given.some((sig) => sig.length === expected.length && timingSafeEqual(sig, expected));
  });
  if (!matches) throw refused('No signature matches a signing secret of the gateway credential');
  if (Math.abs(now.getTime() / 1000 - Number(stamp)) > CALLBACK_TOLERANCE_SECONDS)
    throw new AppError('stale_timestamp', `webhook-timestamp is more than ${CALLBACK_TOLERANCE_SECONDS} seconds from the service's clock`);
  return { eventId: id, sentAt };
}
