import { count, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { api } from '../support/courses.fixtures.js';
import { dataOf, graphql } from '../support/graphql.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A course sold end to end over HTTP, as an online school sells: a product of 12 months' access
// with a payment option of 49,700 and a 30 % coupon; the order priced by the service; its payment
// confirmed by the gateway's signed callback; the student enrolled and reading the lessons; a full
// refund taking the access back; every event in order on the pull feed (GET /events). The machine:
// src/modules/orders/order.state.ts.

describe('selling a course over HTTP', () => {
  let service: Service;
  let a: TestSchool;
  let app: Client;
  twoSchools('Alpha Sale', 'Beta Sale', async (w) => {
    ({ service, school: a } = w);
    app = await service.token('app', a.id);
  });

  /**
   * The feed after `since` once it shows `count` events: on PostgreSQL an event is visible when no
   * older transaction of the server runs (modules/events), and the other test files' databases share
   * the server, so a moment may pass.
   */
  async function feedOf(since: string | undefined, count: number): Promise<{ cursor: string; type: string; subject_type: string }[]> {
    for (let tries = 0; ; tries++) {
      const body = (await app.get(since ? `/events?after=${since}` : '/events')).body;
      if (body.length >= count || tries === 200) return body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The catalogue through the API: a product with a course of one lesson, its payment option, a coupon and a token. */
  async function catalogue() {
    const make = api(a.admin);
    const course = await make.course();
    const module = await make.module(course.id);
    const lesson = await make.lesson({ course_module_id: module.id, title: 'Welcome' });
    const product = await a.admin.post('/school_products', {
      school_product: { title: 'Sold course', course_ids: [course.id], available_time_type: 'time', available_time_length: 12, available_time_unit: 'months' },
    });
    expect(product.status, product.text).toBe(201);
    const billing = await dataOf(
      a.admin,
      graphql(`mutation ($option: PaymentOptionInput!, $coupon: CouponInput!) {
        createPaymentOption(input: $option) { paymentOption { id price } errors { field code } }
        createCoupon(input: $coupon) { coupon { id discountPercent } errors { field code } }
      }`),
      { option: { name: 'Full', price: 49700, installmentsMax: 12, schoolProductId: String(product.body.id) }, coupon: { code: 'LAUNCH30', discountPercent: 30 } },
    );
    const token = await dataOf(a.admin, graphql('mutation ($input: CouponTokenInput!) { createCouponToken(input: $input) { couponToken { id token } errors { field code } } }'), {
      input: { couponId: billing.createCoupon.coupon.id },
    });
    // The school's gateway account: its callbacks are signed with the secret shown this once.
    const gateway = await dataOf(a.admin, graphql('mutation ($input: GatewayCredentialInput!) { createGatewayCredential(input: $input) { gatewayCredential { id signingSecret } errors { field code } } }'), {
      input: { gateway: 'pagarme' },
    });
    const student = await dataOf(a.admin, graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { code } } }'), {
      input: { fullName: 'Bia Buyer', email: 'bia@example.com' },
    });
    const studentId = Number(student.createStudent.student.id);
    return {
      lesson,
      productId: product.body.id as number,
      optionId: Number(billing.createPaymentOption.paymentOption.id),
      token: token.createCouponToken.couponToken.token as string,
      studentId,
      gateway: { id: Number(gateway.createGatewayCredential.gatewayCredential.id), secret: gateway.createGatewayCredential.gatewayCredential.signingSecret as string },
      studentClient: await service.token('student', a.id, studentId),
    };
  }

  it('sells, enrolls with the product’s period, lets the student read, refunds and takes the access back; the feed tells it in order', async () => {
    const c = await catalogue();
    const written = await service.db.select({ n: count() }).from(domainEvents).where(eq(domainEvents.schoolId, a.id));
    const since = (await feedOf(undefined, written[0].n)).at(-1)?.cursor;

    // The order: 49,700 at 30 % → 34,790 to pay, computed by the service; its invoice open.
    const created = await a.admin.post('/orders', { order: { student_id: c.studentId, items_attributes: [{ payment_option_id: c.optionId, coupon_token: c.token }] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ total: 49700, amount_to_pay: 34790, status: 'initiated' });
    const [invoiceId] = created.body.invoice_ids;

    // A card payment on the invoice: the order is processing.
    const paying = await a.admin.post(`/invoices/${invoiceId}/payments`, { payment: { kind: 0, installments: 3 } });
    expect(paying.status, paying.text).toBe(201);
    expect(paying.headers.location).toBe(`/payments/${paying.body.id}`);
    expect(paying.body).toMatchObject({ status: 'initiated', amount: 34790, invoice_id: invoiceId });
    expect((await a.admin.get(`/orders/${created.body.id}`)).body.status).toBe('processing');

    // The gateway confirms it by a signed callback (Standard Webhooks): invoice paid, order confirmed,
    // student enrolled for 12 months, in that transaction.
    const callback = JSON.stringify({ type: 'payment.status', data: { payment_id: paying.body.id, status: 'confirmed' } });
    const sentAt = service.clock.now();
    const confirmed = await service.anonymous.post(`/gateways/${c.gateway.id}/notifications`, undefined, {
      raw: callback,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_sale_1',
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': new Webhook(c.gateway.secret).sign('evt_sale_1', sentAt, callback),
      },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toMatchObject({ payment_id: paying.body.id, payment_status: 'confirmed' });
    const order = (await a.admin.get(`/orders/${created.body.id}`)).body;
    expect(order).toMatchObject({ status: 'confirmed', confirmed_at: service.clock.now().toISOString() });
    const enrollments = (await a.admin.get(`/students/${c.studentId}/enrollments`)).body;
    expect(enrollments).toHaveLength(1);
    const until = new Date(service.clock.now());
    until.setUTCMonth(until.getUTCMonth() + 12);
    expect(enrollments[0]).toMatchObject({ school_product_id: c.productId, order_id: order.id, status: 'active', unlimited: false, available_until: until.toISOString() });
    const enrollmentId = enrollments[0].id;
    const viaGraphql = await a.admin.graphql('query ($id: ID!) { enrollment(id: $id) { orderId order { id status amountToPay } } }', { id: String(enrollmentId) });
    expect(viaGraphql.data.enrollment).toEqual({ orderId: String(order.id), order: { id: String(order.id), status: 'confirmed', amountToPay: 34790 } });

    // The student reads the lessons its enrollment releases.
    const lessons = await c.studentClient.get(`/enrollments/${enrollmentId}/lessons`);
    expect(lessons.status, lessons.text).toBe(200);
    expect(lessons.body.map((l: { id: number }) => l.id)).toEqual([c.lesson.id]);

    // Confirming again changes nothing.
    expect((await app.put(`/payments/${paying.body.id}/confirm`)).status).toBe(200);
    expect((await a.admin.get(`/students/${c.studentId}/enrollments`)).body).toHaveLength(1);

    // A paid order is refunded, not canceled.
    expectFieldError(await a.admin.put(`/orders/${order.id}/cancel`), 422, 'status', 'refund_required');

    // The full refund: payment refunded, invoice unpaid, order canceled, enrollment canceled, the lessons closed.
    const refunded = await a.admin.post(`/payments/${paying.body.id}/refund`, { refund: { reason: 'Changed their mind' } });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', refunded_amount: 34790, refund_reason: 'Changed their mind' });
    expect((await a.admin.get(`/orders/${order.id}`)).body).toMatchObject({ status: 'canceled', canceled_at: service.clock.now().toISOString() });
    expect((await a.admin.get(`/enrollments/${enrollmentId}`)).body.status).toBe('canceled');
    const closed = await c.studentClient.get(`/enrollments/${enrollmentId}/lessons`);
    expect(closed.status === 404 || (closed.status === 200 && closed.body.length === 0), closed.text).toBe(true);
    expectFieldError(await a.admin.post(`/payments/${paying.body.id}/refund`, { refund: { reason: 'again' } }), 422, 'status', 'invalid_transition');

    // The feed, in commit order.
    const feed = (await feedOf(since, 10)).map((e) => `${e.subject_type}:${e.type}`);
    expect(feed).toEqual([
      'Order:order.created',
      'Payment:payment.created',
      'Payment:payment.confirmed',
      'Invoice:invoice.paid',
      'Order:order.confirmed',
      'Enrollment:enrollment.created',
      'Enrollment:enrollment.activated',
      'Payment:payment.refunded',
      'Order:order.refunded',
      'Enrollment:enrollment.canceled',
    ]);
  });
});
