import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { gatewayNotifications, gatewaySigningSecrets } from '../../src/modules/orders/gateway-notification.table.js';
import { gatewayCredentials, invoices, orders, payments } from '../../src/modules/orders/order.table.js';
import { expectNoWrite, fingerprint } from '../support/fingerprint.js';
import { saleFixtures, type Hash, type SaleRefs } from '../support/orders.fixtures.js';
import { expectErrorBody, expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import { unique } from '../support/rows.js';
import type { Client, Reply, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A payment gateway reports in: POST /gateways/:gateway_credential_id/notifications, anonymous but
// signed with the gateway credential's secret (Standard Webhooks), idempotent by the gateway's event
// id (webhook-id), moving the payment through the machine of src/modules/orders/order.state.ts
// (src/modules/orders/gateway-notification.ts).

const CREATE_CREDENTIAL = `mutation ($input: GatewayCredentialInput!) {
  createGatewayCredential(input: $input) { gatewayCredential { id signingSecret } errors { field code } }
}`;
const ROTATE = `mutation ($id: ID!, $overlap: Int) {
  rotateGatewaySigningSecret(id: $id, overlapSeconds: $overlap) { gatewayCredential { id signingSecret } errors { field code } }
}`;

describe('gateway notifications', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let f: SaleRefs;
  let fb: SaleRefs;
  let gateway: { id: number; secret: string };
  const fx = saleFixtures(() => service);

  twoSchools('Alpha Gateway', 'Beta Gateway', async (w) => {
    ({ service, school: a, other: b } = w);
    f = await fx.sale(a.id);
    fb = await fx.sale(b.id);
  });

  async function credential(client: Client, gatewayName = 'pagarme') {
    const res = await client.graphql(CREATE_CREDENTIAL, { input: { gateway: gatewayName, secretKey: 'sk_test_0123456789abcdef' } });
    expect(res.data.createGatewayCredential.errors, JSON.stringify(res)).toEqual([]);
    const { id, signingSecret } = res.data.createGatewayCredential.gatewayCredential;
    return { id: Number(id), secret: signingSecret as string };
  }

  beforeAll(async () => {
    gateway = await credential(a.admin);
  });

  interface Signed {
    id?: string;
    at?: Date;
    /** Signs with this secret instead of the credential's. */
    secret?: string;
    /** Sends these headers instead of the signed ones. */
    headers?: Record<string, string>;
    /** Signs this text but sends the body. */
    signedText?: string;
    language?: string;
  }

  /** A callback as a gateway sends it: the JSON's bytes, signed with `webhook-*` headers. */
  function signed(credentialId: number, secret: string, body: unknown, options: Signed = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const id = options.id ?? unique('evt');
    const at = options.at ?? service.clock.now();
    const signature = new Webhook(options.secret ?? secret).sign(id, at, options.signedText ?? raw);
    const headers = options.headers ?? { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    const sent: Record<string, string> = { 'content-type': 'application/json', ...headers, ...(options.language ? { 'accept-language': options.language } : {}) };
    return { raw, id, headers: sent };
  }

  function notify(body: unknown, options: Signed & { credential?: { id: number; secret: string } } = {}): Promise<Reply> {
    const to = options.credential ?? gateway;
    const message = signed(to.id, to.secret, body, options);
    return service.anonymous.post(`/gateways/${to.id}/notifications`, undefined, { raw: message.raw, headers: message.headers });
  }

  /** The same message through the GraphQL twin, anonymous: `select` is what it reads of the payload. */
  const twin = (message: ReturnType<typeof signed>, select: string) =>
    service.anonymous.graphql(
      `mutation ($id: ID!, $wid: String, $ts: String, $sig: String, $body: String) {
        receiveGatewayNotification(gatewayCredentialId: $id, webhookId: $wid, webhookTimestamp: $ts, webhookSignature: $sig, body: $body) ${select}
      }`,
      { id: String(gateway.id), wid: message.id, ts: message.headers['webhook-timestamp'], sig: message.headers['webhook-signature'], body: message.raw },
    );

  const status = (paymentId: number, value: string, more: Hash = {}) => ({ type: 'payment.status', data: { payment_id: paymentId, status: value, ...more } });

  const rowsOf = async (orderId: number) => {
    const [order] = await service.db.select().from(orders).where(eq(orders.id, orderId));
    const [invoice] = await service.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    const [payment] = await service.db.select().from(payments).where(eq(payments.invoiceId, invoice.id));
    const enrolled = await service.db.select().from(enrollments).where(eq(enrollments.orderId, orderId));
    return { order, invoice, payment, enrollments: enrolled };
  };

  /** Every row a callback could write. */
  const snapshot = fingerprint(() => service, { payments, invoices, orders, enrollments, registrations, gatewayNotifications, domainEvents });

  /** An order of the sale with a card payment under way: what a gateway then reports on. */
  async function paying(refs = f, client = a.admin) {
    const { order, invoiceId } = await fx.order(client, refs);
    const payment = await fx.payment(client, invoiceId);
    return { orderId: order.id, paymentId: payment.id };
  }

  it('a signed callback confirms the payment: invoice paid, order confirmed, the student enrolled; the reply is what it did', async () => {
    const { orderId, paymentId } = await paying();
    const res = await notify(status(paymentId, 'paid'), { id: 'evt_confirm_1' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      gateway_credential_id: gateway.id,
      event_id: 'evt_confirm_1',
      type: 'payment.status',
      payment_id: paymentId,
      status: 'confirmed',
      payment_status: 'confirmed',
      refunded_amount: 0,
      sent_at: service.clock.now().toISOString().replace(/\.\d{3}Z$/, '.000Z'),
    });
    const rows = await rowsOf(orderId);
    expect([rows.payment.status, rows.invoice.status, rows.order.status]).toEqual(['confirmed', 'paid', 'confirmed']);
    expect(rows.enrollments.map((e) => [e.studentId, e.schoolProductId, e.status])).toEqual([[f.student.id, f.product.id, 'active']]);
    const names = (await fx.eventsAfter(a.id)).filter((e) => ['Order', 'Payment', 'Invoice', 'Enrollment'].includes(e.subjectType ?? '')).map((e) => e.name);
    expect(names.slice(-5)).toEqual(['payment.confirmed', 'invoice.paid', 'order.confirmed', 'enrollment.created', 'enrollment.activated']);
  });

  it('a replay changes nothing and answers the first outcome, whatever it says now; the GraphQL twin too', async () => {
    const { paymentId } = await paying();
    const message = signed(gateway.id, gateway.secret, status(paymentId, 'confirmed'));
    const send = () => service.anonymous.post(`/gateways/${gateway.id}/notifications`, undefined, { raw: message.raw, headers: message.headers });
    const first = await send();
    expect(first.status, first.text).toBe(200);
    const again = await expectNoWrite(snapshot, send);
    expect([again.status, again.body]).toEqual([200, first.body]);
    // The same event id with another body (a gateway's retry is the same event): the first outcome.
    const other = await expectNoWrite(snapshot, () => notify(status(paymentId, 'failed'), { id: message.id }));
    expect([other.status, other.body]).toEqual([200, first.body]);
    const viaGraphql = await expectNoWrite(snapshot, () => twin(message, '{ gatewayNotification { id eventId paymentStatus } errors { field code } }'));
    expect(viaGraphql.data.receiveGatewayNotification).toEqual({
      gatewayNotification: { id: String(first.body.id), eventId: message.id, paymentStatus: 'confirmed' },
      errors: [],
    });
    // A second event reporting the status the payment has is a new record that moves nothing.
    const repeat = await notify(status(paymentId, 'confirmed'));
    expect([repeat.status, repeat.body.payment_status]).toEqual([200, 'confirmed']);
    expect(await service.db.select().from(gatewayNotifications).where(eq(gatewayNotifications.paymentId, paymentId))).toHaveLength(2);
  });

  it('ten deliveries of one event at once: one applies, every one answers it (on PostgreSQL, parallel transactions)', async () => {
    const { orderId, paymentId } = await paying();
    const message = signed(gateway.id, gateway.secret, status(paymentId, 'confirmed'));
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => service.anonymous.post(`/gateways/${gateway.id}/notifications`, undefined, { raw: message.raw, headers: message.headers })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await service.db.select().from(gatewayNotifications).where(eq(gatewayNotifications.eventId, message.id))).toHaveLength(1);
    const confirmations = (await fx.eventsAfter(a.id)).filter((e) => e.name === 'payment.confirmed' && e.subjectId === paymentId);
    expect(confirmations).toHaveLength(1);
    expect((await rowsOf(orderId)).enrollments).toHaveLength(1);
  });

  it('the GraphQL twin, anonymous, confirms a payment named by its uuid', async () => {
    const { order, invoiceId } = await fx.order(a.admin, f);
    const uuid = unique('pay');
    await fx.payment(a.admin, invoiceId, { uuid });
    const message = signed(gateway.id, gateway.secret, { type: 'payment.status', data: { payment_uuid: uuid, status: 'confirmed' } });
    const res = await twin(message, '{ gatewayNotification { paymentStatus } errors { field code } }');
    expect(res.data.receiveGatewayNotification, JSON.stringify(res)).toEqual({ gatewayNotification: { paymentStatus: 'confirmed' }, errors: [] });
    expect((await rowsOf(order.id)).order.status).toBe('confirmed');
  });

  describe('money taken back', () => {
    it('a chargeback takes the access back: payment reversed, invoice unpaid, order canceled, enrollment canceled, in one go', async () => {
      const { orderId, paymentId } = await paying();
      expect((await notify(status(paymentId, 'confirmed'))).status).toBe(200);
      const res = await notify(status(paymentId, 'chargeback', { reason: 'fraud' }));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'reversed', payment_status: 'reversed', refunded_amount: 49700, reason: 'fraud' });
      const rows = await rowsOf(orderId);
      expect([rows.payment.status, rows.payment.refundReason, rows.invoice.status, rows.order.status]).toEqual(['reversed', 'fraud', 'unpaid', 'canceled']);
      expect(rows.enrollments.map((e) => e.status)).toEqual(['canceled']);
      const events = (await fx.eventsAfter(a.id)).filter((e) => e.subjectType === 'Order' && e.subjectId === orderId).map((e) => e.name);
      expect(events).toEqual(['order.created', 'order.confirmed', 'order.refunded']);
    });

    it('a refund of a part keeps the access; the rest, or a refunded without amount, is a full refund that cancels the enrollment', async () => {
      const { orderId, paymentId } = await paying();
      expect((await notify(status(paymentId, 'confirmed'))).status).toBe(200);
      const part = await notify(status(paymentId, 'refunded', { amount: 9700, reason: 'late start' }));
      expect(part.status, part.text).toBe(200);
      expect(part.body).toMatchObject({ status: 'refunded', amount: 9700, payment_status: 'confirmed', refunded_amount: 9700 });
      let rows = await rowsOf(orderId);
      expect([rows.order.status, rows.enrollments.map((e) => e.status)]).toEqual(['confirmed', ['active']]);
      // More than is left: 422, nothing written.
      expectFieldError(await expectNoWrite(snapshot, () => notify(status(paymentId, 'refunded', { amount: 40001 }))), 422, 'data.amount', 'less_than_or_equal_to');
      const rest = await notify(status(paymentId, 'refunded'));
      expect(rest.body).toMatchObject({ payment_status: 'refunded', refunded_amount: 49700 });
      rows = await rowsOf(orderId);
      expect([rows.payment.status, rows.invoice.status, rows.order.status, rows.enrollments.map((e) => e.status)]).toEqual(['refunded', 'unpaid', 'canceled', ['canceled']]);
    });

    it('a refund that overtakes its confirmation is a 422 that writes nothing, and passes when the gateway retries after it', async () => {
      const { orderId, paymentId } = await paying();
      const refund = signed(gateway.id, gateway.secret, status(paymentId, 'refunded'));
      const send = () => service.anonymous.post(`/gateways/${gateway.id}/notifications`, undefined, { raw: refund.raw, headers: refund.headers });
      expectFieldError(await expectNoWrite(snapshot, send), 422, 'status', 'invalid_transition');
      expect((await notify(status(paymentId, 'confirmed'))).status).toBe(200);
      const retried = await send();
      expect([retried.status, retried.body.payment_status]).toEqual([200, 'refunded']);
      expect((await rowsOf(orderId)).enrollments.map((e) => e.status)).toEqual(['canceled']);
    });
  });

  describe('refused, with nothing written', () => {
    it('a wrong, missing or tampered signature: 401 invalid_signature', async () => {
      const { paymentId } = await paying();
      const body = status(paymentId, 'confirmed');
      const refusals = [
        await expectNoWrite(snapshot, () => notify(body, { secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` })),
        await expectNoWrite(snapshot, () => notify(body, { headers: {} })),
        await expectNoWrite(snapshot, () => notify(body, { signedText: JSON.stringify(status(paymentId, 'failed')) })),
        await expectNoWrite(snapshot, () => notify(body, { headers: { 'webhook-id': 'x', 'webhook-timestamp': 'soon', 'webhook-signature': 'v1,abc' } })),
      ];
      for (const res of refusals) {
        expectErrorBody(res, 401);
        expect(res.body.details.base, res.text).toEqual([{ error: 'invalid_signature' }]);
      }
      // The signature is over the bytes: the same JSON re-spaced is another message.
      const message = signed(gateway.id, gateway.secret, body);
      const respaced = await expectNoWrite(snapshot, () =>
        service.anonymous.post(`/gateways/${gateway.id}/notifications`, undefined, { raw: JSON.stringify(body, null, 2), headers: message.headers }),
      );
      expect([respaced.status, respaced.body.details.base]).toEqual([401, [{ error: 'invalid_signature' }]]);
      // In the request's language.
      const pt = await notify(body, { headers: {}, language: 'pt-BR' });
      expect(pt.body.errors.base).toEqual(['Não foi possível verificar a assinatura da notificação']);
    });

    it('a timestamp more than 5 minutes from the clock, even well signed: 401 stale_timestamp', async () => {
      const { paymentId } = await paying();
      for (const minutes of [-6, 6]) {
        const at = new Date(service.clock.now().getTime() + minutes * 60_000);
        const res = await expectNoWrite(snapshot, () => notify(status(paymentId, 'confirmed'), { at }));
        expectErrorBody(res, 401);
        expect(res.body.details.base, res.text).toEqual([{ error: 'stale_timestamp' }]);
      }
      const within = await notify(status(paymentId, 'confirmed'), { at: new Date(service.clock.now().getTime() - 4 * 60_000) });
      expect(within.status, within.text).toBe(200);
    });

    it("another school's payment, an order charged through another credential, an unknown payment or credential: 404", async () => {
      const theirs = await paying(fb, b.admin);
      expectNotFound(await expectNoWrite(snapshot, () => notify(status(theirs.paymentId, 'confirmed'))));
      expectNotFound(await expectNoWrite(snapshot, () => notify(status(99_999_999, 'confirmed'))));
      expectNotFound(await expectNoWrite(snapshot, () => notify({ type: 'payment.status', data: { payment_uuid: 'nobody', status: 'confirmed' } })));
      expectNotFound(await expectNoWrite(snapshot, () => notify(status(theirs.paymentId, 'confirmed'), { credential: { id: 99_999_999, secret: gateway.secret } })));
      // B's credential, well signed by B's secret, cannot reach A's payment either.
      const mine = await paying();
      const bGateway = await credential(b.admin);
      expectNotFound(await expectNoWrite(snapshot, () => notify(status(mine.paymentId, 'confirmed'), { credential: bGateway })));
      // An order of A charged through another of A's credentials.
      const stripe = await credential(a.admin, 'stripe');
      const { order, invoiceId } = await fx.order(a.admin, f, { gateway_credential_id: stripe.id });
      const payment = await fx.payment(a.admin, invoiceId);
      expectNotFound(await expectNoWrite(snapshot, () => notify(status(payment.id, 'confirmed'))));
      expect((await notify(status(payment.id, 'confirmed'), { credential: stripe })).status).toBe(200);
      expect((await rowsOf(order.id)).order.status).toBe('confirmed');
      // A school's credential on the GraphQL twin may not name another school's gateway credential.
      const foreign = await b.admin.graphql('mutation ($id: ID!) { receiveGatewayNotification(gatewayCredentialId: $id, body: "{}") { errors { code } } }', { id: String(gateway.id) });
      expect(foreign.errors?.[0]?.extensions?.code, JSON.stringify(foreign)).toBe('NOT_FOUND');
    });

    it('a body it cannot read: 422 naming the field', async () => {
      const { paymentId } = await paying();
      const cases: [unknown, string, string][] = [
        [{ type: 'payment.created', data: { payment_id: paymentId, status: 'confirmed' } }, 'type', 'inclusion'],
        [{ type: 'payment.status' }, 'data', 'blank'],
        [{ type: 'payment.status', data: { status: 'confirmed' } }, 'data.payment_id', 'blank'],
        [status(paymentId, 'settled'), 'data.status', 'inclusion'],
        [status(paymentId, 'refunded', { amount: 'lots' }), 'data.amount', 'invalid'],
        [status(paymentId, 'confirmed', { amount: 100 }), 'data.amount', 'price_mismatch'],
      ];
      for (const [body, field, code] of cases) expectFieldError(await expectNoWrite(snapshot, () => notify(body)), 422, field, code);
      // Not JSON at all, or not an object: REST's body parser refuses it (400) before anything else...
      expectErrorBody(await expectNoWrite(snapshot, () => notify('{"type":')), 400);
      expectErrorBody(await expectNoWrite(snapshot, () => notify('[1, 2]')), 400);
      // ... and the GraphQL twin, which takes the body as text, answers the adapter's 422.
      const message = signed(gateway.id, gateway.secret, '[1, 2]');
      const viaGraphql = await expectNoWrite(snapshot, () => twin(message, '{ errors { field code } }'));
      expect(viaGraphql.data.receiveGatewayNotification.errors).toEqual([{ field: ['body'], code: 'invalid' }]);
    });
  });

  describe('the signing secret', () => {
    it('is shown once on create, stored encrypted, read as null afterwards, and rotated only by managers', async () => {
      const made = await credential(a.admin);
      expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const read = await a.admin.graphql('query ($id: ID!) { gatewayCredential(id: $id) { id signingSecret secretKeyHint } }', { id: String(made.id) });
      expect(read.data.gatewayCredential).toEqual({ id: String(made.id), signingSecret: null, secretKeyHint: '****cdef' });
      const listed = await a.admin.graphql('{ gatewayCredentials { nodes { id signingSecret } } }');
      expect(listed.data.gatewayCredentials.nodes.every((n: { signingSecret: unknown }) => n.signingSecret === null)).toBe(true);
      const stored = await service.db.select().from(gatewaySigningSecrets).where(eq(gatewaySigningSecrets.gatewayCredentialId, made.id));
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored)).not.toContain(made.secret.slice(6));
      const [row] = await service.db.select().from(gatewayCredentials).where(eq(gatewayCredentials.id, made.id));
      expect(JSON.stringify(row)).not.toContain(made.secret.slice(6));

      const collaborator = await service.token('collaborator', a.id);
      const refused = await collaborator.post(`/gateway_credentials/${made.id}/rotate_signing_secret`);
      expect(refused.status, refused.text).toBe(403);
      expectNotFound(await b.admin.post(`/gateway_credentials/${made.id}/rotate_signing_secret`));
    });

    it('a rotation gives a new secret; the old one verifies for the overlap, and not at all with overlap 0', async () => {
      const made = await credential(a.admin);
      const rotated = await a.admin.post(`/gateway_credentials/${made.id}/rotate_signing_secret`);
      expect(rotated.status, rotated.text).toBe(200);
      const fresh = rotated.body.signing_secret as string;
      expect(fresh).toMatch(/^whsec_/);
      expect(fresh).not.toBe(made.secret);
      const { paymentId } = await paying(f);
      const [order] = await service.db.select({ id: invoices.orderId }).from(invoices).innerJoin(payments, eq(payments.invoiceId, invoices.id)).where(eq(payments.id, paymentId));
      await service.db.update(orders).set({ gatewayCredentialId: made.id }).where(eq(orders.id, order.id));
      // Both secrets verify during the overlap.
      expect((await notify(status(paymentId, 'under_analysis'), { credential: made })).status).toBe(200);
      expect((await notify(status(paymentId, 'authorized'), { credential: { id: made.id, secret: fresh } })).status).toBe(200);

      const ended = await a.admin.graphql(ROTATE, { id: String(made.id), overlap: 0 });
      const newest = ended.data.rotateGatewaySigningSecret.gatewayCredential.signingSecret as string;
      for (const old of [made.secret, fresh]) {
        const res = await expectNoWrite(snapshot, () => notify(status(paymentId, 'confirmed'), { credential: { id: made.id, secret: old } }));
        expect([res.status, res.body.details.base]).toEqual([401, [{ error: 'invalid_signature' }]]);
      }
      expect((await notify(status(paymentId, 'confirmed'), { credential: { id: made.id, secret: newest } })).body.payment_status).toBe('confirmed');
      const invalid = await a.admin.graphql(ROTATE, { id: String(made.id), overlap: -1 });
      expect(invalid.data.rotateGatewaySigningSecret).toEqual({ gatewayCredential: null, errors: [{ field: ['overlapSeconds'], code: 'greater_than_or_equal_to' }] });
    });

    it('a credential with no secret (made before secrets existed) refuses every callback until one is rotated in', async () => {
      const [bare] = await service.db.insert(gatewayCredentials).values({ schoolId: a.id, gateway: 'legacy' }).returning();
      const { paymentId } = await paying();
      const res = await expectNoWrite(snapshot, () => notify(status(paymentId, 'confirmed'), { credential: { id: bare.id, secret: gateway.secret } }));
      expect([res.status, res.body.details.base]).toEqual([401, [{ error: 'invalid_signature' }]]);
    });
  });
});
