import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const show = '/orders/:id';

/**
 * The spec's `orders.*` rows. Cancelling answers 200 with the order (it is kept, canceled), by
 * DELETE and by PUT .../cancel. The import is a create (201 + Location); `dry_run` comes from the
 * query or the body. With `?dry_run=true` (or 1) in the query the row below answers 200 with the
 * order as it would be (id null), as a check writes nothing.
 */
export const orderRoutes: Route[] = [
  rows.show(show, 'order'),
  rows.create('/orders', 'createOrder', 'order', show),
  rows.update(show, 'updateOrder', 'order', show),
  rows.action('DELETE', '/orders/:id', 'cancelOrder'),
  rows.action('PUT', '/orders/:id/cancel', 'cancelOrder'),
  // Recurring orders (order.recurring.ts): a subscription ended by staff, the school's billing terms.
  rows.action('PUT', '/orders/:id/cancel_subscription', 'cancelSubscription'),
  { method: 'GET', path: '/billing_settings', field: 'billingSettings', reply: 'show' },
  { method: ['PUT', 'PATCH'], path: '/billing_settings', field: 'updateBillingSettings', args: { input: resource('billing_settings') }, reply: 'action' },
  // A repeated uuid or a dry run creates nothing: `created: false` makes the reply 200 without Location.
  rows.create('/orders/import', 'importOrder', 'order', show, { args: { dryRun: param('dry_run') }, createdFlag: 'created' }),

  // Payments (not in the spec): the state machine's moves (order.state.ts), each answering the payment.
  rows.show('/payments/:id', 'payment'),
  rows.create('/invoices/:invoice_id/payments', 'createPayment', 'payment', '/payments/:id', { args: { invoiceId: pathParam('invoice_id') } }),
  rows.action('PUT', '/payments/:id/confirm', 'confirmPayment'),
  rows.action(['PUT', 'PATCH'], '/payments/:id/status', 'updatePaymentStatus', { args: { input: resource('payment') } }),
  rows.action('POST', '/payments/:id/refund', 'refundPayment', { args: { input: resource('refund') } }),
];
