import { beyondSpec, pathParam, rows, type Route, value } from '../../rest/route-table.js';

const show = '/coupons/:id';

/**
 * The Edools v1 coupon routes beyond the spec, onto the coupon operations. `GET /products/:id/coupons`:
 * a v1 product is today's school product. DELETE deactivates (`active: false`) rather than deleting:
 * the orders that used a coupon keep naming it, and a deactivated coupon applies to no new order.
 */
export const couponRoutes: Route[] = [
  ...beyondSpec('coupons', [rows.list('/coupons', 'coupons'), rows.create('/coupons', 'createCoupon', 'coupon', show), rows.show(show, 'coupon'), rows.update(show, 'updateCoupon', 'coupon', show)]),
  ...beyondSpec('coupons of a school product (a v1 product)', [rows.list('/products/:id/coupons', 'coupons', { args: { schoolProductId: pathParam() } })]),
  ...beyondSpec('deactivates the coupon (`active: false`): the orders that used it keep naming it', [
    { method: 'DELETE', path: show, field: 'updateCoupon', args: { id: pathParam(), input: value({ active: false }) }, reply: 'destroy' },
  ]),
];
