import { z } from 'zod';
import { event, id } from '../events/catalog.js';

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
