import type { Queryable } from '../../db/client.js';
import { domainEvents } from './domain-event.table.js';
import { sql, type SQL } from 'drizzle-orm';
import { eventSignals, recipientColumn } from './event-bus.js';

/**
 * The events the service emits, written to the `domain_events` outbox in the same transaction as
 * the change they describe (so an event exists exactly when its change does). Integrations name
 * these in their `metadata` to receive them. Writes made with an explicit `created_at` (imports,
 * migrations from another system) emit nothing: their callbacks are skipped.
 */
// The catalog (names, versions, subjects, payload schemas) lives in catalog.ts; re-exported here.
export { EVENT_NAMES, type DomainEvent, type EventName, type EventPayload, eventCatalog, isEventName } from './catalog.js';
import { type DomainEvent, eventCatalog, type EventName, type EventPayload } from './catalog.js';

export async function emitEvent(tx: Queryable, event: DomainEvent): Promise<void> {
  await emitEvents(tx, [event]);
}

/** An event whose subject is a row of a school: the row's school and id, the subject type the catalog gives the name. */
function rowEvent<N extends EventName>(name: N, row: { id: number; schoolId: number }, payload: EventPayload<N>): DomainEvent {
  return { schoolId: row.schoolId, name, subjectType: eventCatalog[name].subject, subjectId: row.id, payload } as DomainEvent;
}

/** Emits `rowEvent(name, row, payload)`: what a write says of the row it wrote. */
export const emitRowEvent = <N extends EventName>(tx: Queryable, name: N, row: { id: number; schoolId: number }, payload: EventPayload<N>) =>
  emitEvent(tx, rowEvent(name, row, payload));

/**
 * A consumer of the outbox that writes in the events' own statement: a data-modifying statement
 * reading the CTE `inserted` (id, school_id, name, subject_id, recipient_id), run as the CTE `name`.
 * Consumers register themselves (webhooks/webhook.fanout.ts) so the producer knows none of them;
 * running in the same statement keeps them in the write's transaction: a change rolled back leaves
 * no trace in any of them.
 */
export interface OutboxSubscriber {
  name: string;
  statement: () => SQL;
}

const subscribers = new Map<string, OutboxSubscriber>();

/** Registers `subscriber` for every event written from now on (once per name: a module loaded twice registers once). */
export function subscribeToOutbox(subscriber: OutboxSubscriber): void {
  // The name is spliced into the statement as a CTE name: a plain identifier, not one this file uses.
  if (!/^[a-z][a-z_]*$/.test(subscriber.name) || subscriber.name === 'inserted') throw new Error(`Bad outbox subscriber name: ${subscriber.name}`);
  subscribers.set(subscriber.name, subscriber);
}

/**
 * A consumer that must run code, not one statement, in the events' transaction (a mail rendered
 * from templates): called after the events' statement with the events written, in the caller's
 * transaction, so a change rolled back leaves nothing. It should pick its events by name and read
 * nothing for the others. Registered by the consumer (mail/mail.consumer.ts); once per name.
 */
export type TransactionConsumer = (tx: Queryable, events: readonly DomainEvent[]) => Promise<void>;
const transactionConsumers = new Map<string, TransactionConsumer>();
export function consumeInTransaction(name: string, consumer: TransactionConsumer): void {
  transactionConsumers.set(name, consumer);
}

/** The names of the outbox's subscribers (a test checks that the webhooks' is there once the modules load). */
export const outboxSubscribers = (): string[] => [...subscribers.keys()];

/**
 * Several events in one statement (a batch write emits one per row): the outbox rows, what each
 * subscriber writes of them (subscribeToOutbox) and the NOTIFY that feeds subscriptions
 * (event-bus.ts), all in the caller's transaction.
 */
export async function emitEvents(tx: Queryable, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const e = domainEvents;
  const inserted = tx
    .insert(e)
    .values(events.map((event) => ({ ...event, payload: event.payload ?? {} })))
    .returning({ id: e.id, schoolId: e.schoolId, name: e.name, subjectId: e.subjectId, recipientId: recipientColumn(e.name, e.payload) });
  const consumers = [...subscribers.values()].map((s) => sql`, ${sql.raw(s.name)} as (${s.statement()})`);
  await tx.execute(sql`with inserted as (${inserted.getSQL()})${sql.join(consumers)} ${eventSignals()}`);
  for (const consume of transactionConsumers.values()) await consume(tx, events);
}
