import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp, subscriptionServers } from '../src/app.js';
import { digestToken } from '../src/auth/credential.js';
import { type Database, openDatabase } from '../src/db/client.js';
import type { SocketLimits } from '../src/graphql/socket-registry.js';
import { apiTokens } from '../src/auth/api-token.table.js';
import { notify } from '../src/modules/notifications/notification.notify.js';
import { rateLimitBuckets } from '../src/http/rate-limit.table.js';
import { fixtures } from './support/messages.fixtures.js';
import { type Service, startService, type TestSchool } from './support/service.js';

/**
 * Sockets live under the rules of requests: a revoked token or a canceled school closes the
 * sockets that hold it on every instance as the change commits (two instances over one database,
 * each with its own pool and LISTEN connection on PostgreSQL); subscribe frames pay the rate
 * limit's buckets; credentials and addresses hold a bounded number of sockets; a socket without a
 * credential does not stay. Real sockets (the `ws` client speaking graphql-transport-ws), real database.
 */

const NOTIFICATIONS = 'subscription { notificationReceived { id userId text } }';
const EVENTS = 'subscription { events { id name } }';

interface Closed {
  code: number;
  reason: string;
  at: number;
}

/** A raw graphql-transport-ws socket: what it received, and how it closed. */
class Socket {
  readonly messages: any[] = [];
  closed: Closed | undefined;
  readonly done: Promise<Closed>;
  private ids = 0;

