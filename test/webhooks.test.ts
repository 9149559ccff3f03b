import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvents } from '../src/modules/events/events.js';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { metaconfigColumns } from '../src/modules/integrations/integration.rules.js';
import { integrations } from '../src/modules/integrations/integration.table.js';
import { notifications } from '../src/modules/notifications/notification.table.js';
import { startWebhookWorker, type WebhookWorkerOptions } from '../src/modules/webhooks/index.js';
import { refusedAddress } from '../src/modules/webhooks/webhook.http.js';
import { webhookDeliveries } from '../src/modules/webhooks/webhook.table.js';
import { type Service, startService, type TestSchool } from './support/service.js';

// Signed webhook delivery (issue 14): a real receiver on loopback, the service and workers allowed private networks.

interface Receipt {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP receiver on 127.0.0.1 that answers the statuses queued (then 200) and records every request. */
class Receiver {
  receipts: Receipt[] = [];
  statuses: number[] = [];
  private server: Server | null = null;
  port = 0;

  async start(port = 0) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        this.receipts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.statusCode = this.statuses.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }
  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
  async stop() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

let service: Service;
const receivers: Receiver[] = [];
const receiver = async () => {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
};

beforeAll(async () => {
  service = await startService({ webhooksAllowPrivateNetworks: true });
});
afterAll(async () => {
  for (const r of receivers) await r.stop();
  await service?.stop();
});

/** Milliseconds instead of Standard Webhooks' hours: three attempts. */
const fast: WebhookWorkerOptions = { poll: false, allowPrivateNetworks: true, schedule: [0, 20, 20], jitter: 0 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs rounds until no delivery is pending (or gives up). */
async function drain(worker: { runOnce(): Promise<number> }, rounds = 40) {
  for (let i = 0; i < rounds; i++) {
    await worker.runOnce();
    const [{ n }] = await service.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'));
    if (Number(n) === 0) return;
    await sleep(25);
  }
  throw new Error('deliveries still pending');
}

const createIntegration = `mutation ($input: IntegrationInput!) {
  createIntegration(input: $input) { integration { id signingSecret active } errors { field code message } } }`;

async function integrationFor(school: TestSchool, url: string, events = ['course.created']) {
  const res = await school.admin.graphql(createIntegration, {
    input: { ownerType: 'School', ownerId: school.id, type: 'webhook', metadata: { events }, metaconfig: { url } },
  });
  expect(res.data.createIntegration.errors).toEqual([]);
  const integration = res.data.createIntegration.integration;
  expect(integration.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return { id: integration.id as string, secret: integration.signingSecret as string };
}

async function createCourse(school: TestSchool, name = 'Webhook course') {
  const res = await school.admin.graphql(`mutation ($name: String!) { createCourse(input: { name: $name }) { course { id } errors { code } } }`, { name });
  expect(res.data.createCourse.errors).toEqual([]);
  return Number(res.data.createCourse.course.id);
}

const deliveriesQuery = `query ($id: ID!, $status: WebhookDeliveryStatus) {
  webhookDeliveries(integrationId: $id, status: $status, first: 100) {
    totalCount nodes { id eventId eventName status attemptCount lastResponseStatus lastError deliveredAt
      attempts { responseStatus error durationMs nextAttemptAt } } } }`;

const headersOf = (r: Receipt) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

describe('webhook delivery', () => {
  it('a delivery arrives signed and verifies with standardwebhooks; the secret is shown only once', async () => {
    const school = await service.school('Webhooks signed');
    const r = await receiver();
    const { id, secret } = await integrationFor(school, r.url);
    const courseId = await createCourse(school, 'Signed course');
    await drain(startWebhookWorker(service.database, fast));

    expect(r.receipts).toHaveLength(1);
    const [receipt] = r.receipts;
    expect(receipt.headers['content-type']).toBe('application/json');
    const body = new Webhook(secret).verify(receipt.body, headersOf(receipt)) as any;
    expect(body).toMatchObject({
      id: receipt.headers['webhook-id'],
      type: 'course.created',
      data: { name: 'Signed course', subject: { type: 'Course', id: courseId } },
    });
    expect(new Date(body.timestamp).toString()).not.toBe('Invalid Date');
    // A wrong secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(receipt.body, headersOf(receipt))).toThrow();

    const list = await school.admin.graphql(deliveriesQuery, { id });
    expect(list.data.webhookDeliveries.nodes).toMatchObject([
      { eventName: 'course.created', status: 'succeeded', attemptCount: 1, lastResponseStatus: 200, attempts: [{ responseStatus: 200, error: null }] },
    ]);
    expect(list.data.webhookDeliveries.nodes[0].eventId).toBe(receipt.headers['webhook-id']);
    const again = await school.admin.graphql(`query ($id: ID!) { integration(id: $id) { signingSecret deliveries(status: succeeded) { totalCount } } }`, { id });
    expect(again.data.integration).toEqual({ signingSecret: null, deliveries: { totalCount: 1 } });
  });

  it('a receiver answering 500 twice then 200 gets the event on the third attempt, each attempt logged', async () => {
    const school = await service.school('Webhooks retried');
    const r = await receiver();
    r.statuses = [500, 500];
    const { id, secret } = await integrationFor(school, r.url);
    await createCourse(school);
    await drain(startWebhookWorker(service.database, fast));

    expect(r.receipts.map((x) => x.headers['webhook-id'])).toEqual(Array(3).fill(r.receipts[0].headers['webhook-id']));
    for (const receipt of r.receipts) expect(() => new Webhook(secret).verify(receipt.body, headersOf(receipt))).not.toThrow();
    const [delivery] = (await school.admin.graphql(deliveriesQuery, { id })).data.webhookDeliveries.nodes;
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 3, lastResponseStatus: 200, lastError: null });
    expect(delivery.attempts.map((a: any) => [a.responseStatus, a.error, a.nextAttemptAt !== null])).toEqual([
      [500, 'HTTP 500', true],
      [500, 'HTTP 500', true],
      [200, null, false],
    ]);
  });

  it('a receiver down for the whole schedule leaves the delivery failed; redeliverWebhook delivers it once the receiver is up', async () => {
    const school = await service.school('Webhooks down');
    const r = await receiver();
    const port = r.port;
    await r.stop();
    const { id } = await integrationFor(school, r.url);
    await createCourse(school);
    const worker = startWebhookWorker(service.database, fast);
    await drain(worker);

    const [failed] = (await school.admin.graphql(deliveriesQuery, { id, status: 'failed' })).data.webhookDeliveries.nodes;
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 3, lastResponseStatus: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED/);
    expect(failed.attempts).toHaveLength(3);
    expect(failed.attempts[2].nextAttemptAt).toBeNull();
    // The integration is not disabled by one failed delivery (5 days without a success do that).
    expect((await school.admin.graphql(`query ($id: ID!) { integration(id: $id) { active } }`, { id })).data.integration.active).toBe(true);

    await r.start(port);
    const redo = await school.admin.graphql(
      `mutation ($id: ID!) { redeliverWebhook(id: $id) { webhookDelivery { status attemptCount } errors { code } } }`,
      { id: failed.id },
    );
    expect(redo.data.redeliverWebhook).toEqual({ webhookDelivery: { status: 'pending', attemptCount: 0 }, errors: [] });
    await drain(worker);
    expect(r.receipts).toHaveLength(1);
    const [done] = (await school.admin.graphql(deliveriesQuery, { id })).data.webhookDeliveries.nodes;
    expect(done).toMatchObject({ status: 'succeeded', attemptCount: 1 });
    expect(done.attempts).toHaveLength(4);
  });

  it('redeliverFailedWebhooks and the REST rows list and redeliver an integration\'s deliveries', async () => {
    const school = await service.school('Webhooks REST');
    const r = await receiver();
    r.statuses = Array(6).fill(503);
    const { id } = await integrationFor(school, r.url);
    await createCourse(school, 'One');
    await createCourse(school, 'Two');
    await drain(startWebhookWorker(service.database, fast));
    expect(r.receipts).toHaveLength(6);

    const list = await school.admin.get(`/integrations/${id}/deliveries?status=failed`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({ status: 'failed', attempt_count: 3, last_response_status: 503, event_name: 'course.created' });
    expect(list.body[0].attempts.map((a: any) => a.response_status)).toEqual([503, 503, 503]);

    const future = await school.admin.post(`/integrations/${id}/deliveries/redeliver`, { since: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.status).toBe(200);
    expect(future.body.redelivered).toBe(0);
    const one = await school.admin.post(`/integrations/${id}/deliveries/${list.body[0].id}/redeliver`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: list.body[0].id, status: 'pending' });
    const all = await school.admin.post(`/integrations/${id}/deliveries/redeliver`, { since: new Date(Date.now() - 3_600_000).toISOString() });
    expect(all.body).toMatchObject({ redelivered: 1, integration: { id: Number(id) } });
    await drain(startWebhookWorker(service.database, fast));
    expect(r.receipts).toHaveLength(8);
    const after = await school.admin.get(`/integrations/${id}/deliveries?status=succeeded`);
    expect(after.body).toHaveLength(2);
  });

  it('two workers running at once never deliver one event twice', async () => {
    const school = await service.school('Webhooks concurrent');
    const r = await receiver();
    await integrationFor(school, r.url);
    for (let i = 0; i < 8; i++) await createCourse(school, `Course ${i}`);
    const a = startWebhookWorker(service.database, { ...fast, batchSize: 3 });
    const b = startWebhookWorker(service.database, { ...fast, batchSize: 3 });
    for (let i = 0; i < 10; i++) await Promise.all([a.runOnce(), b.runOnce(), a.runOnce()]);
    const ids = r.receipts.map((x) => x.headers['webhook-id']);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
  });

  it('a rolled-back change records no event and no delivery', async () => {
    const school = await service.school('Webhooks rollback');
    const r = await receiver();
    const { id } = await integrationFor(school, r.url);
    const events = () => service.db.select({ n: count() }).from(domainEvents).where(eq(domainEvents.schoolId, school.id));
    const deliveries = () => service.db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.schoolId, school.id));
    const before = [(await events())[0].n, (await deliveries())[0].n];
    const event = { schoolId: school.id, name: 'course.created' as const, subjectType: 'Course' as const, subjectId: 1, payload: { name: 'x' } };
    await expect(
      service.db.transaction(async (tx) => {
        await emitEvents(tx, [event as any, event as any]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect([(await events())[0].n, (await deliveries())[0].n]).toEqual(before);
    await drain(startWebhookWorker(service.database, fast));
    expect(r.receipts).toHaveLength(0);
    // The same emit committed: two events, two deliveries, in one statement.
    const statements = await service.countStatements(() => service.db.transaction((tx) => emitEvents(tx, [event as any, event as any])));
    expect(statements).toBeLessThanOrEqual(3); // begin, the insert, commit
    expect([Number((await events())[0].n) - Number(before[0]), Number((await deliveries())[0].n) - Number(before[1])]).toEqual([2, 2]);
    expect((await school.admin.graphql(deliveriesQuery, { id, status: 'pending' })).data.webhookDeliveries.totalCount).toBe(2);
    await drain(startWebhookWorker(service.database, fast));
    expect(r.receipts).toHaveLength(2);
  });

  it('only active integrations naming the event, with a url, get a delivery', async () => {
    const school = await service.school('Webhooks fan-out');
    const r = await receiver();
    await integrationFor(school, r.url, ['order.created']);
    const inactive = await integrationFor(school, r.url);
    await school.admin.graphql(`mutation ($id: ID!) { updateIntegration(id: $id, input: { active: false }) { errors { code } } }`, { id: inactive.id });
    await school.admin.graphql(createIntegration, { input: { ownerType: 'School', ownerId: school.id, metadata: { events: ['course.created'] }, metaconfig: { token: 'x' } } });
    const wanted = await integrationFor(school, r.url);
    await createCourse(school);
    const rows = await service.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.schoolId, school.id));
    expect(rows.map((d) => d.integrationId)).toEqual([Number(wanted.id)]);
    await drain(startWebhookWorker(service.database, fast));
  });

  it('a private address is refused without WEBHOOKS_ALLOW_PRIVATE_NETWORKS', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::', '::127.0.0.1'])
      expect(refusedAddress(address), address).not.toBeNull();
    for (const address of ['8.8.8.8', '2606:4700:4700::1111', '::ffff:1.1.1.1']) expect(refusedAddress(address), address).toBeNull();

    const school = await service.school('Webhooks private');
    const r = await receiver();
    const localhostUrl = `http://localhost:${r.port}/hooks`;
    const a = await integrationFor(school, r.url);
    const b = await integrationFor(school, localhostUrl);
    // An IPv4-compatible address (::/96) carries an IPv4 one: refused whatever that is.
    const d = await integrationFor(school, `http://[::127.0.0.1]:${r.port}/hooks`);
    // Saving refuses an ftp URL now; a row stored before that is still refused when sent.
    const c = await integrationFor(school, r.url);
    await service.db.update(integrations).set(metaconfigColumns({ next: { url: `ftp://127.0.0.1:${r.port}/hooks` }, newUrl: true })).where(eq(integrations.id, Number(c.id)));
    await createCourse(school);
    await drain(startWebhookWorker(service.database, { ...fast, allowPrivateNetworks: false, schedule: [0] }));
    expect(r.receipts).toHaveLength(0);
    const refused = [[a, /refused: 127\.0\.0\.1 is a loopback address/], [b, /refused: localhost resolves to .* loopback/], [c, /http or https/], [d, /refused: ::7f00:1 is an IPv4-compatible address/]] as const;
    for (const [integration, pattern] of refused) {
      const [d] = (await school.admin.graphql(deliveriesQuery, { id: integration.id })).data.webhookDeliveries.nodes;
      expect(d.status).toBe('failed');
      expect(d.lastError).toMatch(pattern);
    }
  });

  it('secret rotation: during the window both secrets verify; with no overlap only the new one', async () => {
    const school = await service.school('Webhooks rotation');
    const r = await receiver();
    const { id, secret: oldSecret } = await integrationFor(school, r.url);
    const rotate = `mutation ($id: ID!, $o: Int) { rotateIntegrationSecret(id: $id, overlapSeconds: $o) { integration { id signingSecret } errors { field code } } }`;
    const rotated = await school.admin.graphql(rotate, { id });
    const newSecret = rotated.data.rotateIntegrationSecret.integration.signingSecret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await createCourse(school);
    await drain(startWebhookWorker(service.database, fast));
    const [during] = r.receipts;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(during.body, headersOf(during))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(during.body, headersOf(during))).not.toThrow();

    const bad = await school.admin.graphql(rotate, { id, o: -1 });
    expect(bad.data.rotateIntegrationSecret.errors).toEqual([{ field: ['overlapSeconds'], code: 'invalid' }]);
    const rest = await school.admin.post(`/integrations/${id}/rotate_secret`, { overlap_seconds: 0 });
    expect(rest.status).toBe(200);
    const newest = rest.body.signing_secret;
    expect(newest).toMatch(/^whsec_/);
    await createCourse(school);
    await drain(startWebhookWorker(service.database, fast));
    const after = r.receipts[1];
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(newest).verify(after.body, headersOf(after))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(after.body, headersOf(after))).toThrow();
  });

  it('an integration failing for long is disabled and the school\'s admins are notified', async () => {
    const school = await service.school('Webhooks disabled');
    const r = await receiver();
    r.statuses = [500, 500, 500];
    const { id } = await integrationFor(school, r.url);
    await createCourse(school);
    await drain(startWebhookWorker(service.database, { ...fast, disableAfterMs: 0 }));
    const [row] = await service.db.select().from(integrations).where(eq(integrations.id, Number(id)));
    expect(row.active).toBe(false);
    const notes = await service.db.select().from(notifications).where(eq(notifications.schoolId, school.id));
    expect(notes.map((n) => n.userId)).toEqual([school.adminId]);
    expect(notes[0].text).toMatch(new RegExp(`Integration ${id} was disabled`));
    // An inactive integration's deliveries wait: a redelivery goes out once it is active again.
    await createCourse(school);
    await drain(startWebhookWorker(service.database, fast));
    expect(r.receipts).toHaveLength(3);
  });

  it("another school's admin gets 404 and a student 403", async () => {
    const school = await service.school('Webhooks owner');
    const other = await service.school('Webhooks other');
    const r = await receiver();
    const { id } = await integrationFor(school, r.url);
    await createCourse(school);
    await drain(startWebhookWorker(service.database, fast));
    const [delivery] = (await school.admin.graphql(deliveriesQuery, { id })).data.webhookDeliveries.nodes;

    const theirs = await other.admin.graphql(deliveriesQuery, { id });
    expect(theirs.errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await other.admin.get(`/integrations/${id}/deliveries`)).status).toBe(404);
    expect((await other.admin.post(`/integrations/${id}/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
    expect((await other.admin.post(`/integrations/${id}/deliveries/redeliver`)).status).toBe(404);
    expect((await other.admin.post(`/integrations/${id}/rotate_secret`)).status).toBe(404);
    const redo = await other.admin.graphql(`mutation ($id: ID!) { redeliverWebhook(id: $id) { errors { code } } }`, { id: delivery.id });
    expect(redo.errors![0].extensions.code).toBe('NOT_FOUND');

    const [student] = await service.db.insert((await import('../src/modules/users/user.table.js')).users)
      .values({ schoolId: school.id, type: 'Student', fullName: 'Webhook student', email: `wh-student-${school.id}@example.com` })
      .returning();
    const studentClient = await service.token('student', school.id, student.id);
    expect((await studentClient.graphql(deliveriesQuery, { id })).errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await studentClient.get(`/integrations/${id}/deliveries`)).status).toBe(403);
    expect((await studentClient.post(`/integrations/${id}/deliveries/${delivery.id}/redeliver`)).status).toBe(403);
    expect((await studentClient.post(`/integrations/${id}/rotate_secret`)).status).toBe(403);
  });
});
