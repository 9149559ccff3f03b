import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { inWriteSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { Checks } from '../../graphql/validation.js';
import { emitRowEvent } from '../events/events.js';
import { cancelOrderEnrollments, enrollOrder } from './order.enroll.js';
import { firstNextInvoiceAt, resumeIfSettled } from './order.recurring.js';
import { canMove, paymentMachine, type OrderStatus, type PaymentStatus } from './order.state.js';
import { invoices, orders, payments, type InvoiceRow, type OrderRow, type PaymentRow } from './order.table.js';

/**
 * The moves of order.state.ts that carry each other, in the caller's transaction. Rows are locked
 * order → invoice → payment (always in that order, so two operations on one order never deadlock).
 */

export interface Locked {
  order: OrderRow;
  invoice: InvoiceRow;
  payment: PaymentRow;
}

/** A payment of the school the write goes to, its invoice and order, locked; another school's is a 404. */
export async function lockPayment(tx: Queryable, ctx: Context, paymentId: number): Promise<Locked> {
  const [found] = await tx
    .select({ orderId: invoices.orderId, invoiceId: payments.invoiceId })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(eq(payments.id, paymentId), inWriteSchool(ctx, payments.schoolId)));
  if (!found) throw notFound('Payment');
  const [order] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).for('update');
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, found.invoiceId)).for('update');
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  return { order, invoice, payment };
}

/** An order's status as the `from` of a transition the machine refuses, as a 422 on `field`. */
export function refuse(field: string, from: string, to: string, code: 'invalid_transition' | 'refund_required' | 'payment_required' = 'invalid_transition'): never {
  const message = code !== 'invalid_transition' ? undefined : from === to ? `is already ${from}` : `cannot change from ${from} to ${to}`;
  new Checks().add(field, code, message).throwIfAny();
  throw new Error('unreachable');
}

/** Moves an order to confirmed (when it may) and enrolls its student: the first paid invoice, or a free order. */
export async function confirmOrder(tx: Queryable, order: OrderRow, now: Date, emit = true): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    // A recurring order's schedule starts one period after it is paid, unless given (order.recurring.ts).
    .set({ status: 'confirmed', confirmedAt: order.confirmedAt ?? now, nextInvoiceAt: firstNextInvoiceAt(order, order.confirmedAt ?? now) })
    .where(eq(orders.id, order.id))
    .returning();
  if (emit) await emitRowEvent(tx, 'order.confirmed', row, { from: order.status, to: 'confirmed', studentId: row.studentId });
  await enrollOrder(tx, row, now, emit);
  return row;
}

const paymentPayload = (p: PaymentRow, orderId: number) => ({
  orderId,
  invoiceId: p.invoiceId,
  status: p.status,
  kind: p.kind,
  amount: p.amount,
  uuid: p.uuid,
  refundedAmount: p.refundedAmount,
  reason: p.refundReason,
});

/**
 * Moves a locked payment to `to` by `operation` (a 422 `invalid_transition` when order.state.ts has
 * no such row; the status it already has changes nothing), then its invoice and order:
 * confirmed pays the invoice and confirms an unpaid order (enrolling); failed or canceled opens the
 * invoice again when no other payment of it is under way; refunded or reversed takes the money back
 * (takeBack).
 */
