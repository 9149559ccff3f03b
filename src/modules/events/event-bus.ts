import DataLoader from 'dataloader';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { EVENT_NAMES, recipientField } from './catalog.js';

/**
 * How the outbox reaches the GraphQL subscriptions of every instance: the transaction that writes
 * events also NOTIFYs `domain_events` (PostgreSQL delivers a NOTIFY at commit, and never for a
 * transaction rolled back), each process LISTENs once (PostgreSQL: one dedicated connection; the
 * embedded database: in process) and fans the signals out to its subscribers. A signal says enough
 * to route it without a read (its school, name, subject and, for an event addressed to one user,
 * that user); what subscribers then read of an event is read once per instance and shared
 * (SharedReads), each subscriber checking the shared row against its own credential's scope.
 */
export const EVENTS_CHANNEL = 'domain_events';

/** What a NOTIFY says of one outbox row: enough to route it. Subscribers load what they show. */
export interface EventSignal {
  id: number;
  schoolId: number;
  name: string;
  subjectId: number | null;
  /** The user the event is addressed to (the catalog's `recipient` field of its payload), or null. */
  recipientId: number | null;
}

/**
 * The user each event written is addressed to, as the column `recipient_id` of the events'
 * RETURNING: the payload field the catalog names `recipient` for the event's name, when it holds an
 * id (anything else reads null: a signal then routes as if it had no recipient).
 */
export function recipientColumn(name: PgColumn, payload: PgColumn): SQL.Aliased<number | null> {
  const cases = EVENT_NAMES.flatMap((event) => {
    const field = recipientField(event);
    if (!field) return [];
    // Literals, not parameters: `->>` takes a text or an int, and the catalog's names are constants.
    if (!/^[a-z_.]+$/.test(event) || !/^[A-Za-z_]+$/.test(field)) throw new Error(`Unexpected event or field name: ${event} ${field}`);
    return [sql`when ${sql.raw(`'${event}'`)} then ${payload} ->> ${sql.raw(`'${field}'`)}`];
  });
  if (cases.length === 0) return sql<number | null>`null::int`.as('recipient_id');
  const text = sql`(case ${name} ${sql.join(cases, sql` `)} end)`;
  return sql<number | null>`case when ${text} ~ '^[0-9]{1,9}$' then ${text}::int end`.as('recipient_id');
}

/**
 * The NOTIFY of every event just written, reading the CTE `inserted` (id, school_id, name,
 * subject_id, recipient_id): it runs in the events' own statement (events/events.ts), so it is sent
 * at commit and never for a transaction rolled back.
 */
export function eventSignals(): SQL {
  return sql`select pg_notify(${EVENTS_CHANNEL}, json_build_object('id', inserted.id, 'school_id', inserted.school_id, 'name', inserted.name, 'subject_id', inserted.subject_id, 'recipient_id', inserted.recipient_id)::text) from inserted`;
}

const idOrNull = (value: unknown) => (Number.isSafeInteger(value) ? (value as number) : null);

function parseSignal(payload: string): EventSignal | null {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown>;
    if (!Number.isSafeInteger(raw.id) || !Number.isSafeInteger(raw.school_id) || typeof raw.name !== 'string') return null;
    return { id: raw.id as number, schoolId: raw.school_id as number, name: raw.name, subjectId: idOrNull(raw.subject_id), recipientId: idOrNull(raw.recipient_id) };
  } catch {
    return null;
  }
}

/**
 * What the subscribers of one signal read of it, read once on this instance: the first subscriber
 * that asks runs the read and the others share its result, whatever their number. `once` shares a
 * read (the event's row); `batch` gathers the keys subscribers ask in the same tick into one read
 * (a check that depends on each subscriber, like a student's enrollment). It lives as long as a
 * subscriber still holds the signal; a failed read is not kept, so the next subscriber tries again.
 */
export class SharedReads {
  private readonly reads = new Map<string, Promise<unknown>>();
  private readonly batches = new Map<string, DataLoader<unknown, unknown>>();

  once<T>(key: string, read: () => PromiseLike<T>): Promise<T> {
    const known = this.reads.get(key) as Promise<T> | undefined;
    if (known) return known;
    // One promise of the read: a query builder is a thenable that would run again for each `await`.
    const promise = new Promise<T>((resolve) => resolve(read()));
    this.reads.set(key, promise);
    promise.catch(() => {
      if (this.reads.get(key) === promise) this.reads.delete(key);
    });
    return promise;
  }

