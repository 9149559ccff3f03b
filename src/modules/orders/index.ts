import { CATALOGUE, MANAGERS, PUBLIC, reads, SELLERS, STAFF_AND_OWN, STAFF_READ } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { EnrollmentOrderResolver } from './enrollment-order.resolver.js';
import { GatewayCredentialSigningResolver, GatewayNotificationResolver } from './gateway-notification.resolver.js';
import { CouponResolver, CouponTokenResolver, GatewayCredentialResolver, PaymentOptionResolver } from './billing.resolver.js';
import { ImportedInvoiceResolver, ImportedOrderItemResolver, OrderImportResolver } from './order-import.resolver.js';
import { orderEventCatalog } from './order.events.js';
import { InvoiceResolver, OrderItemResolver, OrderResolver } from './order.resolver.js';
import { billingRoutes } from './billing.routes.js';
import { couponRoutes } from './coupon.routes.js';
import { orderRoutes } from './order.routes.js';
import { PaymentResolver } from './payment.resolver.js';
import { SubscriptionResolver } from './subscription.resolver.js';

export { startRecurringScheduler, type RecurringScheduler, type RecurringSchedulerOptions } from './order.recurring.js';

/** Orders with items, invoices and payments, their import, and the objects an order references. */
export const ordersModule = defineModule({
  name: 'orders',
  resolvers: [
    OrderResolver,
    OrderItemResolver,
    InvoiceResolver,
    PaymentResolver,
    EnrollmentOrderResolver,
    OrderImportResolver,
    ImportedOrderItemResolver,
    ImportedInvoiceResolver,
    PaymentOptionResolver,
    CouponResolver,
    CouponTokenResolver,
    GatewayCredentialResolver,
    SubscriptionResolver,
    GatewayCredentialSigningResolver,
    GatewayNotificationResolver,
  ],
  routes: [...orderRoutes, ...couponRoutes, ...billingRoutes],
  rules: {
    operations: {
      // How the catalogue is paid: every role reads it, the managers set it.
      payment: {
        ...reads('paymentOption', 'paymentOptions', CATALOGUE),
        'Mutation.createPaymentOption': MANAGERS,
        'Mutation.updatePaymentOption': MANAGERS,
      },
      // Orders (a student reads its own), coupons, gateway credentials.
      commerce: {
        ...reads('order', 'orders', STAFF_AND_OWN),
        'Mutation.createOrder': SELLERS,
        'Mutation.updateOrder': SELLERS,
        'Mutation.cancelOrder': SELLERS,
        'Mutation.importOrder': SELLERS,
        // Payments: the moves of the state machine (order.state.ts). A student reads its own orders' payments.
        'Query.payment': STAFF_AND_OWN,
        'Mutation.createPayment': SELLERS,
        'Mutation.confirmPayment': SELLERS,
        'Mutation.updatePaymentStatus': SELLERS,
        'Mutation.refundPayment': SELLERS,
        ...reads('coupon', 'coupons', STAFF_READ),
        'Mutation.createCoupon': SELLERS,
        'Mutation.updateCoupon': SELLERS,
        ...reads('couponToken', 'couponTokens', STAFF_READ),
        'Mutation.createCouponToken': SELLERS,
        'Mutation.updateCouponToken': SELLERS,
        ...reads('gatewayCredential', 'gatewayCredentials', MANAGERS),
        'Mutation.createGatewayCredential': MANAGERS,
        'Mutation.updateGatewayCredential': MANAGERS,
        'Mutation.rotateGatewaySigningSecret': MANAGERS,
        // A gateway's callback needs no credential: the signature of the gateway credential's secret proves it (gateway-signing.ts).
        'Mutation.receiveGatewayNotification': PUBLIC,
      },
      // Recurring orders (order.recurring.ts): staff end a subscription; the managers set the school's terms.
      subscriptions: {
        'Mutation.cancelSubscription': SELLERS,
        'Query.billingSettings': MANAGERS,
        'Mutation.updateBillingSettings': MANAGERS,
      },
    },
  },
  errors: {
    name: 'Order',
    nodes: ['BillingSettings', 'Order', 'ImportedOrder', 'Payment', 'PaymentOption', 'Coupon', 'CouponToken', 'GatewayCredential', 'GatewayNotification'],
    codes: [
      'present',
      'exclusion',
      'invalid_transition',
      'unpermitted',
      'inactive',
      'greater_than',
      'price_mismatch',
      'coupon_used',
      'coupon_expired',
      'coupon_exhausted',
      'coupon_not_applicable',
      'payment_required',
      'refund_required',
      'not_subscription',
    ],
  },
  events: orderEventCatalog,
});
