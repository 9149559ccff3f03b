import { invoiceStatus, orderStatus, paymentStatus } from './order.table.js';

export type OrderStatus = (typeof orderStatus.enumValues)[number];
export type InvoiceStatus = (typeof invoiceStatus.enumValues)[number];
export type PaymentStatus = (typeof paymentStatus.enumValues)[number];

/**
 * The one state machine of selling: orders, invoices and payments (the spec's status lists; the
 * spec shows only the cancellation of an order, the rest is this service's decision). Each row is a
 * transition: the operation (GraphQL root field; its role row is in index.ts) that makes it, the
 * events it emits, and why. Any other change is a 422 `invalid_transition` (a paid order cancelled
 * is `refund_required`; an order with something to pay confirmed by hand is `payment_required`).
 * Giving a status a record already has is no transition (a fetched order sent back whole).
 *
 * How one move carries the others (order.flow.ts, all in the transaction of the operation):
 * a payment `confirmed` pays its invoice; the first paid invoice confirms its order; a confirmed
 * order enrolls its student (order.enroll.ts). A payment refunded in full or reversed
 * (chargeback) leaves its invoice `unpaid`; an order with no paid invoice left is `canceled`
 * (event `order.refunded`) and the enrollments it made are canceled.
 */
export interface Transition<S extends string> {
  from: readonly S[];
  to: S;
  operations: readonly string[];
  events: readonly string[];
  note: string;
}

/** The recurring scheduler (order.recurring.ts): a move no request makes. */
export const SCHEDULER = 'scheduler';

const PAYMENT_OPEN: readonly PaymentStatus[] = ['unsent', 'initiated', 'under_analysis', 'waiting_boleto', 'authorized'];
const ORDER_UNPAID: readonly OrderStatus[] = ['initiated', 'processing', 'no_wait_processing'];

export const paymentMachine: readonly Transition<PaymentStatus>[] = [
  { from: [], to: 'initiated', operations: ['createPayment'], events: ['payment.created'], note: 'a payment attempt on a payable invoice (boleto: waiting_boleto)' },
  { from: [], to: 'waiting_boleto', operations: ['createPayment'], events: ['payment.created'], note: 'a boleto, waiting to be paid' },
  {
    from: ['unsent', 'initiated', 'under_analysis', 'waiting_boleto'],
    to: 'under_analysis',
    operations: ['updatePaymentStatus'],
    events: [],
    note: 'the gateway reports it (anti-fraud review)',
  },
  { from: ['unsent', 'initiated', 'under_analysis'], to: 'authorized', operations: ['updatePaymentStatus'], events: [], note: 'card authorized, not yet captured' },
  { from: ['unsent'], to: 'initiated', operations: ['updatePaymentStatus'], events: [], note: 'sent to the gateway' },
  { from: PAYMENT_OPEN, to: 'confirmed', operations: ['confirmPayment', 'updatePaymentStatus'], events: ['payment.confirmed'], note: 'paid: pays its invoice' },
  { from: PAYMENT_OPEN, to: 'failed', operations: ['updatePaymentStatus'], events: ['payment.failed'], note: 'refused; the invoice is open again' },
  { from: PAYMENT_OPEN, to: 'canceled', operations: ['updatePaymentStatus'], events: ['payment.failed'], note: 'abandoned; the invoice is open again' },
  {
    from: ['confirmed'],
    to: 'refunded',
    operations: ['refundPayment', 'updatePaymentStatus'],
    events: ['payment.refunded'],
    note: 'given back in full (a partial refund keeps it confirmed)',
  },
  { from: ['confirmed'], to: 'reversed', operations: ['updatePaymentStatus'], events: ['payment.refunded'], note: 'a chargeback reported by the gateway: as a full refund' },
];

