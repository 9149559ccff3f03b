/**
 * The mixed load of the cluster run and the soak, through HAProxy: course writes (each acknowledged
 * one remembered, to be counted in the database afterwards), reads of them (GraphQL and REST, retried
 * as a client retries an idempotent request), webhook deliveries to a receiver on loopback (counted
 * by webhook-id) and a few event subscriptions.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { COURSE, CREATE_COURSE, gql, must } from './client.js';

export interface Window {
  requests: number;
  reads: number;
  writes: number;
  failedReads: number;
  failedWrites: number;
  /** Latency of each successful request, ms. */
  latencies: number[];
  /** When each failure happened (ms since the load began) and why. */
  failures: { at: number; kind: 'read' | 'write'; why: string }[];
  /** Reads that succeeded only when tried again: why their first try failed. */
  retried: string[];
}

const emptyWindow = (): Window => ({ requests: 0, reads: 0, writes: 0, failedReads: 0, failedWrites: 0, latencies: [], failures: [], retried: [] });

/** A receiver of webhooks on loopback: every delivery counted by its webhook-id. */
export class WebhookReceiver {
  readonly deliveries = new Map<string, number>();
  private server: Server = createServer((request, response) => {
    const id = String(request.headers['webhook-id'] ?? '');
    request.resume();
    request.on('end', () => {
      this.deliveries.set(id, (this.deliveries.get(id) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  url = '';

  async start() {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  /** Deliveries of an event beyond its first. */
  duplicates(): number {
    let extra = 0;
    for (const n of this.deliveries.values()) extra += n - 1;
    return extra;
  }
  stop() {
    this.server.closeAllConnections();
    this.server.close();
  }
}

export class MixedLoad {
  /** Every write the service acknowledged: course id → name. */
  readonly acknowledged = new Map<string, string>();
  window = emptyWindow();
  readonly started = performance.now();
  private running = false;
  private loops: Promise<void>[] = [];
  private sequence = 0;
  private subscriptions: Client[] = [];
  /** Events received by the subscriptions, by event id. */
  readonly subscribed = new Map<string, number>();
  inFlight = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly options: { concurrency: number; writeShare: number; label: string },
  ) {}

  /** Starts the loops (and `subscriptions` event subscriptions through the balancer). */
  async start(subscriptions = 0) {
    this.running = true;
    for (let i = 0; i < subscriptions; i++) this.subscribe();
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop(i));
  }

  private subscribe() {
    const client = createClient({
      url: this.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${this.token}` },
      // A socket on an instance that died is opened again (through the balancer: on another).
      retryAttempts: Infinity,
      shouldRetry: () => true,
      retryWait: async () => sleep(200),
      lazy: false,
    });
    this.subscriptions.push(client);
    client.subscribe<{ events: { id: string } }>(
      { query: 'subscription { events(names: [COURSE_CREATED]) { id } }' },
      {
        next: (value) => {
          const id = value.data?.events.id;
          if (id) this.subscribed.set(id, (this.subscribed.get(id) ?? 0) + 1);
        },
        error: () => {},
        complete: () => {},
      },
    );
  }

  /** The window so far, and a new one from now. */
  take(): Window {
    const window = this.window;
    this.window = emptyWindow();
    return window;
  }

  private fail(kind: 'read' | 'write', why: string) {
    if (kind === 'read') this.window.failedReads += 1;
    else this.window.failedWrites += 1;
    this.window.failures.push({ at: Math.round(performance.now() - this.started), kind, why: why.slice(0, 200) });
  }

  private async loop(worker: number) {
    const ids: string[] = [];
    while (this.running) {
      const write = ids.length === 0 || Math.random() < this.options.writeShare;
      const began = performance.now();
      this.window.requests += 1;
      this.inFlight += 1;
      try {
        if (write) {
          this.window.writes += 1;
          const name = `${this.options.label} ${worker}-${this.sequence++}`;
          // A write is not retried: it may have committed before its reply was lost.
          try {
            const id = (await must(this.url, this.token, CREATE_COURSE, { input: { name } })).createCourse.course.id as string;
            this.acknowledged.set(id, name);
            ids.push(id);
            if (ids.length > 50) ids.shift();
            this.window.latencies.push(performance.now() - began);
          } catch (error) {
            this.fail('write', String((error as Error).message));
          }
        } else {
          this.window.reads += 1;
          const id = ids[Math.floor(Math.random() * ids.length)];
          const expected = this.acknowledged.get(id);
          // An idempotent read is retried (three times, 200 ms apart), as a client would.
          let last = '';
          let done = false;
          for (let attempt = 0; attempt < 4 && !done; attempt++) {
            if (attempt) await sleep(200);
            try {
              const name =
                worker % 2
                  ? (await gql(this.url, this.token, COURSE, { id })).data?.course?.name
                  : await fetch(`${this.url}/courses/${id}`, { headers: { authorization: `Bearer ${this.token}` }, signal: AbortSignal.timeout(60_000) }).then(async (r) =>
                      r.status === 200 ? ((await r.json()) as { name: string }).name : `status ${r.status}`,
                    );
              if (name === expected) done = true;
              else last = `read ${id}: got ${name}`;
            } catch (error) {
              last = String((error as Error).message);
            }
          }
          if (done && last) this.window.retried.push(`${Math.round(performance.now() - began)} ms: ${last.slice(0, 160)}`);
          if (done) this.window.latencies.push(performance.now() - began);
          else this.fail('read', last);
        }
      } finally {
        this.inFlight -= 1;
      }
    }
  }

  async stop() {
    this.running = false;
    await Promise.all(this.loops);
    for (const client of this.subscriptions) await client.dispose();
  }
}

/** p-th percentile (0..100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Webhooks of course.created to `receiver` for the school of `admin`. */
export async function subscribeWebhooks(url: string, admin: string, schoolId: string, receiver: WebhookReceiver) {
  await must(url, admin, `mutation ($input: IntegrationInput!) { createIntegration(input: $input) { integration { id } errors { field code message } } }`, {
    input: { ownerType: 'School', ownerId: schoolId, type: 'webhook', metadata: { events: ['course.created'] }, metaconfig: { url: receiver.url } },
  });
}
