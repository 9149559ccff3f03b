import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, text, unique } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolEntryTable, schoolRowTable, schoolTable } from '../../db/tables.js';
import { domainEvents } from '../events/domain-event.table.js';
import { integrations } from '../integrations/integration.table.js';

/**
 * The secrets an integration's webhooks are signed with (Standard Webhooks, `whsec_<base64>`),
 * encrypted with SECRETS_KEY. The current one has no `expiresAt`; a rotation gives the previous
 * ones an `expiresAt` (24 h by default), and until then every unexpired secret signs, so a
 * receiver can switch keys without losing a delivery.
 */
export const integrationSigningSecrets = schoolEntryTable(
  'integration_signing_secrets',
  {
    integrationId: belongsTo(() => integrations.id),
    secretCiphertext: text().notNull(),
    expiresAt: tstz(),
  },
  (t) => [indexOn(t.integrationId)],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', WEBHOOK_DELIVERY_STATUSES);

/**
 * One event to one integration: written pending in the event's own transaction (events.ts fans
 * out), then claimed and sent by the webhook worker until it succeeds or its schedule runs out.
 * `attemptCount` counts the attempts of the current round (a redelivery starts a new one);
 * `lockedUntil` is the lease of the worker sending it.
 */
export const webhookDeliveries = schoolTable(
  'webhook_deliveries',
  {
    integrationId: belongsTo(() => integrations.id),
    eventId: belongsTo(() => domainEvents.id),
    eventName: text().notNull(),
    status: webhookDeliveryStatus().notNull().default('pending'),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: tstz().defaultNow(),
    lockedUntil: tstz(),
    lastResponseStatus: integer(),
    lastError: text(),
    deliveredAt: tstz(),
  },
  (t) => [
    unique('webhook_deliveries_integration_id_event_id_key').on(t.integrationId, t.eventId, t.schoolId),
    // The worker's claim: due pending deliveries, oldest first.
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    indexOn(t.integrationId, t.id),
    indexOn(t.eventId),
    indexOn(t.schoolId),
  ],
);

/** Every attempt of a delivery: when, how long, the response status or the error, and when the next one is due. */
export const webhookAttempts = schoolRowTable(
  'webhook_attempts',
  {
    deliveryId: belongsTo(() => webhookDeliveries.id),
    startedAt: tstz().notNull(),
    durationMs: integer().notNull(),
    responseStatus: integer(),
    error: text(),
    nextAttemptAt: tstz(),
  },
  (t) => [orderedIndex(t.deliveryId, t.id), indexOn(t.schoolId)],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
