import { integer, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolEntryTable } from '../../db/tables.js';
import { gatewayCredentials, payments } from './order.table.js';

/**
 * The secrets a gateway signs its callbacks with (Standard Webhooks, `whsec_<base64>`), encrypted
 * with SECRETS_KEY, shown once (on create and rotation). The current one has no `expiresAt`; a
 * rotation gives the previous ones an `expiresAt` (24 h by default), and until then each verifies,
 * so the gateway's settings can be changed without losing a callback.
 */
export const gatewaySigningSecrets = schoolEntryTable(
  'gateway_signing_secrets',
  {
    gatewayCredentialId: belongsTo(() => gatewayCredentials.id),
    secretCiphertext: text().notNull(),
    expiresAt: tstz(),
  },
  (t) => [indexOn(t.gatewayCredentialId), indexOn(t.schoolId)],
);

/**
 * Every callback a gateway credential delivered and the service applied, by the gateway's event id
 * (`webhook-id`), unique per credential: a replay finds its row and answers what the first delivery
 * did, changing nothing. Written in the transaction that moves the payment, so a callback refused
 * (a 401, a 404, a 422 of the state machine) leaves no row and a retry is judged afresh.
 */
export const gatewayNotifications = schoolEntryTable(
  'gateway_notifications',
  {
    gatewayCredentialId: belongsTo(() => gatewayCredentials.id),
    /** The gateway's event id (`webhook-id`). */
    eventId: text().notNull(),
    /** When the gateway says it sent it (`webhook-timestamp`). */
    sentAt: tstz().notNull(),
    type: text().notNull(),
    paymentId: integer().references(() => payments.id, { onDelete: 'set null' }),
    /** The payment status the gateway reported, normalized (confirmed, failed, refunded, reversed, ...). */
    status: text().notNull(),
    /** Cents the gateway named (a refund's part), if any. */
    amount: integer(),
    reason: text(),
    /** What the first delivery left: the payment's status and the cents refunded after it. */
    paymentStatus: text().notNull(),
    refundedAmount: integer().notNull(),
  },
  (t) => [uniqueIndexOn(t.gatewayCredentialId, t.eventId, t.schoolId), indexOn(t.paymentId), orderedIndex(t.schoolId, t.id)],
);

export type GatewayNotificationRow = typeof gatewayNotifications.$inferSelect;
