import { header, param, pathParam, rawBody, resource, rows, type Route } from '../../rest/route-table.js';
import { REPORTED_STATUSES } from './gateway-notification.js';

const show = '/orders/:id';

/** The body of a gateway's callback in the service's own dialect (GatewayAdapter: gateway-notification.ts), for the OpenAPI document. */
const notificationBody = {
  type: 'object',
  required: ['type', 'data'],
  properties: {
    type: { type: 'string', enum: ['payment.status'] },
    data: {
      type: 'object',
      required: ['status'],
      description: 'The payment by payment_id or payment_uuid (one is required).',
      properties: {
        payment_id: { type: 'integer' },
        payment_uuid: { type: 'string' },
        status: { type: 'string', enum: Object.keys(REPORTED_STATUSES) },
        amount: { type: 'integer', minimum: 1, description: 'Cents: with refunded, the part given back by this event (a partial refund); with confirmed, the amount paid.' },
        reason: { type: 'string' },
      },
    },
  },
};

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

  // A gateway reports in (gateway-notification.ts): no credential, a Standard Webhooks signature of the body's bytes.
  {
    method: 'POST',
    path: '/gateways/:gateway_credential_id/notifications',
    field: 'receiveGatewayNotification',
    reply: 'action',
    public: true,
    args: {
      gatewayCredentialId: pathParam('gateway_credential_id'),
      webhookId: header('webhook-id'),
      webhookTimestamp: header('webhook-timestamp'),
      webhookSignature: header('webhook-signature'),
      body: rawBody(notificationBody),
    },
  },
  rows.action('POST', '/gateway_credentials/:id/rotate_signing_secret', 'rotateGatewaySigningSecret', { args: { overlapSeconds: param('overlap_seconds') } }),
];
