import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/**
 * How the outbox reaches the GraphQL subscriptions of every instance: the transaction that writes
 * events also NOTIFYs `domain_events` (PostgreSQL delivers a NOTIFY at commit, and never for a
 * transaction rolled back), each process LISTENs once (PostgreSQL: one dedicated connection; the
 * embedded database: in process) and fans the signals out to its subscribers, which load the rows
 * they show with their own credential's scope.
 */
export const EVENTS_CHANNEL = 'domain_events';

/** What a NOTIFY says of one outbox row: enough to route it. Subscribers load what they show. */
export interface EventSignal {
  id: number;
  schoolId: number;
  name: string;
  subjectId: number | null;
}

/**
 * The NOTIFY of every event just written, reading the CTE `inserted` (id, school_id, name,
 * subject_id): it runs in the events' own statement (events/events.ts), so it is sent at commit
 * and never for a transaction rolled back.
 */
export function eventSignals(): SQL {
  return sql`select pg_notify(${EVENTS_CHANNEL}, json_build_object('id', inserted.id, 'school_id', inserted.school_id, 'name', inserted.name, 'subject_id', inserted.subject_id)::text) from inserted`;
}

function parseSignal(payload: string): EventSignal | null {
  try {
    const raw = JSON.parse(payload) as Record<string, unknown>;
    if (!Number.isSafeInteger(raw.id) || !Number.isSafeInteger(raw.school_id) || typeof raw.name !== 'string') return null;
    return { id: raw.id as number, schoolId: raw.school_id as number, name: raw.name, subjectId: Number.isSafeInteger(raw.subject_id) ? (raw.subject_id as number) : null };
  } catch {
    return null;
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
   * The signals of `schoolId` (null: of every school, for the platform reading across schools)
   * that `wanted` accepts, from the moment this resolves (the process is listening by then).
   */
  async signals(schoolId: number | null, wanted: (signal: EventSignal) => boolean): Promise<AsyncIterableIterator<EventSignal>> {
    if (this.stopped) throw new Error('The service is stopping');
    await this.start();
    const feed = new SignalFeed((s) => (schoolId === null || s.schoolId === schoolId) && wanted(s), (f) => this.feeds.delete(f));
    this.feeds.add(feed);
    return feed;
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