  batch<K, V>(key: string, read: (keys: readonly K[]) => Promise<readonly V[]>): DataLoader<K, V> {
    let loader = this.batches.get(key) as DataLoader<K, V> | undefined;
    if (!loader) {
      loader = new DataLoader<K, V>(read);
      this.batches.set(key, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  }
}

/** Signals a subscriber may hold unread before it is dropped (a client that stopped reading). */
const MAX_PENDING = 1000;

/**
 * A subscriber's queue of signals, as an async iterator whose `return()` ends it at once (also
 * while a `next()` waits), which an async generator cannot do.
 */
class SignalFeed implements AsyncIterableIterator<EventSignal> {
  private queue: EventSignal[] = [];
  private waiting: ((result: IteratorResult<EventSignal>) => void) | undefined;
  private failure: ((error: Error) => void) | undefined;
  private done = false;
  private error: Error | undefined;

  constructor(
    readonly wanted: (signal: EventSignal) => boolean,
    private readonly onEnd: (feed: SignalFeed) => void,
  ) {}

  push(signal: EventSignal) {
    if (this.done || !this.wanted(signal)) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failure = undefined;
      resolve({ value: signal, done: false });
    } else if (this.queue.length >= MAX_PENDING) {
      this.error = new Error('The subscriber fell too far behind; subscribe again');
      this.end();
    } else this.queue.push(signal);
  }

  next(): Promise<IteratorResult<EventSignal>> {
    if (this.queue.length) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.error) return Promise.reject(this.error);
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failure = reject;
    });
  }

  return(): Promise<IteratorResult<EventSignal>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error: unknown): Promise<IteratorResult<EventSignal>> {
    this.end();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  private end() {
    if (this.done) return;
    this.done = true;
    this.queue = [];
    this.onEnd(this);
    const [resolve, reject] = [this.waiting, this.failure];
    this.waiting = this.failure = undefined;
    if (this.error) reject?.(this.error);
    else resolve?.({ value: undefined, done: true });
  }
}

/**
 * One process's end of the channel: it LISTENs on first use and hands each signal to the
 * subscribers that want it. Instances share nothing but the database: a change committed through
 * any instance reaches the subscribers of all of them.
 */
export class EventBus {
  private readonly feeds = new Set<SignalFeed>();
  /** Each signal's shared reads, for as long as some subscriber holds the signal (every feed gets the same object). */
  private readonly shares = new WeakMap<EventSignal, SharedReads>();
  private listening: Promise<() => Promise<void>> | undefined;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: (error: unknown) => void = () => {},
  ) {}

  /** How many subscribers this process feeds (tests wait for a subscription to be in place). */
  get subscribers(): number {
    return this.feeds.size;
  }

  /**
   * The signals `wanted` accepts (the subscriber's scope among them: graphql/subscriptions.ts), from
   * the moment this resolves (the process is listening by then).
   */
  async signals(wanted: (signal: EventSignal) => boolean): Promise<AsyncIterableIterator<EventSignal>> {
    if (this.stopped) throw new Error('The service is stopping');
    await this.start();
    const feed = new SignalFeed(wanted, (f) => this.feeds.delete(f));
    this.feeds.add(feed);
    return feed;
  }

  /** The reads the subscribers of `signal` share on this instance. */
  shared(signal: EventSignal): SharedReads {
    let reads = this.shares.get(signal);
    if (!reads) this.shares.set(signal, (reads = new SharedReads()));
    return reads;
  }

  private start() {
    this.listening ??= this.database.listen(EVENTS_CHANNEL, (payload) => this.receive(payload)).catch((error) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private receive(payload: string) {
    const signal = parseSignal(payload);
    if (!signal) return this.log(new Error(`Unreadable ${EVENTS_CHANNEL} notification: ${payload.slice(0, 200)}`));
    for (const feed of this.feeds) feed.push(signal);
  }

  /** Ends every subscriber's feed and stops listening (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const feed of [...this.feeds]) await feed.return();
    const listening = this.listening;
    this.listening = undefined;
    if (listening) await (await listening.catch(() => async () => {}))().catch(this.log);
  }
}
