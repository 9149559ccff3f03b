import type { Queryable } from '../../db/client.js';
import { domainEvents } from './domain-event.table.js';

/**
 * The events the service emits, written to the `domain_events` outbox in the same transaction as
 * the change they describe (so an event exists exactly when its change does). Integrations name
 * these in their `metadata` to receive them. Writes made with an explicit `created_at` (imports,
 * migrations from another system) emit nothing: their callbacks are skipped.
 */
export const EVENT_NAMES = [
  'school.status_changed',
  'school_product.created',
  'enrollment.created',
  'enrollment.updated',
  'enrollment.activated',
  'enrollment.expired',
  'enrollment.completed',
  'certificate.issued',
  'order.created',
  'order.confirmed',
  'order.canceled',
  'order.imported',
  'course.created',
  'lesson.created',
  'media.reprocess_requested',
  'media.processed',
  'forum_question.created',
  'forum_answer.created',
  'message.created',
  'notification.created',
  'collaborative_comment.created',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export interface DomainEvent {
  schoolId: number;
  name: EventName;
  subjectType: string;
  subjectId: number | null;
  payload?: Record<string, unknown>;
}

export async function emitEvent(tx: Queryable, event: DomainEvent): Promise<void> {
  await emitEvents(tx, [event]);
}

/** Several events in one statement (a batch write emits one per row). */
export async function emitEvents(tx: Queryable, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.insert(domainEvents).values(events.map((e) => ({ ...e, payload: e.payload ?? {} })));
}
