/**
 * Orders: `order`, `orders`, `createOrder`, `updateOrder`, `cancelOrder`, and the fields that load
 * an order's items, invoices, payments, student and school (importOrder: order-import.resolver.ts;
 * payments: payment.resolver.ts).
 *
 * Prices are the service's (order.pricing.ts): createOrder prices its items from their payment
 * options, quantities and coupons and the order from its items; a given total or amount_to_pay that
 * disagrees is a 422 `price_mismatch` naming the field. Coupon tokens are consumed under a row lock
 * (order.coupons.ts). An order with something to pay opens its first invoice (occurrence 1, open).
 *
 * Status moves follow order.state.ts: an order is confirmed by its first paid invoice
 * (confirmPayment); createOrder/updateOrder may confirm only an order with nothing to pay
 * (else `payment_required`), and the confirmation enrolls the student (order.enroll.ts). A paid
 * (confirmed) order is not canceled but refunded (`refund_required`: refundPayment). Any other move
 * is a UserError `invalid_transition` on `status` (REST 422). Giving the status the order already
 * has is no transition (a fetched order sent back whole). `DELETE /orders/:id` and
 * `PUT /orders/:id/cancel` both run cancelOrder: the order stays, canceled.
 *
 * Events (same transaction): order.created on create, order.confirmed when an order becomes
 * confirmed, order.canceled when it becomes canceled.
 *
 * Roles: staff (SELLERS) write; a student credential reads its own orders only (another's is a
 * 404, as another school's is).
 */