  constructor(
    readonly ws: WebSocket,
    readonly opened: Promise<void>,
  ) {
    ws.on('message', (data) => this.messages.push(JSON.parse(String(data))));
    this.done = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: String(reason), at: Date.now() };
        resolve(this.closed);
      }),
    );
  }

  static connect(url: string, headers: Record<string, string> = {}): Socket {
    const ws = new WebSocket(url, 'graphql-transport-ws', { headers });
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk));
        response.on('end', () => reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode, body })));
      });
    });
    return new Socket(ws, opened);
  }

  send(message: object) {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends connection_init with `payload` and waits for the ack (or the close). */
  async init(payload: Record<string, unknown> = {}) {
    await this.opened;
    this.send({ type: 'connection_init', payload });
    await until(() => this.closed !== undefined || this.messages.some((m) => m.type === 'connection_ack'), 'the connection ack');
  }

  /** Sends a subscribe frame; returns its id. */
  subscribe(query: string, extensions?: Record<string, unknown>, variables?: Record<string, unknown>): string {
    const id = String(++this.ids);
    this.send({ id, type: 'subscribe', payload: { query, variables, ...(extensions ? { extensions } : {}) } });
    return id;
  }

  of(id: string) {
    return this.messages.filter((m) => m.id === id);
  }

  /** The first error or next frame of subscription `id`. */
  async answer(id: string) {
    await until(() => this.closed !== undefined || this.of(id).some((m) => m.type !== 'complete'), `an answer to ${id}`);
    return this.of(id).find((m) => m.type !== 'complete');
  }

  close() {
    this.ws.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('subscription sockets under the rules of requests', () => {
  let service: Service;
  let f: ReturnType<typeof fixtures>;
  let school: TestSchool;
  /** A second pool over the same database on PostgreSQL (with its own LISTEN connection), the same database object on PGlite. */
  let secondDatabase: Database;
  /** The second instance: it hears of a change only through the NOTIFY. */
  let second: FastifyInstance;
  const urls: string[] = [];
  const sockets: Socket[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    service = await startService();
    f = fixtures(service);
    school = await service.school('Sockets School');
    secondDatabase = service.databaseUrl ? await openDatabase({ url: service.databaseUrl, maxConnections: 3 }) : service.database;
    second = await createApp({ database: secondDatabase, rateLimit: { enabled: false } });
    for (const app of [service.app, second]) urls.push(`${(await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const app of apps) await app.close();
    await second?.close();
    if (secondDatabase && secondDatabase !== service.database) await secondDatabase.close();
    await service?.stop();
  });

  const open = (url: string, headers?: Record<string, string>) => {
    const socket = Socket.connect(url, headers);
    sockets.push(socket);
    return socket;
  };
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const subscribersOf = (app: FastifyInstance) => subscriptionServers.get(app)!.events.subscribers;

  /** A socket of `token` on instance `url`, subscribed to `query`, listening once the instance counts it. */
  async function listening(app: FastifyInstance, url: string, token: string, query = NOTIFICATIONS, headers: Record<string, string> = {}) {
    const socket = open(url);
    await socket.init({ ...bearer(token), ...headers });
    const before = subscribersOf(app);
    const id = socket.subscribe(query);
    await until(() => subscribersOf(app) > before || socket.of(id).length > 0, 'the subscription');
    expect(socket.of(id)).toEqual([]);
    return { socket, id };
  }

  /** An app of its own over the service's database, listening, with these limits. */
  async function appWith(options: { sockets?: Partial<SocketLimits>; rateLimit?: Parameters<typeof createApp>[0]['rateLimit']; trustProxy?: boolean }) {
    const app = await createApp({ database: service.database, now: service.clock.now, rateLimit: options.rateLimit ?? { enabled: false }, sockets: options.sockets, trustProxy: options.trustProxy });
    apps.push(app);
    const url = `${(await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
    return { app, url };
  }

  async function newToken(role: 'student' | 'app' | 'admin', userId?: number) {
    const res = await service.platform.graphql(
      'mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token apiToken { id } errors { code } } }',
      { input: { role, schoolId: String(school.id), ...(userId ? { userId: String(userId) } : {}) } },
    );
    expect(res.data.createApiToken.errors).toEqual([]);
    return { token: res.data.createApiToken.token as string, id: res.data.createApiToken.apiToken.id as string };
  }

  it('a revoked token closes its sockets with 4401 within a second, on the instance that revoked it and on the other, per-operation credentials too', async () => {
    const student = await f.person(school, 'Student');
    const { token, id } = await newToken('student', student.id);
    const here = await listening(service.app, urls[0], token);
    const there = await listening(second, urls[1], token);
    // A playground-style socket: no credential at connection_init, the token in one subscription's extensions.headers.
    const perOperation = open(urls[1]);
    await perOperation.init({});
    const before = subscribersOf(second);
    perOperation.subscribe(NOTIFICATIONS, { headers: bearer(token) });
    await until(() => subscribersOf(second) > before, 'the per-operation subscription');
    // A socket of another credential stays.
    const bystander = await listening(service.app, urls[0], (await f.studentClient(school, student.id)).client.token!);

    const started = Date.now();
    const revoked = await service.platform.graphql('mutation ($id: ID!) { revokeApiToken(id: $id) { apiToken { revokedAt } errors { code } } }', { id });
    expect(revoked.data.revokeApiToken.errors).toEqual([]);
    const closes = await Promise.all([here.socket.done, there.socket.done, perOperation.done]);
    for (const closed of closes) {
      expect(closed).toMatchObject({ code: 4401, reason: 'The credential is not valid' });
      expect(closed.at - started).toBeLessThan(1000);
    }
    console.info(`revocation closed its sockets in ${closes.map((c) => c.at - started).join(', ')} ms (this instance, the other, per operation)`);

    // Nothing more reaches anyone through that token; the bystander still hears its notifications.
    await service.db.transaction((tx) => notify(tx, school.id, [{ userId: student.id, text: 'after revocation', url: null }]));
    await until(() => bystander.socket.of(bystander.id).length === 1, 'the bystander');
    expect(bystander.socket.closed).toBeUndefined();
    // A new socket with the token is refused at connection_init.
    const again = open(urls[1]);
    await again.init(bearer(token));
    expect((await again.done).code).toBe(4401);
  });

  it('a canceled school closes its student, app and admin sockets with 4403 within a second on both instances; a suspended one keeps them (subscriptions only read)', async () => {
    const doomed = await service.school('Sockets Doomed');
    const other = await service.school('Sockets Other');
    const student = await f.studentClient(doomed);
    const app = await service.token('app', doomed.id);
    const update = 'mutation ($id: ID!, $event: SchoolEvent!) { updateSchool(id: $id, input: { event: $event }) { school { status } errors { code } } }';
    const event = async (id: number, name: string) => {
      const res = await service.platform.graphql(update, { id: String(id), event: name });
      expect(res.data.updateSchool.errors).toEqual([]);
    };
    await event(doomed.id, 'active');

    const held = [
      await listening(service.app, urls[0], student.client.token!),
      await listening(second, urls[1], student.client.token!),
      await listening(service.app, urls[0], app.token!, EVENTS),
      await listening(second, urls[1], app.token!, EVENTS),
      await listening(second, urls[1], doomed.admin.token!, NOTIFICATIONS),
    ];
    const otherSchool = await listening(second, urls[1], other.admin.token!, EVENTS);

    // Suspended: its credentials may only read, and a subscription reads; nothing closes.
    await event(doomed.id, 'suspend');
    await sleep(300);
    expect(held.map((o) => o.socket.closed)).toEqual(held.map(() => undefined));
    await event(doomed.id, 'active');

    const started = Date.now();
    await event(doomed.id, 'cancel');
    const closes = await Promise.all(held.map((o) => o.socket.done));
    for (const closed of closes) {
      expect(closed).toMatchObject({ code: 4403, reason: 'The school is canceled: its credentials may do nothing' });
      expect(closed.at - started).toBeLessThan(1000);
    }
    console.info(`cancellation closed its sockets in ${closes.map((c) => c.at - started).join(', ')} ms`);
    // Another school's socket stays and hears its own events.
    const otherStudent = await f.person(other, 'Student');
    await service.db.transaction((tx) => notify(tx, other.id, [{ userId: otherStudent.id, text: 'still here', url: null }]));
    await until(() => otherSchool.socket.of(otherSchool.id).length === 1, "the other school's event");
    expect(otherSchool.socket.closed).toBeUndefined();
    // A new socket of the canceled school is closed at connection_init.
    const again = open(urls[1]);
    await again.init(bearer(student.client.token!));
    expect(await again.done).toMatchObject({ code: 4403 });
  });

  it('a subscribe frame after an announced change waits for the recheck: a credential revoked meanwhile is refused and its socket closed', async () => {
    const student = await f.person(school, 'Student');
    const { token } = await newToken('student', student.id);
    const { socket } = await listening(service.app, urls[0], token);
    // Revoked by hand: no NOTIFY, so nothing is read again yet, and the socket stays.
    await service.db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.tokenDigest, digestToken(token)));
    await sleep(100);
    expect(socket.closed).toBeUndefined();
    // A change is announced (as credentials_changed does) but not read yet: the next frame waits for the read.
    const registry = subscriptionServers.get(service.app)!.sockets;
    registry.generation += 1;
    const id = socket.subscribe(NOTIFICATIONS);
    expect((await socket.done).code).toBe(4401);
    expect(socket.of(id)).toEqual([]);
  });

  it('a token changed by hand in SQL is read again at the periodic recheck, or at once on `select pg_notify(credentials_changed)`', async () => {
    const { app, url } = await appWith({ sockets: { recheckEveryMs: 300 } });
    const [a, b] = [await newToken('admin'), await newToken('admin')];
    const first = await listening(app, url, a.token, EVENTS);
    await service.db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.tokenDigest, digestToken(a.token)));
    expect((await first.socket.done).code).toBe(4401);

    const later = await listening(second, urls[1], b.token, EVENTS);
    await service.db.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.tokenDigest, digestToken(b.token)));
    await service.db.execute(sql`select pg_notify('credentials_changed', '')`);
    expect((await later.socket.done).code).toBe(4401);
  });

  it('one credential holds at most WS_MAX_SOCKETS_PER_CREDENTIAL sockets: the next is closed with 4429, per-operation use counts, and a closed one frees its place', async () => {
    const { app, url } = await appWith({ sockets: { maxPerCredential: 2 } });
    const { token } = await newToken('admin');
    const kept = [await listening(app, url, token, EVENTS), await listening(app, url, token, EVENTS)];
    const third = open(url);
    await third.init(bearer(token));
    expect(await third.done).toMatchObject({ code: 4429, reason: 'Too many sockets for this credential (at most 2)' });
    // The same token in a subscription's own headers, on a socket without a credential, is a third socket too.
    const playground = open(url);
    await playground.init({});
    const refused = await playground.answer(playground.subscribe(EVENTS, { headers: bearer(token) }));
    expect(refused).toMatchObject({ type: 'error', payload: [{ message: 'Too many sockets for this credential (at most 2)', extensions: { code: 'TOO_MANY_SOCKETS' } }] });
    // Another credential is not counted with it.
    const other = await listening(app, url, (await newToken('admin')).token, EVENTS);
    expect(other.socket.closed).toBeUndefined();
    // One closes: its place is free.
    kept[0].socket.close();
    await kept[0].socket.done;
    await until(() => subscriptionServers.get(app)!.sockets.size === 3, 'the close to be counted');
    const fourth = await listening(app, url, token, EVENTS);
    expect(fourth.socket.closed).toBeUndefined();
  });

  it('one client address holds at most WS_MAX_SOCKETS_PER_ADDRESS sockets: the next upgrade is a 429; behind a trusted proxy each client counts alone', async () => {
    const { app, url } = await appWith({ sockets: { maxPerAddress: 3 } });
    const three = [open(url), open(url), open(url)];
    await Promise.all(three.map((s) => s.opened));
    const fourth = open(url);
    const refused = await fourth.opened.then(
      () => null,
      (error) => error,
    );
    expect(refused).toMatchObject({ status: 429 });
    expect(JSON.parse(refused.body)).toEqual({ errors: [{ message: 'Too many sockets from this address (at most 3)', extensions: { code: 'TOO_MANY_SOCKETS' } }] });
    three[0].close();
    await three[0].done;
    await until(() => subscriptionServers.get(app)!.sockets.size === 2, 'the close to be counted');
    await open(url).opened;

    // Behind a trusted proxy, the client named in X-Forwarded-For is the address: each has 3.
    const proxied = await appWith({ sockets: { maxPerAddress: 3 }, trustProxy: true });
    const client = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
    await Promise.all([1, 1, 1, 2, 2, 2].map((n) => open(proxied.url, client(n)).opened));
    for (const n of [1, 2]) await expect(open(proxied.url, client(n)).opened).rejects.toMatchObject({ status: 429 });
    await open(proxied.url, client(3)).opened;
  });

  it('a socket that does not authenticate within WS_CONNECTION_INIT_TIMEOUT_MS is closed; one whose subscription holds a credential stays until it ends', async () => {
    const { url } = await appWith({ sockets: { authenticateWithinMs: 300 } });
    // Says nothing: graphql-ws closes it (4408).
    const silent = open(url);
    await silent.opened;
    const started = Date.now();
    expect(await silent.done).toMatchObject({ code: 4408 });
    expect(Date.now() - started).toBeLessThan(1000);
    // Connects without a credential and holds nothing: 4401.
    const bare = open(url);
    await bare.init({});
    expect(await bare.done).toMatchObject({ code: 4401, reason: "Authenticate within 300 ms: a credential in connection_init, or in a subscription's extensions.headers" });
    // A playground tab: its subscription carries the credential; the socket stays while it runs.
    const tab = open(url);
    await tab.init({});
    const id = tab.subscribe(EVENTS, { headers: bearer(school.admin.token!) });
    await sleep(600);
    expect(tab.closed).toBeUndefined();
    tab.send({ id, type: 'complete' });
    expect(await tab.done).toMatchObject({ code: 4401 });
    // With a credential at connection_init, nothing closes it.
    const authenticated = open(url);
    await authenticated.init(bearer(school.admin.token!));
    await sleep(600);
    expect(authenticated.closed).toBeUndefined();
  });

  describe('subscribe frames pay the rate limit of requests', () => {
    const limits = { enabled: true, capacity: 3, refillPerSecond: 0.5, anonymousCapacity: 2, anonymousRefillPerSecond: 0.5 };

    it('a credential shares one bucket between its HTTP requests and its subscribe frames, across instances; a refused frame is RATE_LIMITED with retryAfter, is not parsed, and the socket stays', async () => {
      const one = await appWith({ rateLimit: limits });
      const two = await appWith({ rateLimit: limits });
      const { token } = await newToken('admin');
      const http = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/schools', headers: { authorization: `Bearer ${token}` } });
      expect((await http(one.app)).statusCode).toBe(200);
      const socket = open(one.url);
      // The second token of the bucket: connection_init; the third: the first frame, which runs.
      await socket.init(bearer(token));
      const first = socket.subscribe(EVENTS);
      await until(() => subscribersOf(one.app) === 1, 'the subscription');
      // The bucket is empty: a frame is refused before it is parsed (this one does not parse).
      const refused = await socket.answer(socket.subscribe('subscription { not valid'));
      expect(refused).toEqual({ id: '2', type: 'error', payload: [{ message: 'Too many requests: retry in 2 seconds', extensions: { code: 'RATE_LIMITED', retryAfter: 2 } }] });
      expect((await http(two.app)).statusCode).toBe(429);
      expect(socket.closed).toBeUndefined();
      expect(socket.of(first)).toEqual([]);
      // connection_init resolves the credential as a request does, and pays as one: no token left, no new socket.
      const refusedSocket = open(two.url);
      await refusedSocket.init(bearer(token));
      expect(await refusedSocket.done).toMatchObject({ code: 4429, reason: 'Too many requests: retry in 2 seconds' });
      // Four seconds later two tokens are back: a socket and a frame on the other instance run.
      service.clock.set(new Date(service.clock.now().getTime() + 4000));
      const other = open(two.url);
      await other.init(bearer(token));
      other.subscribe(EVENTS);
      await until(() => subscribersOf(two.app) === 1, 'the subscription on the other instance');
      const [bucket] = await service.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, `credential:${digestToken(token)}`));
      expect(bucket.tokens).toBeLessThan(1);
    });

    it('a socket without a credential pays the bucket of its address, which HTTP requests of that address share', async () => {
      const { app, url } = await appWith({ rateLimit: limits });
      // Buckets are shared: start this address's afresh.
      await service.db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, 'address:127.0.0.1'));
      const socket = open(url);
      await socket.init({});
      const first = await socket.answer(socket.subscribe(NOTIFICATIONS));
      expect(first).toMatchObject({ type: 'next', payload: { errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] } });
      const second = await socket.answer(socket.subscribe(NOTIFICATIONS));
      expect(second.payload[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: 2 });
      expect((await app.inject({ method: 'GET', url: '/schools', remoteAddress: '127.0.0.1' })).statusCode).toBe(429);
    });
  });
});
