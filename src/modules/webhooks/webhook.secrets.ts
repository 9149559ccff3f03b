import { and, eq, lt, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { decryptSecret, encryptSecret, inForce, newSigningSecret, overlapExpiry } from '../../auth/secrets.js';
import type { Queryable } from '../../db/client.js';
import { integrationSigningSecrets } from './webhook.table.js';

/** How long the previous secret keeps signing after a rotation, unless the caller says otherwise. */
export const DEFAULT_ROTATION_WINDOW_SECONDS = 24 * 60 * 60;

/** Stores a new current secret for the integration and returns it in clear: the only time it is shown. */
export async function createSigningSecret(tx: Queryable, integration: { id: number; schoolId: number }): Promise<string> {
  const secret = newSigningSecret();
  await tx.insert(integrationSigningSecrets).values({
    schoolId: integration.schoolId,
    integrationId: integration.id,
    secretCiphertext: encryptSecret(secret),
  });
  return secret;
}

/**
 * A new current secret; the secrets in force keep signing for `windowSeconds` more (an earlier
 * expiry stays), and expired ones are removed. Returns the new secret in clear.
 */
export async function rotateSigningSecret(
  tx: Queryable,
  integration: { id: number; schoolId: number },
  windowSeconds = DEFAULT_ROTATION_WINDOW_SECONDS,
): Promise<string> {
  const mine = eq(integrationSigningSecrets.integrationId, integration.id);
  await tx.delete(integrationSigningSecrets).where(and(mine, lt(integrationSigningSecrets.expiresAt, sql`now()`)));
  await tx.update(integrationSigningSecrets).set({ expiresAt: overlapExpiry(integrationSigningSecrets.expiresAt, windowSeconds) }).where(mine);
  return createSigningSecret(tx, integration);
}

/** The secrets that sign now, newest first, decrypted, by integration. */
export async function signingSecretsOf(db: Queryable, integrationIds: number[]): Promise<Map<number, string[]>> {
  const bySecret = new Map<number, string[]>();
  if (integrationIds.length === 0) return bySecret;
  const rows = await db
    .select()
    .from(integrationSigningSecrets)
    .where(
      and(sql`${integrationSigningSecrets.integrationId} in ${integrationIds}`, inForce(integrationSigningSecrets.expiresAt)),
    )
    .orderBy(sql`${integrationSigningSecrets.id} desc`);
  for (const row of rows) bySecret.set(row.integrationId, [...(bySecret.get(row.integrationId) ?? []), decryptSecret(row.secretCiphertext)]);
  return bySecret;
}

/**
 * The Standard Webhooks headers of one message: `webhook-signature` carries a `v1,<sig>` for every
 * secret in force, space separated, so a receiver holding either secret verifies it.
 */
export function signedHeaders(msgId: string, timestamp: Date, body: string, secrets: string[]): Record<string, string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(msgId, timestamp, body)).join(' '),
  };
}
