import { param, pathParam, resource, rows, type Route } from '../../rest/route-table.js';

const paymentOption = '/payment_options/:id';
const couponToken = '/coupon_tokens/:id';
const gatewayCredential = '/gateway_credentials/:id';

/**
 * REST twins of the billing resources GraphQL alone served (no DELETE where GraphQL has none): payment
 * options, also under their school product; coupon tokens, also under their coupon; gateway
 * credentials; and the order list with its filters. A parent in the path is merged into the hash.
 */
export const billingRoutes: Route[] = [
  rows.list('/orders', 'orders', {
    args: { status: param('status'), studentId: param('student_id'), createdFrom: param('created_from'), createdTo: param('created_to') },
  }),

  rows.list('/payment_options', 'paymentOptions', { args: { schoolProductId: param('school_product_id') } }),
  rows.list('/school_products/:school_product_id/payment_options', 'paymentOptions', { args: { schoolProductId: pathParam('school_product_id') } }),
  rows.create('/payment_options', 'createPaymentOption', 'payment_option', paymentOption),
  rows.create('/school_products/:school_product_id/payment_options', 'createPaymentOption', 'payment_option', paymentOption, {
    args: { input: resource('payment_option', { extra: ['school_product_id'] }) },
  }),
  rows.show(paymentOption, 'paymentOption'),
  rows.update(paymentOption, 'updatePaymentOption', 'payment_option', paymentOption),

  rows.list('/coupon_tokens', 'couponTokens', { args: { couponId: param('coupon_id'), used: param('used') } }),
  rows.list('/coupons/:coupon_id/tokens', 'couponTokens', { args: { couponId: pathParam('coupon_id'), used: param('used') } }),
  rows.create('/coupon_tokens', 'createCouponToken', 'coupon_token', couponToken),
  rows.create('/coupons/:coupon_id/tokens', 'createCouponToken', 'coupon_token', couponToken, {
    args: { input: resource('coupon_token', { extra: ['coupon_id'] }) },
  }),
  rows.show(couponToken, 'couponToken'),
  rows.update(couponToken, 'updateCouponToken', 'coupon_token', couponToken),

  rows.list('/gateway_credentials', 'gatewayCredentials'),
  rows.create('/gateway_credentials', 'createGatewayCredential', 'gateway_credential', gatewayCredential),
  rows.show(gatewayCredential, 'gatewayCredential'),
  rows.update(gatewayCredential, 'updateGatewayCredential', 'gateway_credential', gatewayCredential),
];
