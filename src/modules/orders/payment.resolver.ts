/**
 * Payments: `payment`, `createPayment`, `confirmPayment`, `updatePaymentStatus`, `refundPayment`.
 * Each moves the state machine of order.state.ts; what follows (invoice paid, order confirmed,
 * student enrolled; money taken back, order refunded, enrollments canceled) is order.flow.ts's, in
 * the same transaction. Charging a card is a gateway's (out of this service): createPayment
 * records an attempt, and the gateway's reports come in as updatePaymentStatus (by staff) or as
 * its signed callback (gateway-notification.ts), which makes the same moves.
 */
import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, inWriteSchool, isOwn } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { emitRowEvent } from '../events/events.js';
import { lockPayment, movePayment, refundPart, refuse } from './order.flow.js';
import { ORDER_KIND_COMMON, PAYMENT_KIND_BOLETO, PAYMENT_KIND_CREDIT_CARD } from './order.state.js';
import { invoices, orders, payments } from './order.table.js';
import { Payment } from './order.type.js';
import { PaymentInput, PaymentStatusInput, RefundInput } from './payment.input.js';

export const PaymentPayload = Payload(Payment, 'payment');
uniqueConstraintField('payments_school_id_uuid_key', 'uuid');

/** Invoices a payment may be made on (order.state.ts: createPayment). */
const PAYABLE = ['unsent', 'open', 'waiting_confirmation', 'overdue', 'unpaid'];

async function createPaymentRow(tx: Queryable, ctx: Context, invoiceId: number, input: PaymentInput) {
  const [found] = await tx
    .select({ orderId: invoices.orderId })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), inWriteSchool(ctx, invoices.schoolId)));
  if (!found) throw notFound('Invoice');
  const [order] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).for('update');
  const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');

  const checks = new Checks().required('kind', input.kind).range('kind', input.kind, 0, 3).range('amount', input.amount, 0).range('installments', input.installments, 1);
  checks.requiredWhen(
    order.kind === ORDER_KIND_COMMON && input.kind === PAYMENT_KIND_CREDIT_CARD,
    'installments',
    input.installments,
    'for a common order (kind 0) paid by credit card (kind 0)',
  );
  if (input.amount !== undefined && input.amount !== null && input.amount !== invoice.amount) checks.add('amount', 'price_mismatch', `must be the invoice's amount, ${invoice.amount}`);
  if (!PAYABLE.includes(invoice.status)) checks.add('invoiceId', 'invalid_transition', `is ${invoice.status}: it takes no payment`);
  if (order.status === 'canceled') checks.add('invoiceId', 'invalid_transition', 'belongs to a canceled order');
  checks.throwIfAny();

  const status = input.kind === PAYMENT_KIND_BOLETO ? 'waiting_boleto' : 'initiated';
  const [payment] = await tx
    .insert(payments)
    .values({
      schoolId: invoice.schoolId,
      invoiceId,
      kind: input.kind!,
      status,
      amount: invoice.amount,
      installments: input.installments ?? null,
      uuid: input.uuid?.trim() || null,
      gatewayReference: input.gatewayReference ?? null,
      link: input.link ?? null,
      boletoCode: input.boletoCode ?? null,
      cardholder: input.cardholder ?? null,
      test: input.test ?? false,
    })
    .returning();
  if (invoice.status !== 'waiting_confirmation') await tx.update(invoices).set({ status: 'waiting_confirmation' }).where(eq(invoices.id, invoiceId));
  // A card keeps the buyer waiting (processing); a boleto, pix or external payment does not.
  if (order.status === 'initiated')
    await tx
      .update(orders)
      .set({ status: input.kind === PAYMENT_KIND_CREDIT_CARD ? 'processing' : 'no_wait_processing' })
      .where(eq(orders.id, order.id));
  await emitRowEvent(tx, 'payment.created', payment, {
    orderId: order.id,
    invoiceId,
    status: payment.status,
    kind: payment.kind,
    amount: payment.amount,
    uuid: payment.uuid,
  });
  return payment;
}

@Resolver(() => Payment)
export class PaymentResolver {
  @Query(() => Payment, { description: "A payment of the school; a student credential sees only its own orders' payments." })
  async payment(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const [row] = await ctx.db
      .select({ payment: payments, studentId: orders.studentId })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .innerJoin(orders, eq(orders.id, invoices.orderId))
      .where(and(eq(payments.id, parseId(id, 'Payment')), inSchool(ctx, payments.schoolId)));
    if (!row || !isOwn(ctx, row.studentId)) throw notFound('Payment');
    return row.payment;
  }

  @Mutation(() => PaymentPayload, {
    description: 'Records a payment attempt on a payable invoice (initiated; a boleto waiting_boleto): the invoice waits for confirmation and an initiated order is processing.',
  })
  createPayment(@Arg('invoiceId', () => ID) invoiceId: string, @Arg('input', () => PaymentInput) input: PaymentInput, @Ctx() ctx: Context) {
    const id = parseId(invoiceId, 'Invoice');
    return mutate(ctx, 'payment', (tx) => createPaymentRow(tx, ctx, id, input));
  }

  @Mutation(() => PaymentPayload, {
    description: 'Confirms a payment (paid): its invoice is paid, and the first paid invoice confirms its order and enrolls the student. Confirming twice changes nothing.',
  })
  confirmPayment(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const paymentId = parseId(id, 'Payment');
    return mutate(ctx, 'payment', async (tx) => movePayment(tx, ctx, await lockPayment(tx, ctx, paymentId), 'confirmed', 'confirmPayment'));
  }

  @Mutation(() => PaymentPayload, {
    description:
      "A status the gateway reported (order.state.ts' payment rows): confirmed pays; failed or canceled reopens the invoice; refunded or reversed (a chargeback) takes the money back as a full refund. The status it already has changes nothing.",
  })
  updatePaymentStatus(@Arg('id', () => ID) id: string, @Arg('input', () => PaymentStatusInput) input: PaymentStatusInput, @Ctx() ctx: Context) {
    const paymentId = parseId(id, 'Payment');
    return mutate(ctx, 'payment', async (tx) => {
      new Checks().required('status', input.status).throwIfAny();
      return movePayment(tx, ctx, await lockPayment(tx, ctx, paymentId), input.status!, 'updatePaymentStatus', { message: input.message, reason: input.reason });
    });
  }

  @Mutation(() => PaymentPayload, {
    description:
      'Gives money of a confirmed payment back, with a reason. All that is left (the default): the payment is refunded, its invoice unpaid, its order canceled (order.refunded) and the enrollments the order made canceled. A part: the payment stays confirmed and the enrollments are kept.',
  })
  refundPayment(@Arg('id', () => ID) id: string, @Arg('input', () => RefundInput) input: RefundInput, @Ctx() ctx: Context) {
    const paymentId = parseId(id, 'Payment');
    return mutate(ctx, 'payment', async (tx) => {
      const locked = await lockPayment(tx, ctx, paymentId);
      const { payment } = locked;
      if (payment.status !== 'confirmed') refuse('status', payment.status, 'refunded');
      const left = (payment.amount ?? locked.invoice.amount) - payment.refundedAmount;
      const checks = new Checks().required('reason', input.reason).range('amount', input.amount, 1, left);
      checks.throwIfAny();
      return refundPart(tx, ctx, locked, input.amount ?? left, input.reason!.trim());
    });
  }
}
