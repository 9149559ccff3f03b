import { z } from 'zod';
import { event, id, isoTime } from '../events/catalog.js';

const orderStatus = z.object({ from: z.string().nullable(), to: z.string(), studentId: id });
const payment = z.object({
  orderId: id,
  invoiceId: id,
  status: z.string(),
  kind: z.number().int(),
  amount: z.number().int().nullable().describe('cents'),
  uuid: z.string().nullable(),
  refundedAmount: z.number().int().optional().describe('cents given back so far'),
  reason: z.string().nullable().optional().describe('why it was refunded'),
});

const recurringInvoice = z.object({
  orderId: id,
  status: z.string(),
  amount: z.number().int().describe('cents'),
  occurrence: z.number().int(),
  dueAt: isoTime.nullable(),
});
const subscription = z.object({ studentId: id, invoiceId: id.nullable(), enrollmentIds: z.array(id) });

/** The events of orders, their invoices and payments (the catalog: events/catalog.ts). */
export const orderEventCatalog = {
  'order.created': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['createOrder'],
    description: 'An order was created.',
    payload: z.object({ status: z.string(), studentId: id }),
  }),
  'order.confirmed': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['createOrder', 'updateOrder', 'confirmPayment', 'updatePaymentStatus', 'receiveGatewayNotification'],
    description: 'An order became confirmed: its first invoice was paid (or it had nothing to pay). Its student is enrolled in the same transaction.',
    payload: orderStatus,
  }),
  'order.canceled': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['updateOrder', 'cancelOrder'],
    description: 'An order was canceled.',
    payload: orderStatus,
  }),
  'order.imported': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['importOrder'],
    description: 'An order was imported with its items, invoices and payments.',
    payload: z.object({ uuid: z.string().nullable(), status: z.string(), items: z.number().int(), invoices: z.number().int(), payments: z.number().int() }),
  }),
  'order.refunded': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['refundPayment', 'updatePaymentStatus', 'receiveGatewayNotification'],
    description: 'A paid order has no paid invoice left (a full refund or a chargeback): it is canceled and the enrollments it made are canceled.',
    payload: orderStatus.extend({ paymentId: id, reason: z.string().nullable() }),
  }),
  'invoice.paid': event({
    version: 1,
    subject: 'Invoice',
    emittedBy: ['importOrder', 'confirmPayment', 'updatePaymentStatus', 'receiveGatewayNotification'],
    description: 'An invoice was paid (a payment of it confirmed, or recorded paid by an import).',
    payload: z.object({ orderId: id, amount: z.number().int().describe('cents'), occurrence: z.number().int(), uuid: z.string().nullable() }),
  }),
  'invoice.created': event({
    version: 1,
    subject: 'Invoice',
    emittedBy: ['the recurring scheduler (order.recurring.ts)'],
    description: "A recurring order's next invoice was opened at its next_invoice_at, for the order's amount_to_pay.",
    payload: recurringInvoice,
  }),
  'invoice.overdue': event({
    version: 1,
    subject: 'Invoice',
    emittedBy: ['the recurring scheduler (order.recurring.ts)'],
    description: 'A recurring invoice passed its due date unpaid (status overdue), or its grace period too (status unpaid: the order is suspended).',
    payload: recurringInvoice,
  }),
  'subscription.suspended': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['the recurring scheduler (order.recurring.ts)'],
    description: "An invoice of a recurring order stayed unpaid past its grace period: the order's active enrollments are deactivated.",
    payload: subscription,
  }),
  'subscription.resumed': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['confirmPayment', 'updatePaymentStatus'],
    description: "A suspended recurring order has no unpaid invoice left (a payment was confirmed): the enrollments it deactivated are active again.",
    payload: subscription,
  }),
  'subscription.canceled': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['the recurring scheduler (order.recurring.ts)', 'cancelSubscription'],
    description:
      'A subscription ended: its last occurrence ran out (or staff canceled it, taking effect at the end of the paid period, or at once when an invoice is not paid). The order is canceled and its enrollments canceled.',
    payload: subscription.extend({ reason: z.enum(['ended', 'canceled']) }),
  }),
  'payment.created': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['createPayment'],
    description: 'A payment attempt on an invoice was made (initiated, or waiting_boleto).',
    payload: payment,
  }),
  'payment.confirmed': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['importOrder', 'confirmPayment', 'updatePaymentStatus', 'receiveGatewayNotification'],
    description: 'A payment was confirmed (or recorded confirmed by an import).',
    payload: payment,
  }),
  'payment.failed': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['updatePaymentStatus', 'receiveGatewayNotification'],
    description: 'A payment failed or was canceled; its invoice is open again when nothing else is under way.',
    payload: payment,
  }),
  'payment.refunded': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['importOrder', 'refundPayment', 'updatePaymentStatus', 'receiveGatewayNotification'],
    description: 'Money of a payment was given back: partial (it stays confirmed), or in full / by chargeback (refunded / reversed).',
    payload: payment.extend({ partial: z.boolean().optional() }),
  }),
};

type OrderEventCatalog = typeof orderEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends OrderEventCatalog {}
}
