import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { enrollments } from '../../src/modules/enrollments/enrollment.table.js';
import { invoices, orders, payments } from '../../src/modules/orders/order.table.js';
import { saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The payment operations and what each carries (src/modules/orders/order.state.ts, order.flow.ts):
// POST /invoices/:id/payments, PUT /payments/:id/confirm, PUT /payments/:id/status (a gateway's
// report: failed, reversed, ...), POST /payments/:id/refund (full or partial).

describe('payments', () => {
  let service: Service;
  let a: TestSchool;
  let f: SaleRefs;
  const fx = saleFixtures(() => service);

  twoSchools('Alpha Payments', 'Beta Payments', async (w) => {
    ({ service, school: a } = w);
    f = await fx.sale(a.id);
  });

  const rowsOf = async (orderId: number) => {
    const [order] = await service.db.select().from(orders).where(eq(orders.id, orderId));
    const [invoice] = await service.db.select().from(invoices).where(eq(invoices.orderId, orderId));
    const pays = await service.db.select().from(payments).where(eq(payments.invoiceId, invoice.id)).orderBy(payments.id);
    const enrolled = await service.db.select().from(enrollments).where(eq(enrollments.orderId, orderId));
    return { order, invoice, payments: pays, enrollments: enrolled };
  };

  describe('createPayment', () => {
    it('given a boleto, then waiting_boleto and the order no_wait_processing; given a card without installments, then 422', async () => {
      const { order, invoiceId } = await fx.order(a.admin, f);
      expectFieldError(await a.admin.post(`/invoices/${invoiceId}/payments`, { payment: { kind: 0 } }), 422, 'installments', 'blank');
      expectFieldError(await a.admin.post(`/invoices/${invoiceId}/payments`, { payment: { kind: 1, amount: 100 } }), 422, 'amount', 'price_mismatch');
      const boleto = await fx.payment(a.admin, invoiceId, { kind: 1, installments: null, boleto_code: '2379' });
      expect(boleto).toMatchObject({ status: 'waiting_boleto', amount: 49700, boleto_code: '2379' });
      const rows = await rowsOf(order.id);
      expect([rows.order.status, rows.invoice.status]).toEqual(['no_wait_processing', 'waiting_confirmation']);
    });

    it('given a paid invoice or one of a canceled order, then 422 invalid_transition on invoice_id', async () => {
      const paid = await fx.paidOrder(a.admin, f);
      expectFieldError(await a.admin.post(`/invoices/${paid.invoiceId}/payments`, { payment: { kind: 3 } }), 422, 'invoice_id', 'invalid_transition');
      const { order, invoiceId } = await fx.order(a.admin, f);
      expect((await a.admin.put(`/orders/${order.id}/cancel`)).status).toBe(200);
      expectFieldError(await a.admin.post(`/invoices/${invoiceId}/payments`, { payment: { kind: 3 } }), 422, 'invoice_id', 'invalid_transition');
      expectFieldError(await a.admin.post('/invoices/99999999/payments', { payment: { kind: 3 } }), 404, 'base', 'not_found');
    });
  });

  describe('gateway-reported statuses (PUT /payments/:id/status)', () => {
    it('given failed, then the invoice is open again and another payment can pay it', async () => {
      const { order, invoiceId } = await fx.order(a.admin, f);
      const first = await fx.payment(a.admin, invoiceId);
      const failed = await a.admin.put(`/payments/${first.id}/status`, { payment: { status: 'failed', message: 'Card declined' } });
      expect(failed.status, failed.text).toBe(200);
      expect(failed.body).toMatchObject({ status: 'failed', message: 'Card declined' });
      expect((await rowsOf(order.id)).invoice.status).toBe('open');
      // A failed payment is final.
      expectFieldError(await a.admin.put(`/payments/${first.id}/confirm`), 422, 'status', 'invalid_transition');
      const second = await fx.payment(a.admin, invoiceId);
      expect((await a.admin.put(`/payments/${second.id}/status`, { payment: { status: 'confirmed' } })).status).toBe(200);
      const rows = await rowsOf(order.id);
      expect([rows.order.status, rows.invoice.status, rows.enrollments.length]).toEqual(['confirmed', 'paid', 1]);
    });

    it('given an unknown status, then 422 inclusion; a status the machine has no move for, then 422 invalid_transition', async () => {
      const { invoiceId } = await fx.order(a.admin, f);
      const p = await fx.payment(a.admin, invoiceId);
      expectFieldError(await a.admin.put(`/payments/${p.id}/status`, { payment: { status: 'settled' } }), 422, 'status', 'inclusion');
      expectFieldError(await a.admin.put(`/payments/${p.id}/status`, { payment: { status: 'refunded' } }), 422, 'status', 'invalid_transition');
      expectFieldError(await a.admin.put(`/payments/${p.id}/status`, { payment: { status: null } }), 422, 'status', 'blank');
    });

    it('given a chargeback (reversed) of a paid order, then the order is refunded and its enrollment canceled, in one go', async () => {
      const { order, payment } = await fx.paidOrder(a.admin, f);
      const res = await a.admin.put(`/payments/${payment.id}/status`, { payment: { status: 'reversed', reason: 'chargeback: fraud' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'reversed', refunded_amount: 49700, refund_reason: 'chargeback: fraud' });
      const rows = await rowsOf(order.id);
      expect([rows.order.status, rows.invoice.status, rows.enrollments.map((e) => e.status)]).toEqual(['canceled', 'unpaid', ['canceled']]);
      const events = await fx.eventsAfter(a.id);
      expect(events.filter((e) => e.subjectId === order.id && e.subjectType === 'Order').map((e) => e.name)).toEqual(['order.created', 'order.confirmed', 'order.refunded']);
    });
  });

  describe('refundPayment (POST /payments/:id/refund)', () => {
    it('given a part, then the payment stays confirmed and the enrollment is kept; the rest later is a full refund', async () => {
      const { order, payment } = await fx.paidOrder(a.admin, f);
      const part = await a.admin.post(`/payments/${payment.id}/refund`, { refund: { amount: 9700, reason: 'Late start' } });
      expect(part.status, part.text).toBe(200);
      expect(part.body).toMatchObject({ status: 'confirmed', refunded_amount: 9700, refund_reason: 'Late start' });
      let rows = await rowsOf(order.id);
      expect([rows.order.status, rows.invoice.status, rows.enrollments.map((e) => e.status)]).toEqual(['confirmed', 'paid', ['active']]);
      const refunds = (await fx.eventsAfter(a.id)).filter((e) => e.name === 'payment.refunded' && e.subjectId === payment.id);
      expect(refunds.map((e) => e.payload)).toEqual([expect.objectContaining({ partial: true, refundedAmount: 9700 })]);

      expectFieldError(await a.admin.post(`/payments/${payment.id}/refund`, { refund: { amount: 40001, reason: 'x' } }), 422, 'amount', 'less_than_or_equal_to');
      expectFieldError(await a.admin.post(`/payments/${payment.id}/refund`, { refund: { amount: 0, reason: 'x' } }), 422, 'amount', 'greater_than_or_equal_to');
      expectFieldError(await a.admin.post(`/payments/${payment.id}/refund`, { refund: { amount: 100 } }), 422, 'reason', 'blank');

      const rest = await a.admin.post(`/payments/${payment.id}/refund`, { refund: { amount: 40000, reason: 'Cancelled the course' } });
      expect(rest.body).toMatchObject({ status: 'refunded', refunded_amount: 49700 });
      rows = await rowsOf(order.id);
      expect([rows.order.status, rows.invoice.status, rows.enrollments.map((e) => e.status)]).toEqual(['canceled', 'unpaid', ['canceled']]);
    });

    it('given a payment not confirmed, then 422 invalid_transition and nothing changes', async () => {
      const { invoiceId } = await fx.order(a.admin, f);
      const p = await fx.payment(a.admin, invoiceId);
      expectFieldError(await a.admin.post(`/payments/${p.id}/refund`, { refund: { reason: 'x' } }), 422, 'status', 'invalid_transition');
      const [row] = await service.db.select().from(payments).where(and(eq(payments.id, p.id)));
      expect([row.status, row.refundedAmount]).toEqual(['initiated', 0]);
    });
  });
});
