import { createClient, type Client as WsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { createApp, subscriptionServers } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { notify } from '../src/modules/notifications/notification.notify.js';
import { fixtures } from './support/messages.fixtures.js';
import { type Client, type Service, startService, type TestSchool } from './support/service.js';

/**
 * GraphQL subscriptions over WebSocket (graphql-ws) at /graphql of a listening service: fed from
 * the outbox at commit, authorized as queries are (credential, role matrix, tenancy, limits).
 */
describe('GraphQL subscriptions over WebSocket', () => {
  let service: Service;
  let url: string;
  let a: TestSchool;
  let b: TestSchool;
  let f: ReturnType<typeof fixtures>;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    service = await startService();
    url = `${(await service.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
    f = fixtures(service);
    a = await service.school('Subscriptions A');
    b = await service.school('Subscriptions B');
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await service?.stop();
  });

  const tokenOf = (client: Client) => client.token!;
  const subscribers = () => subscriptionServers.get(service.app)!.events.subscribers;

  async function until(check: () => boolean, what: string, ms = 5000) {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  function connect(connectionParams: Record<string, unknown>): WsClient {
    const client = createClient({ url, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
    clients.push(client);
    return client;
  }

  /** A subscription whose results collect in `results`; resolves once the service listens for it (or it ended). */
  async function subscribe(client: WsClient, query: string, variables?: Record<string, unknown>) {
    const results: any[] = [];
    const state = { done: false, error: undefined as unknown };
    const before = subscribers();
    const stop = client.subscribe(
      { query, variables },
      { next: (r) => results.push(r), error: (e) => ((state.error = e), (state.done = true)), complete: () => (state.done = true) },
    );
    await until(() => state.done || subscribers() > before, 'the subscription to start');
    return { results, state, stop, next: (n: number) => until(() => results.length >= n, `${n} result(s) of ${query}`) };
  }

  const asBearer = (client: Client, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${tokenOf(client)}`, ...extra });
  const NOTIFICATIONS = `subscription ($userId: ID) { notificationReceived(userId: $userId) { id userId text schoolId } }`;

  async function createNotification(school: TestSchool, studentId: number, text: string) {
    const res = await school.admin.graphql(
      `mutation ($id: ID!, $text: String) { createNotification(studentId: $id, input: {text: $text}) { notification { id } errors { code } } }`,
      { id: String(studentId), text },
    );
    expect(res.data.createNotification.errors).toEqual([]);
    return Number(res.data.createNotification.notification.id);
  }

  it('a student receives its own notification as it is created through GraphQL, and never another student\'s', async () => {
    const one = await f.studentClient(a);
    const two = await f.studentClient(a);
    const first = await subscribe(connect(asBearer(one.client)), NOTIFICATIONS);
    const second = await subscribe(connect(asBearer(two.client)), NOTIFICATIONS);

    const forOne = await createNotification(a, one.id, 'for one');
    await first.next(1);
    expect(first.results[0]).toEqual({ data: { notificationReceived: { id: String(forOne), userId: String(one.id), text: 'for one', schoolId: String(a.id) } } });

    // The second student hears its own next one, and that is the first thing it hears.
    const forTwo = await createNotification(a, two.id, 'for two');
    await second.next(1);
    expect(second.results.map((r) => r.data.notificationReceived.id)).toEqual([String(forTwo)]);
    expect(first.results).toHaveLength(1);

    // A student may not name another person.
    const other = await subscribe(connect(asBearer(one.client)), NOTIFICATIONS, { userId: String(two.id) });
    await until(() => other.state.done, 'the refusal');
    expect(other.results[0]?.errors?.[0]?.extensions?.code ?? (other.state.error as any)?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it("another school's admin never receives this school's events; it hears its own school's", async () => {
    const student = await f.studentClient(a);
    const studentOfB = await f.studentClient(b);
    const bAdmin = connect(asBearer(b.admin));
    const events = await subscribe(bAdmin, `subscription { events(names: [NOTIFICATION_CREATED]) { id name type schoolId subjectId } }`);
    const notifications = await subscribe(bAdmin, NOTIFICATIONS);
    // The platform acting in school B (X-School-Id) hears B only, too.
    const platform = await subscribe(connect(asBearer(service.platform, { 'X-School-Id': String(b.id) })), NOTIFICATIONS);

    await createNotification(a, student.id, 'only in A');
    const inB = await createNotification(b, studentOfB.id, 'in B');
    await events.next(1);
    await notifications.next(1);
    await platform.next(1);
    expect(events.results[0].data.events).toMatchObject({ name: 'NOTIFICATION_CREATED', type: 'notification.created', schoolId: String(b.id), subjectId: String(inB) });
    expect(notifications.results.map((r) => r.data.notificationReceived.id)).toEqual([String(inB)]);
    expect(platform.results.map((r) => r.data.notificationReceived.id)).toEqual([String(inB)]);
    expect(events.results).toHaveLength(1);
  });

  it('a message posted to a channel reaches who may read the channel', async () => {
    const channelId = await f.channel(a, { name: 'General' });
    const reader = await f.studentClient(a);
    const sender = await f.person(a, 'Collaborator');
    const staff = await subscribe(connect(asBearer(a.admin)), `subscription ($c: ID!) { messageCreated(channelId: $c) { id subject } }`, { c: String(channelId) });
    const student = await subscribe(connect(asBearer(reader.client)), `subscription ($c: ID!) { messageCreated(channelId: $c) { id subject } }`, { c: String(channelId) });
    const res = await a.admin.graphql(
      `mutation ($c: ID!, $s: ID!) { createMessage(channelId: $c, input: {subject: "Hello", text: "Hi all", senderId: $s}) { message { id } errors { code } } }`,
      { c: String(channelId), s: String(sender.id) },
    );
    expect(res.data.createMessage.errors).toEqual([]);
    await staff.next(1);
    await student.next(1);
    expect(staff.results[0].data.messageCreated).toEqual({ id: res.data.createMessage.message.id, subject: 'Hello' });
    expect(student.results[0].data.messageCreated).toEqual({ id: res.data.createMessage.message.id, subject: 'Hello' });

    // Another school's channel is not found, as in a query.
    const foreign = await subscribe(connect(asBearer(b.admin)), `subscription ($c: ID!) { messageCreated(channelId: $c) { id } }`, { c: String(channelId) });
    await until(() => foreign.state.done, 'the refusal');
    expect(foreign.results[0].errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a role the matrix refuses is refused (FORBIDDEN), and no credential is UNAUTHENTICATED', async () => {
    const student = await f.studentClient(a);
    const refused = await subscribe(connect(asBearer(student.client)), `subscription { events { id } }`);
    await until(() => refused.state.done, 'the refusal');
    expect(refused.results).toEqual([{ errors: [expect.objectContaining({ message: 'This credential may not do that', extensions: { code: 'FORBIDDEN' } })] }]);

    const anonymous = await subscribe(connect({}), NOTIFICATIONS);
    await until(() => anonymous.state.done, 'the refusal');
    expect(anonymous.results[0].errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('a change that rolls back delivers nothing; the next committed one arrives first', async () => {
    const student = await f.studentClient(a);
    const sub = await subscribe(connect(asBearer(student.client)), NOTIFICATIONS);
    await expect(
      service.db.transaction(async (tx) => {
        await notify(tx, a.id, [{ userId: student.id, text: 'rolled back', url: null }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const kept = await createNotification(a, student.id, 'kept');
    await sub.next(1);
    expect(sub.results.map((r) => r.data.notificationReceived)).toEqual([expect.objectContaining({ id: String(kept), text: 'kept' })]);
  });

  it.skipIf(!inject('testDatabase').url)('on PostgreSQL: a notification created through one instance reaches a subscriber of another', async () => {
    const database = await openDatabase({ url: service.databaseUrl!, maxConnections: 2 });
    const other = await createApp({ database, rateLimit: { enabled: false } });
    try {
      const otherUrl = `${(await other.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
      const student = await f.studentClient(a);
      const client = createClient({ url: otherUrl, webSocketImpl: WebSocket, connectionParams: asBearer(student.client), retryAttempts: 0 });
      clients.push(client);
      const results: any[] = [];
      client.subscribe({ query: NOTIFICATIONS }, { next: (r) => results.push(r), error: () => {}, complete: () => {} });
      await until(() => subscriptionServers.get(other)!.events.subscribers === 1, 'the subscription on the other instance');
      const id = await createNotification(a, student.id, 'across instances');
      await until(() => results.length === 1, 'the notification on the other instance');
      expect(results[0].data.notificationReceived).toMatchObject({ id: String(id), text: 'across instances' });
    } finally {
      await other.close();
      await database.close();
    }
  });

  /** The close of a raw graphql-transport-ws socket that sends connection_init with `payload`. */
  function closeOf(payload: unknown): Promise<{ code: number; reason: string }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, 'graphql-transport-ws');
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) }));
      socket.on('error', reject);
    });
  }

  it('a bad credential closes the socket with 4401, and says nothing more', async () => {
    expect(await closeOf({ Authorization: 'Bearer lp_admin_not-a-token' })).toEqual({ code: 4401, reason: 'The credential is not valid' });
    expect(await closeOf({ authorization: 'Basic abc' })).toMatchObject({ code: 4401 });
    expect(await closeOf({ Authorization: `Bearer ${tokenOf(service.platform)}`, 'X-School-Id': 'one' })).toEqual({ code: 4400, reason: 'X-School-Id must be a school id' });
  });

  it('only subscriptions run over the socket, within the GraphQL limits; over HTTP a subscription is a 400', async () => {
    const client = connect(asBearer(a.admin));
    const query = await subscribe(client, `{ schools { totalCount } }`);
    await until(() => query.state.done, 'the refusal');
    expect((query.state.error as any[])[0].extensions.code).toBe('BAD_REQUEST');

    const aliases = `subscription { notificationReceived { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } }`;
    const tooMany = await subscribe(client, aliases);
    await until(() => tooMany.state.done, 'the refusal');
    expect((tooMany.state.error as any[])[0].extensions.code).toBe('TOO_MANY_ALIASES');

    const overHttp = await a.admin.graphql(`subscription { notificationReceived { id } }`);
    expect(overHttp.status).toBe(400);
    expect(overHttp.errors?.[0].extensions.code).toBe('BAD_REQUEST');
  });
});