export async function movePayment(
  tx: Queryable,
  ctx: Context,
  locked: Locked,
  to: PaymentStatus,
  operation: string,
  details: { message?: string | null; reason?: string | null } = {},
): Promise<PaymentRow> {
  const { order, invoice, payment: current } = locked;
  if (current.status === to) return current;
  if (!canMove(paymentMachine, current.status, to, operation)) refuse('status', current.status, to);
  const now = ctx.now();
  const refunding = to === 'refunded' || to === 'reversed';
  const [payment] = await tx
    .update(payments)
    .set({
      status: to,
      success: to === 'confirmed' ? true : current.success,
      ...(details.message !== undefined ? { message: details.message } : {}),
      ...(refunding ? { refundedAmount: current.amount ?? invoice.amount, refundReason: details.reason ?? current.refundReason } : {}),
    })
    .where(eq(payments.id, current.id))
    .returning();

  if (to === 'confirmed') {
    await emitRowEvent(tx, 'payment.confirmed', payment, paymentPayload(payment, order.id));
    if (invoice.status !== 'paid') {
      const [paid] = await tx.update(invoices).set({ status: 'paid' }).where(eq(invoices.id, invoice.id)).returning();
      await emitRowEvent(tx, 'invoice.paid', paid, { orderId: order.id, amount: paid.amount, occurrence: paid.occurrence, uuid: paid.uuid });
      // A recurring order suspended for an unpaid invoice resumes once none is left (order.recurring.ts).
      await resumeIfSettled(tx, order, paid, now);
    }
    // The first paid invoice confirms the order; a canceled order stays canceled (staff refund the late payment).
    if ((['initiated', 'processing', 'no_wait_processing'] as OrderStatus[]).includes(order.status)) await confirmOrder(tx, order, now);
  } else if (to === 'failed' || to === 'canceled') {
    await emitRowEvent(tx, 'payment.failed', payment, paymentPayload(payment, order.id));
    const open = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.invoiceId, invoice.id), ne(payments.id, payment.id), inArray(payments.status, ['unsent', 'initiated', 'under_analysis', 'waiting_boleto', 'authorized'])));
    if (invoice.status === 'waiting_confirmation' && open.length === 0) await tx.update(invoices).set({ status: 'open' }).where(eq(invoices.id, invoice.id));
  } else if (refunding) {
    await takeBack(tx, order, invoice, payment, now);
  }
  return payment;
}

/**
 * A payment refunded in full or reversed: `payment.refunded`; its invoice `unpaid` when no other
 * confirmed payment pays it; its order `canceled` (`order.refunded`) when no paid invoice is left,
 * and the enrollments the order made canceled (`enrollment.canceled`).
 */
export async function takeBack(tx: Queryable, order: OrderRow, invoice: InvoiceRow, payment: PaymentRow, now: Date): Promise<void> {
  await emitRowEvent(tx, 'payment.refunded', payment, { ...paymentPayload(payment, order.id), partial: false });
  const stillPaying = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.invoiceId, invoice.id), eq(payments.status, 'confirmed')));
  if (invoice.status === 'paid' && stillPaying.length === 0) await tx.update(invoices).set({ status: 'unpaid' }).where(eq(invoices.id, invoice.id));
  const paidLeft = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.orderId, order.id), eq(invoices.status, 'paid')));
  if (order.status !== 'confirmed' || paidLeft.length > 0) return;
  const [row] = await tx.update(orders).set({ status: 'canceled', canceledAt: now }).where(eq(orders.id, order.id)).returning();
  await emitRowEvent(tx, 'order.refunded', row, { from: order.status, to: 'canceled', studentId: row.studentId, paymentId: payment.id, reason: payment.refundReason });
  await cancelOrderEnrollments(tx, row);
}

/**
 * A partial refund: `amount` cents more given back, the payment stays confirmed (and the invoice
 * paid, the order confirmed, the enrollments kept: the student keeps what was bought, partly
 * reimbursed). Reaching the payment's amount is a full refund (movePayment to refunded).
 */
export async function refundPart(tx: Queryable, ctx: Context, locked: Locked, amount: number, reason: string): Promise<PaymentRow> {
  const { payment: current } = locked;
  const paid = current.amount ?? locked.invoice.amount;
  if (current.refundedAmount + amount >= paid) return movePayment(tx, ctx, locked, 'refunded', 'refundPayment', { reason });
  const [payment] = await tx
    .update(payments)
    .set({ refundedAmount: current.refundedAmount + amount, refundReason: reason })
    .where(eq(payments.id, current.id))
    .returning();
  await emitRowEvent(tx, 'payment.refunded', payment, { ...paymentPayload(payment, locked.order.id), partial: true });
  return payment;
}