export const invoiceMachine: readonly Transition<InvoiceStatus>[] = [
  { from: [], to: 'open', operations: ['createOrder'], events: [], note: 'an order with something to pay opens its first invoice (occurrence 1, its amount_to_pay)' },
  { from: ['unsent', 'open', 'overdue', 'unpaid'], to: 'waiting_confirmation', operations: ['createPayment'], events: [], note: 'a payment is under way' },
  { from: ['waiting_confirmation'], to: 'open', operations: ['updatePaymentStatus'], events: [], note: 'its last open payment failed or was canceled' },
  {
    from: ['unsent', 'open', 'waiting_confirmation', 'overdue', 'unpaid'],
    to: 'paid',
    operations: ['confirmPayment', 'updatePaymentStatus'],
    events: ['invoice.paid', 'subscription.resumed'],
    note: 'a payment of it was confirmed (a suspended order with no unpaid invoice left resumes: its enrollments active again)',
  },
  { from: ['paid'], to: 'unpaid', operations: ['refundPayment', 'updatePaymentStatus'], events: [], note: 'its payment was refunded in full or reversed' },
  {
    from: [],
    to: 'open',
    operations: [SCHEDULER],
    events: ['invoice.created'],
    note: "a confirmed recurring order's next invoice, at next_invoice_at (its amount_to_pay, due after the school's due days); next_invoice_at advances one period",
  },
  {
    from: ['unsent', 'open'],
    to: 'overdue',
    operations: [SCHEDULER],
    events: ['invoice.overdue'],
    note: 'a recurring invoice past its due date, not paid (one with a payment under way waits for it)',
  },
  {
    from: ['overdue'],
    to: 'unpaid',
    operations: [SCHEDULER],
    events: ['invoice.overdue', 'subscription.suspended'],
    note: "past the school's grace period too: the order is suspended (its active enrollments deactivated) until no unpaid invoice is left",
  },
];

export const orderMachine: readonly Transition<OrderStatus>[] = [
  { from: ['initiated'], to: 'processing', operations: ['createPayment', 'createOrder', 'updateOrder'], events: [], note: 'a card payment is under way (the buyer waits)' },
  { from: ['initiated'], to: 'no_wait_processing', operations: ['createPayment', 'createOrder', 'updateOrder'], events: [], note: 'a boleto, pix or external payment is under way' },
  {
    from: ORDER_UNPAID,
    to: 'confirmed',
    operations: ['confirmPayment', 'updatePaymentStatus'],
    events: ['order.confirmed', 'enrollment.created', 'enrollment.activated'],
    note: 'its first invoice was paid: the student is enrolled',
  },
  {
    from: ORDER_UNPAID,
    to: 'confirmed',
    operations: ['createOrder', 'updateOrder'],
    events: ['order.confirmed', 'enrollment.created', 'enrollment.activated'],
    note: 'only an order with nothing to pay (amount_to_pay 0); otherwise payment_required',
  },
  { from: ORDER_UNPAID, to: 'canceled', operations: ['cancelOrder', 'updateOrder'], events: ['order.canceled'], note: 'not paid: canceled (a paid one: refund_required)' },
  {
    from: ['confirmed'],
    to: 'canceled',
    operations: ['refundPayment', 'updatePaymentStatus'],
    events: ['order.refunded', 'enrollment.canceled'],
    note: 'no paid invoice left (full refund or chargeback): the enrollments it made are canceled',
  },
  {
    from: ['confirmed'],
    to: 'canceled',
    operations: [SCHEDULER, 'cancelSubscription'],
    events: ['subscription.canceled', 'enrollment.canceled'],
    note: 'a subscription (kind 1) ended: its occurrences ran out, or staff canceled it (at the end of the paid period; at once when an invoice is not paid)',
  },
];

export function canMove<S extends string>(machine: readonly Transition<S>[], from: S, to: S, operation: string): boolean {
  return machine.some((t) => t.to === to && t.from.includes(from) && t.operations.includes(operation));
}

/** The statuses an order may be created with (createOrder; an import may give any). */
export const ORDER_CREATE_STATUSES: readonly OrderStatus[] = ['initiated', 'processing', 'no_wait_processing', 'confirmed'];

/** The machine as README rows: resource, from, to, operations, events, note. */
export function machineRows(): string[][] {
  const rows = (name: string, machine: readonly Transition<string>[]) =>
    machine.map((t) => [name, t.from.length ? t.from.join(', ') : '(new)', t.to, t.operations.join(', '), t.events.join(', ') || '-', t.note]);
  return [...rows('Order', orderMachine), ...rows('Invoice', invoiceMachine), ...rows('Payment', paymentMachine)];
}

/**
 * Kinds (the spec gives only the ranges; the meanings are this service's, documented on the types):
 * order kind 0..3 = common, subscription, installment plan, free; order period 0..4 = none,
 * monthly, quarterly, semiannual, annual; payment kind 0..3 (typed String by the spec) =
 * credit card, boleto, pix, external (paid outside the gateway).
 */
export const PAYMENT_KINDS = ['credit_card', 'boleto', 'pix', 'external'] as const;
export const ORDER_KIND_COMMON = 0;
export const ORDER_KIND_SUBSCRIPTION = 1;
export const ORDER_KIND_INSTALLMENTS = 2;
/** Months in a period (order period 1..4); 0 is none: not recurring. */
export const PERIOD_MONTHS: Readonly<Record<number, number>> = { 1: 1, 2: 3, 3: 6, 4: 12 };
export const PAYMENT_KIND_CREDIT_CARD = 0;
export const PAYMENT_KIND_BOLETO = 1;
