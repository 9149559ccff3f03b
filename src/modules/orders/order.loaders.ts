import { and, eq } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool } from '../../auth/tenancy.js';
import { defineLoader, type Context } from '../../graphql/context.js';
import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import { users, type UserRow } from '../users/user.table.js';
import { couponTokens, coupons, gatewayCredentials, invoices, orderItems, orders, paymentOptions, payments, type OrderItemRow } from './order.table.js';

export const orderById = byIdLoader('order.byId', orders);
export const itemsOfOrder = childrenLoader('order.items', orderItems, orderItems.orderId);
export const invoicesOfOrder = childrenLoader('order.invoices', invoices, invoices.orderId, [invoices.occurrence]);
export const paymentsOfInvoice = childrenLoader('invoice.payments', payments, payments.invoiceId);
export const paymentOptionById = byIdLoader('paymentOption.byId', paymentOptions);
export const couponById = byIdLoader('coupon.byId', coupons);
export const couponTokenById = byIdLoader('couponToken.byId', couponTokens);
export const gatewayCredentialById = byIdLoader('gatewayCredential.byId', gatewayCredentials);

/** Students by id, in the caller's school (users of another type are null). */
export const studentById = defineLoader<number, UserRow | null>('order.studentById', async (ctx, ids) => {
  const rows = await ctx.db
    .select()
    .from(users)
    .where(and(inList(users.id, [...ids]), eq(users.type, 'Student'), inSchool(ctx, users.schoolId)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
});

/** The related rows of an item, shared by OrderItem and the import's ImportedOrderItem. */
export const itemRelations = {
  paymentOption: (item: Pick<OrderItemRow, 'paymentOptionId'>, ctx: Context) => ctx.loaders.get(paymentOptionById).load(item.paymentOptionId),
  couponToken: (item: Pick<OrderItemRow, 'couponTokenId'>, ctx: Context) =>
    item.couponTokenId ? ctx.loaders.get(couponTokenById).load(item.couponTokenId) : null,
};
