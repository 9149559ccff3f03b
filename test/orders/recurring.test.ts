import { and, eq, gt, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/client.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { startRecurringScheduler, type RecurringScheduler } from '../../src/modules/orders/index.js';
import { addPeriod } from '../../src/modules/orders/order.recurring.js';
import { invoices } from '../../src/modules/orders/order.table.js';
import { api } from '../support/courses.fixtures.js';
import { orderFixtures, saleFixtures } from '../support/orders.fixtures.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A recurring order driven by the test clock (src/modules/orders/order.recurring.ts): a monthly
// subscription of three occurrences; its next invoice opened on time, overdue past its due date,
// unpaid past the school's grace period (access suspended: the student reads no lesson), paid
// (access back), and canceled at the end. Two schedulers run every round at once on one database:
// each step happens once (on PostgreSQL, TEST_DATABASE_URL, in parallel transactions).

describe('a recurring order, billed by two schedulers', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let app: Client;
  let schedulers: RecurringScheduler[];
  let second: Database | undefined;
  const { option, payment } = saleFixtures(() => service);
  const { person } = orderFixtures(() => service);

  twoSchools('Alpha Recurring', 'Beta Recurring', async (w) => {
    ({ service, school: a, other: b } = w);
    app = await service.token('app', a.id);
    // Off in the test service; these two are driven by hand, on the service clock. Two instances: on
    // PostgreSQL the second has a connection pool of its own, as another process would.
    if (service.databaseUrl) second = await openDatabase({ url: service.databaseUrl, maxConnections: 4 });
    schedulers = [service.database, second ?? service.database].map((database) => startRecurringScheduler(database, { now: service.clock.now, poll: false }));
  });
  afterAll(async () => {
    await second?.close();
  });

  /** One round of both schedulers at once, at the service clock's time. */
  async function round() {
    const rounds = await Promise.all(schedulers.map((s) => s.runOnce()));
    return rounds.reduce((sum, r) => ({ ended: sum.ended + r.ended, opened: sum.opened + r.opened, overdue: sum.overdue + r.overdue, unpaid: sum.unpaid + r.unpaid }));
  }

  async function lastEventId() {
    const rows = await service.db.select({ id: domainEvents.id }).from(domainEvents).orderBy(domainEvents.id);
    return rows.at(-1)?.id ?? 0;
  }

  /** The school's events after `since`, as `Subject:name`. */
  async function eventsSince(since: number) {
    const rows = await service.db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.schoolId, a.id), gt(domainEvents.id, since)))
      .orderBy(domainEvents.id);
    return rows.map((r) => `${r.subjectType}:${r.name}`);
  }

  /** A product with a course of one lesson, its monthly option, a student and its credential. */
  async function catalogue() {
    const make = api(a.admin);
    const course = await make.course();
    const module = await make.module(course.id);
    const lesson = await make.lesson({ course_module_id: module.id, title: 'Month one' });
    const product = await a.admin.post('/school_products', { school_product: { title: 'Club', course_ids: [course.id] } });
    expect(product.status, product.text).toBe(201);
    const monthly = await option(a.id, { price: 9900, schoolProductId: product.body.id });
    const student = await person(a.id);
    return { lesson, monthly, studentId: student.id, studentClient: await service.token('student', a.id, student.id) };
  }

  async function pay(invoiceId: number) {
    const made = await payment(a.admin, invoiceId);
    const confirmed = await app.put(`/payments/${made.id}/confirm`);
    expect(confirmed.status, confirmed.text).toBe(200);
  }

  async function lessonsReadable(client: Client, enrollmentId: number) {
    const res = await client.get(`/enrollments/${enrollmentId}/lessons`);
    return res.status === 200 && res.body.length > 0;
  }

  it('opens the next invoice on time, marks it overdue then unpaid (access suspended), restores access when paid, and cancels at the end; each step once', async () => {
    service.clock.set('2026-03-31T09:00:00Z');
    const c = await catalogue();
    expect((await a.admin.put('/billing_settings', { billing_settings: { grace_days: 2 } })).body).toMatchObject({ due_days: 3, grace_days: 2 });

    const created = await a.admin.post('/orders', { order: { student_id: c.studentId, kind: 1, period: 1, occurrences: 3, items_attributes: [{ payment_option_id: c.monthly.id }] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ amount_to_pay: 9900, kind: 1, period: 1, occurrences: 3, next_invoice_at: null });
    const orderId = created.body.id as number;
    await pay(created.body.invoice_ids[0]);

    // Confirmed: enrolled, and the schedule starts one month on (31 March → 30 April: the month's last day).
    const confirmed = (await a.admin.get(`/orders/${orderId}`)).body;
    expect(confirmed).toMatchObject({ status: 'confirmed', next_invoice_at: '2026-04-30T09:00:00.000Z' });
    const [enrollment] = (await a.admin.get(`/students/${c.studentId}/enrollments`)).body;
    expect(enrollment).toMatchObject({ order_id: orderId, status: 'active' });
    expect(await lessonsReadable(c.studentClient, enrollment.id)).toBe(true);
    const since = await lastEventId();

    // A second before: nothing is due.
    service.clock.set('2026-04-30T08:59:59Z');
    expect(await round()).toEqual({ ended: 0, opened: 0, overdue: 0, unpaid: 0 });

    // On time: one invoice opened by the two schedulers, the schedule a month further.
    service.clock.set('2026-04-30T09:00:00Z');
    expect((await round()).opened).toBe(1);
    const second = (await service.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.occurrence)).at(-1)!;
    expect(second).toMatchObject({ occurrence: 2, amount: 9900, status: 'open', dueAt: new Date('2026-05-03T09:00:00Z') });
    expect((await a.admin.get(`/orders/${orderId}`)).body.next_invoice_at).toBe('2026-05-30T09:00:00.000Z');
    expect(await round()).toEqual({ ended: 0, opened: 0, overdue: 0, unpaid: 0 });

    // Past the due date: overdue, access kept through the grace period.
    service.clock.set('2026-05-03T09:00:01Z');
    expect((await round()).overdue).toBe(1);
    expect((await a.admin.graphql('query ($id: ID!) { order(id: $id) { invoices { status dueAt } } }', { id: String(orderId) })).data.order.invoices[1]).toEqual({
      status: 'overdue',
      dueAt: '2026-05-03T09:00:00.000Z',
    });
    expect(await lessonsReadable(c.studentClient, enrollment.id)).toBe(true);

    // Past the school's grace period (2 days): unpaid, the order suspended, the lessons closed.
    service.clock.set('2026-05-05T09:00:01Z');
    expect((await round()).unpaid).toBe(1);
    expect(await round()).toEqual({ ended: 0, opened: 0, overdue: 0, unpaid: 0 });
    const [unpaidInvoice] = await service.db.select().from(invoices).where(eq(invoices.id, second.id));
    expect(unpaidInvoice.status).toBe('unpaid');
    expect((await a.admin.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'confirmed', suspended_at: '2026-05-05T09:00:01.000Z' });
    expect((await a.admin.get(`/enrollments/${enrollment.id}`)).body.status).toBe('deactivated');
    expect(await lessonsReadable(c.studentClient, enrollment.id)).toBe(false);

    // Paid: the invoice paid, the order resumed, the lessons open again.
    await pay(second.id);
    expect((await a.admin.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'confirmed', suspended_at: null });
    expect((await a.admin.get(`/enrollments/${enrollment.id}`)).body.status).toBe('active');
    expect(await lessonsReadable(c.studentClient, enrollment.id)).toBe(true);

    // The third and last invoice, paid on time.
    service.clock.set('2026-05-30T09:00:00Z');
    expect((await round()).opened).toBe(1);
    const third = (await service.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.occurrence)).at(-1)!;
    expect(third.occurrence).toBe(3);
    await pay(third.id);

    // The end of the last paid month: canceled once, no fourth invoice, the enrollment canceled.
    service.clock.set('2026-06-30T09:00:00Z');
    expect(await round()).toEqual({ ended: 1, opened: 0, overdue: 0, unpaid: 0 });
    expect(await round()).toEqual({ ended: 0, opened: 0, overdue: 0, unpaid: 0 });
    expect((await a.admin.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'canceled', canceled_at: '2026-06-30T09:00:00.000Z', next_invoice_at: null });
    expect(await service.db.select().from(invoices).where(eq(invoices.orderId, orderId))).toHaveLength(3);
    expect((await a.admin.get(`/enrollments/${enrollment.id}`)).body.status).toBe('canceled');
    expect(await lessonsReadable(c.studentClient, enrollment.id)).toBe(false);

    expect(await eventsSince(since)).toEqual([
      'Invoice:invoice.created',
      'Invoice:invoice.overdue',
      'Invoice:invoice.overdue',
      'Order:subscription.suspended',
      'Payment:payment.created',
      'Payment:payment.confirmed',
      'Invoice:invoice.paid',
      'Order:subscription.resumed',
      'Invoice:invoice.created',
      'Payment:payment.created',
      'Payment:payment.confirmed',
      'Invoice:invoice.paid',
      'Enrollment:enrollment.canceled',
      'Order:subscription.canceled',
    ]);
    const payloads = await service.db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.schoolId, a.id), gt(domainEvents.id, since), inArray(domainEvents.name, ['invoice.overdue', 'subscription.canceled'])))
      .orderBy(domainEvents.id);
    expect(payloads.map((e) => e.payload)).toEqual([
      { orderId, status: 'overdue', amount: 9900, occurrence: 2, dueAt: '2026-05-03T09:00:00.000Z' },
      { orderId, status: 'unpaid', amount: 9900, occurrence: 2, dueAt: '2026-05-03T09:00:00.000Z' },
      { studentId: c.studentId, invoiceId: null, enrollmentIds: [enrollment.id], reason: 'ended' },
    ]);
  });

  it('given staff cancel a paid-up subscription, then it runs to the end of the paid month; with an invoice not paid, at once', async () => {
    service.clock.set('2026-01-15T12:00:00Z');
    const c = await catalogue();
    const order = async () => {
      const res = await a.admin.post('/orders', { order: { student_id: c.studentId, kind: 1, period: 1, items_attributes: [{ payment_option_id: c.monthly.id }] } });
      expect(res.status, res.text).toBe(201);
      await pay(res.body.invoice_ids[0]);
      return res.body.id as number;
    };
    const paidUp = await order();
    const canceled = await a.admin.put(`/orders/${paidUp}/cancel_subscription`);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'confirmed', canceled_at: '2026-02-15T12:00:00.000Z', occurrences: 1 });
    expect((await a.admin.put(`/orders/${paidUp}/cancel_subscription`)).body.canceled_at).toBe('2026-02-15T12:00:00.000Z');
    service.clock.set('2026-02-15T12:00:00Z');
    expect(await round()).toMatchObject({ ended: 1, opened: 0 });
    expect((await a.admin.get(`/orders/${paidUp}`)).body.status).toBe('canceled');

    // Another, whose second invoice is open: canceled at once.
    const owing = await order();
    service.clock.set('2026-03-15T12:00:00Z');
    expect((await round()).opened).toBe(1);
    const since = await lastEventId();
    const now = await a.admin.put(`/orders/${owing}/cancel_subscription`);
    expect(now.body).toMatchObject({ status: 'canceled', canceled_at: '2026-03-15T12:00:00.000Z', next_invoice_at: null });
    expect(await eventsSince(since)).toEqual(['Enrollment:enrollment.canceled', 'Order:subscription.canceled']);
    expectFieldError(await a.admin.put(`/orders/${owing}/cancel_subscription`), 422, 'status', 'invalid_transition');
  });

  it('given a payment under way on an unpaid invoice, then the order stays suspended until it is confirmed; a failed one leaves the invoice to be marked again', async () => {
    service.clock.set('2026-01-15T12:00:00Z');
    const c = await catalogue();
    await a.admin.put('/billing_settings', { billing_settings: { due_days: 0, grace_days: 0 } });
    const res = await a.admin.post('/orders', { order: { student_id: c.studentId, kind: 1, period: 1, items_attributes: [{ payment_option_id: c.monthly.id }] } });
    await pay(res.body.invoice_ids[0]);
    const orderId = res.body.id as number;
    const [enrollment] = (await a.admin.get(`/students/${c.studentId}/enrollments`)).body;

    // Opened, overdue and unpaid in one late round (due and grace 0).
    service.clock.set('2026-02-15T12:00:01Z');
    expect(await round()).toEqual({ ended: 0, opened: 1, overdue: 1, unpaid: 1 });
    const second = (await service.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.occurrence)).at(-1)!;
    expect((await a.admin.get(`/enrollments/${enrollment.id}`)).body.status).toBe('deactivated');

    // A boleto under way: the invoice waits for it, the order stays suspended; it fails: open, marked again.
    const boleto = await payment(a.admin, second.id, { kind: 1 });
    expect(await round()).toEqual({ ended: 0, opened: 0, overdue: 0, unpaid: 0 });
    expect((await a.admin.get(`/orders/${orderId}`)).body.suspended_at).not.toBeNull();
    expect((await a.admin.put(`/payments/${boleto.id}/status`, { payment: { status: 'failed' } })).status).toBe(200);
    expect(await round()).toEqual({ ended: 0, opened: 0, overdue: 1, unpaid: 1 });
    expect((await a.admin.get(`/enrollments/${enrollment.id}`)).body.status).toBe('deactivated');

    // Paid by card: resumed once.
    const since = await lastEventId();
    await pay(second.id);
    expect((await a.admin.get(`/enrollments/${enrollment.id}`)).body.status).toBe('active');
    expect((await eventsSince(since)).filter((e) => e.startsWith('Order:'))).toEqual(['Order:subscription.resumed']);
    await a.admin.put('/billing_settings', { billing_settings: { due_days: null, grace_days: null } });
    expect((await a.admin.get('/billing_settings')).body).toMatchObject({ due_days: 3, grace_days: 7 });
  });

  it('given a common order, a bad grace period or a student, then the recurring operations refuse', async () => {
    service.clock.set('2026-01-15T12:00:00Z');
    const c = await catalogue();
    const common = await a.admin.post('/orders', { order: { student_id: c.studentId, items_attributes: [{ payment_option_id: c.monthly.id }] } });
    expectFieldError(await a.admin.put(`/orders/${common.body.id}/cancel_subscription`), 422, 'kind', 'not_subscription');
    expectFieldError(await a.admin.put('/billing_settings', { billing_settings: { grace_days: -1 } }), 422, 'grace_days', 'greater_than_or_equal_to');
    expectFieldError(await a.admin.post('/orders', { order: { student_id: c.studentId, kind: 1, period: 1, occurrences: 0, items_attributes: [{ payment_option_id: c.monthly.id }] } }), 422, 'occurrences', 'greater_than_or_equal_to');
    expect((await c.studentClient.put('/billing_settings', { billing_settings: { grace_days: 1 } })).status).toBe(403);
    // Another school's order is a 404.
    expect((await b.admin.put(`/orders/${common.body.id}/cancel_subscription`)).status).toBe(404);
  });

  it('given an installment plan of two, then its second invoice is the last and access stays', async () => {
    service.clock.set('2026-01-10T00:00:00Z');
    const c = await catalogue();
    const res = await a.admin.post('/orders', { order: { student_id: c.studentId, kind: 2, period: 2, occurrences: 2, items_attributes: [{ payment_option_id: c.monthly.id }] } });
    await pay(res.body.invoice_ids[0]);
    expect((await a.admin.get(`/orders/${res.body.id}`)).body.next_invoice_at).toBe(addPeriod(new Date('2026-01-10T00:00:00Z'), 2).toISOString());
    // (The earlier tests' subscriptions bill on in the same rounds: this order's invoices are counted.)
    const invoicesOf = async () => (await service.db.select().from(invoices).where(eq(invoices.orderId, res.body.id))).length;
    service.clock.set('2026-04-10T00:00:00Z');
    await round();
    expect(await invoicesOf()).toBe(2);
    expect((await a.admin.get(`/orders/${res.body.id}`)).body).toMatchObject({ status: 'confirmed', next_invoice_at: null });
    service.clock.set('2027-01-10T00:00:00Z');
    await round();
    expect(await invoicesOf()).toBe(2);
    expect((await a.admin.get(`/orders/${res.body.id}`)).body.status).toBe('confirmed');
  });
});