import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { hasRole, isOwn, STAFF, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { given, parseId } from '../../graphql/ids.js';
import { mutate, uniqueConstraintField } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { RelationFields } from '../../graphql/relations.js';
import { Checks } from '../../graphql/validation.js';
import { emitRowEvent } from '../events/events.js';
import { schoolById } from '../schools/school.loaders.js';
import { School } from '../schools/school.type.js';
import { users } from '../users/user.table.js';
import { StudentTypes } from '../users/user.type.js';
import { Coupon, CouponToken, GatewayCredential, PaymentOption } from './billing.type.js';
import { ordersWhere } from './order.filters.js';
import { OrderInput, OrdersArgs } from './order.input.js';
import {
  couponById,
  gatewayCredentialById,
  invoicesOfOrder,
  itemRelations,
  itemsOfOrder,
  orderById,
  paymentsOfInvoice,
  studentById,
} from './order.loaders.js';
import { confirmOrder, refuse } from './order.flow.js';
import { priceItems } from './order.items.js';
import { canMove, ORDER_CREATE_STATUSES, orderMachine, type OrderStatus } from './order.state.js';
import { coupons, gatewayCredentials, invoices, orderItems, orders, type InvoiceRow, type OrderItemRow, type OrderRow } from './order.table.js';
import { Invoice, Order, OrderConnection, OrderItem, OrderPayload, Payment } from './order.type.js';

uniqueConstraintField('orders_school_id_uuid_key', 'uuid');

const Student = StudentTypes.Type;

/** The order as the caller may see it, or a 404. */
export async function visibleOrder(ctx: Context, id: number): Promise<OrderRow> {
  const row = await ctx.loaders.get(orderById).load(id);
  if (!row || !isOwn(ctx, row.studentId)) throw notFound('Order');
  return row;
}

/** A move of the order's status by `operation`: a 422 on `status` in `checks` when order.state.ts refuses it. */
function checkMove(checks: Checks, from: OrderStatus, to: OrderStatus, operation: string, amountToPay: number) {
  if (from === to) return checks;
  if (to === 'canceled' && from === 'confirmed') return checks.add('status', 'refund_required');
  if (to === 'confirmed' && amountToPay > 0 && canMove(orderMachine, from, to, 'confirmPayment')) return checks.add('status', 'payment_required');
  if (!canMove(orderMachine, from, to, operation)) checks.add('status', 'invalid_transition', `cannot change from ${from} to ${to}`);
  return checks;
}

/** Checks an order input (create: `current` absent) and returns the columns to write. */
async function orderValues(tx: Queryable, ctx: Context, schoolId: number, input: OrderInput, current?: OrderRow) {
  const checks = new Checks().present(!current, 'studentId', input.studentId);
  // Columns that always hold a value: given as null (an empty form field) they are blank, on create too.
  for (const field of ['status', 'kind', 'period', 'amountToPay', 'total', 'test', 'success'] as const) checks.notCleared(field, input[field]);
  checks
    .range('kind', input.kind, 0, 3)
    .range('period', input.period, 0, 4)
    .range('occurrences', input.occurrences, 1)
    .range('amountToPay', input.amountToPay, 0)
    .range('total', input.total, 0);
  if (current && input.itemsAttributes) checks.add('itemsAttributes', 'unpermitted', 'items are given on create only');
  if (!current && input.status && !ORDER_CREATE_STATUSES.includes(input.status))
    checks.add('status', 'exclusion', `an order is created ${ORDER_CREATE_STATUSES.join(', ')}; cancel it afterwards`);
  const studentId = await existingId(tx, checks, 'studentId', users, input.studentId, schoolId, eq(users.type, 'Student'));
  const gatewayCredentialId = await existingId(tx, checks, 'gatewayCredentialId', gatewayCredentials, input.gatewayCredentialId, schoolId);
  const couponId = await existingId(tx, checks, 'couponId', coupons, input.couponId, schoolId);
  checks.throwIfAny();

  // Prices: computed from the items on create; on update the stored ones must be given back unchanged.
  let priced: Awaited<ReturnType<typeof priceItems>> | null = null;
  if (!current) {
    priced = await priceItems(tx, schoolId, checks, 'itemsAttributes', input.itemsAttributes ?? [], { couponId, total: input.total, amountToPay: input.amountToPay }, {
      at: ctx.now(),
      write: true,
      mode: 'strict',
    });
  } else {
    for (const f of ['total', 'amountToPay'] as const)
      if (typeof input[f] === 'number' && input[f] !== current[f]) checks.add(f, 'price_mismatch', `must be ${current[f]} (computed from the items)`);
    if (input.couponId !== undefined && couponId !== current.couponId) checks.add('couponId', 'unpermitted', 'is applied when the order is created');
  }
  const from: OrderStatus = current?.status ?? 'initiated';
  const to = input.status ?? from;
  if (current || ORDER_CREATE_STATUSES.includes(to)) checkMove(checks, from, to, current ? 'updateOrder' : 'createOrder', priced?.price.amountToPay ?? current!.amountToPay);
  checks.throwIfAny();

  const { studentId: _s, gatewayCredentialId: _g, couponId: _c, itemsAttributes: _i, status: _st, ...columns } = given(input);
  const values = columns as Partial<typeof orders.$inferInsert>;
  if (input.studentId !== undefined) values.studentId = studentId!;
  if (input.gatewayCredentialId !== undefined) values.gatewayCredentialId = gatewayCredentialId;
  if (!current) values.couponId = couponId;
  if (priced) Object.assign(values, priced.price);
  if (typeof values.uuid === 'string') values.uuid = values.uuid.trim() || null;
  // Confirming goes through confirmOrder (it enrolls); the other statuses are written here.
  if (to !== 'confirmed' && to !== from) values.status = to;
  if (to === 'canceled' && to !== from) values.canceledAt = ctx.now();
  return { values, to, from, items: priced?.items ?? [] };
}

/** The event of an order that became canceled (confirmation emits its own, in confirmOrder). */
async function emitCanceled(tx: Queryable, order: OrderRow, from: OrderStatus | null) {
  await emitRowEvent(tx, 'order.canceled', order, { from, to: 'canceled', studentId: order.studentId });
}

@Resolver(() => Order)
@RelationFields<OrderRow>({
  items: { type: () => [OrderItem], loader: itemsOfOrder, key: 'id' },
  invoices: { type: () => [Invoice], loader: invoicesOfOrder, key: 'id', description: 'By occurrence.' },
  student: { type: () => Student, loader: studentById, key: 'studentId', nullable: true },
  school: { type: () => School, loader: schoolById, key: 'schoolId', nullable: true },
})
export class OrderResolver {
  @Query(() => Order, { description: 'An order of the school; a student credential sees only its own.' })
  order(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return visibleOrder(ctx, parseId(id, 'Order'));
  }

  @Query(() => OrderConnection, { description: "The school's orders, in id order; a student credential lists only its own." })
  orders(@Args(() => OrdersArgs) args: OrdersArgs, @Ctx() ctx: Context) {
    return paginate(ctx, orders, ordersWhere(ctx, args), args);
  }

  @Mutation(() => OrderPayload, { description: 'Creates an order for a student of the school (studentId required): its items priced by the service, their coupon tokens consumed, its first invoice opened when there is something to pay.' })
  createOrder(@Arg('input', () => OrderInput) input: OrderInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'order', async (tx) => {
      const { values, to, items } = await orderValues(tx, ctx, schoolId, input);
      const [row] = await tx
        .insert(orders)
        .values({ ...values, studentId: values.studentId!, schoolId })
        .returning();
      if (items.length) await tx.insert(orderItems).values(items.map(({ schoolProductId: _p, ...item }) => ({ ...item, orderId: row.id })));
      // Something to pay: the first invoice, open, for the whole amount (card installments are the gateway's).
      if (row.amountToPay > 0) await tx.insert(invoices).values({ schoolId, orderId: row.id, amount: row.amountToPay, occurrence: 1, status: 'open' });
      await emitRowEvent(tx, 'order.created', row, { status: to, studentId: row.studentId });
      return to === 'confirmed' ? confirmOrder(tx, row, ctx.now()) : row;
    });
  }

  @Mutation(() => OrderPayload, { description: 'Updates an order; a status moves it along its lifecycle (see OrderStatus).' })
  updateOrder(@Arg('id', () => ID) id: string, @Arg('input', () => OrderInput) input: OrderInput, @Ctx() ctx: Context) {
    const orderId = parseId(id, 'Order');
    return mutate(ctx, 'order', async (tx) => {
      const current = await lockOwned(tx, ctx, orders, orderId, 'Order');
      const { values, to, from } = await orderValues(tx, ctx, current.schoolId, input, current);
      const row = Object.keys(values).length === 0 ? current : (await tx.update(orders).set(values).where(eq(orders.id, orderId)).returning())[0];
      if (to === from) return row;
      if (to === 'canceled') await emitCanceled(tx, row, from);
      return to === 'confirmed' ? confirmOrder(tx, row, ctx.now()) : row;
    });
  }

  @Mutation(() => OrderPayload, { description: 'Cancels an unpaid order (it stays, canceled, with canceledAt); a canceled order is final; a paid one is refunded instead (refund_required).' })
  cancelOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const orderId = parseId(id, 'Order');
    return mutate(ctx, 'order', async (tx) => {
      const current = await lockOwned(tx, ctx, orders, orderId, 'Order');
      if (current.status === 'canceled') refuse('status', 'canceled', 'canceled');
      checkMove(new Checks(), current.status, 'canceled', 'cancelOrder', current.amountToPay).throwIfAny();
      const [row] = await tx
        .update(orders)
        .set({ status: 'canceled', canceledAt: ctx.now() })
        .where(eq(orders.id, orderId))
        .returning();
      await emitCanceled(tx, row, current.status);
      return row;
    });
  }

  @FieldResolver(() => [ID], { description: 'The ids of its items.' })
  async itemIds(@Root() order: OrderRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(itemsOfOrder).load(order.id)).map((i) => i.id);
  }

  @FieldResolver(() => [ID], { description: 'The ids of its invoices, by occurrence.' })
  async invoiceIds(@Root() order: OrderRow, @Ctx() ctx: Context) {
    return (await ctx.loaders.get(invoicesOfOrder).load(order.id)).map((i) => i.id);
  }

  @FieldResolver(() => GatewayCredential, { nullable: true, description: 'Null for a student credential.' })
  gatewayCredential(@Root() order: OrderRow, @Ctx() ctx: Context) {
    if (!order.gatewayCredentialId || !hasRole(ctx, ...STAFF)) return null;
    return ctx.loaders.get(gatewayCredentialById).load(order.gatewayCredentialId);
  }

  @FieldResolver(() => Coupon, { nullable: true })
  coupon(@Root() order: OrderRow, @Ctx() ctx: Context) {
    return order.couponId ? ctx.loaders.get(couponById).load(order.couponId) : null;
  }
}

@Resolver(() => OrderItem)
export class OrderItemResolver {
  @FieldResolver(() => PaymentOption, { nullable: true })
  paymentOption(@Root() item: OrderItemRow, @Ctx() ctx: Context) {
    return itemRelations.paymentOption(item, ctx);
  }

  @FieldResolver(() => CouponToken, { nullable: true })
  couponToken(@Root() item: OrderItemRow, @Ctx() ctx: Context) {
    return itemRelations.couponToken(item, ctx);
  }
}

@Resolver(() => Invoice)
@RelationFields<InvoiceRow>({
  payments: { type: () => [Payment], loader: paymentsOfInvoice, key: 'id' },
})
export class InvoiceResolver {}
