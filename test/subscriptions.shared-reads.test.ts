import { eq } from 'drizzle-orm';
import { createClient, type Client as WsClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { subscriptionServers } from '../src/app.js';
import { enrollments } from '../src/modules/enrollments/enrollment.table.js';
import { notify } from '../src/modules/notifications/notification.notify.js';
import { fixtures } from './support/messages.fixtures.js';
import { type Client, type Service, startService, type TestSchool } from './support/service.js';

/**
 * What one event costs its subscribers: the signal routes it without a read (a notification for
 * someone else is skipped from the NOTIFY alone), and what subscribers read of it is read once per
 * instance and shared, each subscriber then checking it against its own scope. Counted in
 * statements, with real sockets on a listening service.
 */
describe('one read per event, whatever the number of subscribers', () => {
  let service: Service;
  let url: string;
  let a: TestSchool;
  let b: TestSchool;
  let f: ReturnType<typeof fixtures>;
  let clients: WsClient[] = [];

  beforeAll(async () => {
    service = await startService();
    url = `${(await service.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
    f = fixtures(service);
    a = await service.school('Shared A');
    b = await service.school('Shared B');
  });
  afterEach(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    clients = [];
    await until(() => subscribers() === 0, 'every subscription to end');
  });
  afterAll(async () => {
    await service?.stop();
  });

  const subscribers = () => subscriptionServers.get(service.app)!.events.subscribers;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  async function until(check: () => boolean, what: string, ms = 10_000) {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  }

  /** One socket of `client`'s credential holding `count` subscriptions of `query`; their results collect in one list. */
  function listen(client: Client, query: string, count: number, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
    const socket = createClient({ url, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${client.token}`, ...headers }, retryAttempts: 0 });
    clients.push(socket);
    const results: any[] = [];
    for (let i = 0; i < count; i++) socket.subscribe({ query, variables }, { next: (r) => results.push(r), error: (e) => results.push({ error: e }), complete: () => {} });
    return results;
  }

  const NOTIFICATIONS = 'subscription { notificationReceived { id userId schoolId } }';
  const notifyOne = (school: TestSchool, userId: number) => service.db.transaction((tx) => notify(tx, school.id, [{ userId, text: 'shared', url: null }]));

  /** Statements `work` sends beyond those of `write` alone (measured first, with nobody listening), after `settled`. */
  async function readsBeyond(write: () => Promise<unknown>, settled: () => boolean) {
    expect(subscribers()).toBeGreaterThan(0);

    const total = await service.countStatements(async () => {
      await write();
      await until(settled, 'the deliveries');
      // Anything a subscriber would still read arrives within this.
      await sleep(300);
    });
    return total;
  }

  it('a notification for one student costs no read for 1,000 subscriptions of other students, and one read for its recipient and the staff together', async () => {
    const recipient = await f.studentClient(a);
    // The cost of the write alone: nobody listens.
    const writeOnly = await service.countStatements(async () => {
      await notifyOne(a, recipient.id);
      await sleep(300);
    });

    // 20 other students, each with one socket of 50 subscriptions: 1,000 subscribers who are not the recipient.
    const others = await Promise.all(Array.from({ length: 20 }, () => f.studentClient(a)));
    const heard = others.map((o) => listen(o.client, NOTIFICATIONS, 50));
    await until(() => subscribers() === 1000, '1,000 subscriptions');
    const cpu = process.cpuUsage();
    const alone = await readsBeyond(() => notifyOne(a, recipient.id), () => true);
    const used = process.cpuUsage(cpu);
    expect(alone - writeOnly).toBe(0);
    expect(heard.flat()).toEqual([]);

    // The recipient (two subscriptions) and the admin (three) join: the notification is read once for all five.
    const own = listen(recipient.client, NOTIFICATIONS, 2);
    const staff = listen(a.admin, NOTIFICATIONS, 3);
    await until(() => subscribers() === 1005, 'the recipient and the staff');
    const withReaders = await readsBeyond(
      () => notifyOne(a, recipient.id),
      () => own.length === 2 && staff.length === 3,
    );
    expect(withReaders - writeOnly).toBe(1);
    expect(own.map((r) => r.data.notificationReceived.userId)).toEqual([String(recipient.id), String(recipient.id)]);
    expect(staff.map((r) => r.data.notificationReceived.userId)).toEqual(Array(3).fill(String(recipient.id)));
    expect(heard.flat()).toEqual([]);
    console.info(`1,000 non-recipient subscribers: ${alone - writeOnly} reads, ${((used.user + used.system) / 1000).toFixed(0)} CPU ms for the write and its routing; with the recipient and staff: ${withReaders - writeOnly} read`);
  });

  it("another school's notification reaches none of this school's subscribers and costs them no read", async () => {
    const student = await f.studentClient(a);
    const ofB = await f.studentClient(b);
    const writeOnly = await service.countStatements(async () => {
      await notifyOne(b, ofB.id);
      await sleep(300);
    });
    const ownHeard = listen(student.client, NOTIFICATIONS, 5);
    const staffHeard = listen(a.admin, NOTIFICATIONS, 5);
    // The platform acting in school A: it hears A only.
    const platformHeard = listen(service.platform, NOTIFICATIONS, 1, undefined, { 'X-School-Id': String(a.id) });
    await until(() => subscribers() === 11, 'the subscriptions');
    const reads = await readsBeyond(() => notifyOne(b, ofB.id), () => true);
    expect(reads - writeOnly).toBe(0);
    expect([...ownHeard, ...staffHeard, ...platformHeard]).toEqual([]);
  });

  it('the events subscription reads each event once for all its subscribers', async () => {
    const student = await f.studentClient(a);
    const writeOnly = await service.countStatements(async () => {
      await notifyOne(a, student.id);
      await sleep(300);
    });
    const heard = [listen(a.admin, 'subscription { events { id name schoolId } }', 20), listen(a.admin, 'subscription { events(names: [NOTIFICATION_CREATED]) { id } }', 20)];
    await until(() => subscribers() === 40, 'the subscriptions');
    const reads = await readsBeyond(() => notifyOne(a, student.id), () => heard.every((h) => h.length === 20));
    expect(reads - writeOnly).toBe(1);
    expect(new Set(heard[0].map((r) => r.data.events.id)).size).toBe(1);
    expect(heard[0][0].data.events).toMatchObject({ name: 'NOTIFICATION_CREATED', schoolId: String(a.id) });
  });

  it("a message reaches the students of its channel's enrollments, with three reads whatever their number; a student whose enrollment is gone stops hearing it", async () => {
    const product = await f.product(a);
    const enrolled = await Promise.all(Array.from({ length: 8 }, async () => {
      const student = await f.studentClient(a);
      const enrollment = await f.enrollment(a, { studentId: student.id, productId: product.id });
      return { ...student, enrollment };
    }));
    const channelId = await f.channel(a, { schoolProductId: product.id });
    const sender = await f.person(a, 'Collaborator');
    const post = () =>
      a.admin.graphql(`mutation ($c: ID!, $s: ID!) { createMessage(channelId: $c, input: {subject: "Hi", text: "All", senderId: $s}) { message { id } errors { code } } }`, {
        c: String(channelId),
        s: String(sender.id),
      });
    const writeOnly = await service.countStatements(async () => {
      expect((await post()).data.createMessage.errors).toEqual([]);
      await sleep(300);
    });

    const QUERY = 'subscription ($c: ID!) { messageCreated(channelId: $c) { id subject } }';
    const heard = enrolled.map((s) => listen(s.client, QUERY, 5, { c: String(channelId) }));
    const staff = listen(a.admin, QUERY, 5, { c: String(channelId) });
    await until(() => subscribers() === 45, 'the subscriptions');
    let id = '';
    const reads = await readsBeyond(
      async () => (id = (await post()).data.createMessage.message.id),
      () => staff.length === 5 && heard.every((h) => h.length === 5),
    );
    // The message, the channels it was posted to, and one read of the enrollments for the 8 students.
    expect(reads - writeOnly).toBe(3);
    expect(heard.flat().map((r) => r.data.messageCreated.id)).toEqual(Array(40).fill(id));

    // The first student's enrollment goes: over HTTP the channel is no longer its; the socket no longer hears it.
    await service.db.delete(enrollments).where(eq(enrollments.id, enrolled[0].enrollment.id));
    const overHttp = await enrolled[0].client.graphql('query ($c: ID!) { channel(id: $c) { id } }', { c: String(channelId) });
    expect(overHttp.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const next = (await post()).data.createMessage.message.id;
    await until(() => staff.length === 10 && heard.slice(1).every((h) => h.length === 10), 'the next message');
    await sleep(300);
    expect(heard[0]).toHaveLength(5);
    expect(heard[1].slice(5).map((r) => r.data.messageCreated.id)).toEqual(Array(5).fill(next));
  });
});
