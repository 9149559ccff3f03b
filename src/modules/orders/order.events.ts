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
    emittedBy: ['createOrder', 'updateOrder'],
    description: 'An order became confirmed.',
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
  'invoice.paid': event({
    version: 1,
    subject: 'Invoice',
    emittedBy: ['importOrder'],
    description: 'An invoice was recorded paid (invoices are written by imports only).',
    payload: z.object({ orderId: id, amount: z.number().int().describe('cents'), occurrence: z.number().int(), uuid: z.string().nullable() }),
  }),
  'payment.confirmed': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['importOrder'],
    description: 'A payment was recorded confirmed (payments are written by imports only).',
    payload: payment,
  }),
  'payment.refunded': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['importOrder'],
    description: 'A payment was recorded refunded (payments are written by imports only).',
    payload: payment,
  }),
};

type OrderEventCatalog = typeof orderEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends OrderEventCatalog {}
}
