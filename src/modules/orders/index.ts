import { CouponResolver, CouponTokenResolver, GatewayCredentialResolver, PaymentOptionResolver } from './billing.resolver.js';
import { ImportedInvoiceResolver, ImportedOrderItemResolver, OrderImportResolver } from './order-import.resolver.js';
import { InvoiceResolver, OrderItemResolver, OrderResolver } from './order.resolver.js';
import { orderRoutes } from './order.routes.js';

/** Orders with items, invoices and payments, their import, and the objects an order references. */
export const ordersModule = {
  resolvers: [
    OrderResolver,
    OrderItemResolver,
    InvoiceResolver,
    OrderImportResolver,
    ImportedOrderItemResolver,
    ImportedInvoiceResolver,
    PaymentOptionResolver,
    CouponResolver,
    CouponTokenResolver,
    GatewayCredentialResolver,
  ] as Function[],
  routes: orderRoutes,
};
