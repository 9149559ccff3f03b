/**
 * Orders: `order`, `orders`, `createOrder`, `updateOrder`, `cancelOrder`, and the fields that load
 * an order's items, invoices, payments, student and school (importOrder: order-import.resolver.ts).
 *
 * Status transitions (order.state.ts; the spec gives only the cancellation, from any state):
 *
 *   initiated                       -> processing | no_wait_processing | confirmed | canceled
 *   processing, no_wait_processing  -> confirmed | canceled
 *   confirmed                       -> canceled   (a refund)
 *   canceled                        -> nothing: final
 *
 * Any other change of status (confirmed -> initiated/processing, canceled -> anything, cancelling a
 * canceled order) is a UserError `invalid_transition` on `status` (REST 422) and changes nothing.
 * Giving the status the order already has is no transition (a fetched order sent back whole).
 * createOrder may start an order in initiated (default), processing, no_wait_processing or
 * confirmed, not canceled. Becoming confirmed sets confirmedAt to the time of confirmation unless
 * one is given; becoming canceled sets canceledAt. `DELETE /orders/:id` and
 * `PUT /orders/:id/cancel` both run cancelOrder: the order stays, canceled.
 *
 * Events (same transaction): order.created on create, order.confirmed when an order becomes
 * confirmed (on create or update), order.canceled when it becomes canceled.
 *
 * Roles: staff (STAFF) read and write; a student credential reads its own orders only (another's
 * is a 404, as another school's is).
 */
import 'reflect-metadata';
import { and, eq, gte, lt, type SQL } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { hasRole, inSchool, isOwn, ownRows, STAFF, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { filterIdMatch } from '../../graphql/filters.js';
import { given, parseId } from '../../graphql/ids.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
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
import { canMoveOrder, ORDER_CREATE_STATUSES, type OrderStatus } from './order.state.js';
import { coupons, gatewayCredentials, orders, type InvoiceRow, type OrderItemRow, type OrderRow } from './order.table.js';
import { Invoice, Order, OrderConnection, OrderItem, Payment } from './order.type.js';

export const OrderPayload = Payload(Order, 'order');
uniqueConstraintField('orders_school_id_uuid_key', 'uuid');

const Student = StudentTypes.Type;

/** A student credential sees only its own orders; other roles see the school's. */
export function ownOrders(ctx: Context): SQL | undefined {
  return ownRows(ctx, orders.studentId);
}

/** The order as the caller may see it, or a 404. */
export async function visibleOrder(ctx: Context, id: number): Promise<OrderRow> {
  const row = await ctx.loaders.get(orderById).load(id);
  if (!row || !isOwn(ctx, row.studentId)) throw notFound('Order');
  return row;
}

const transitionError = (checks: Checks, from: OrderStatus, to: OrderStatus) =>
  checks.add('status', 'invalid_transition', from === to ? `is already ${from}` : `cannot change from ${from} to ${to}`);

/** Checks an order input (create: `current` absent) and returns the columns to write. */
async function orderValues(tx: Queryable, ctx: Context, schoolId: number, input: OrderInput, current?: OrderRow) {
  const checks = new Checks().present(!current, 'studentId', input.studentId);
  // Columns that always hold a value: given as null (an empty form field) they are blank, on create too.
  for (const field of ['status', 'kind', 'period', 'amountToPay', 'total', 'test', 'success'] as const) checks.notCleared(field, input[field]);
  checks
    .range('kind', input.kind, 0, 3)
    .range('period', input.period, 0, 4)
    .range('amountToPay', input.amountToPay, 0)
    .range('total', input.total, 0);
  const from: OrderStatus = current?.status ?? 'initiated';
  const to = input.status ?? from;
  if (!current && !ORDER_CREATE_STATUSES.includes(to)) checks.add('status', 'exclusion', `an order is created ${ORDER_CREATE_STATUSES.join(', ')}; cancel it afterwards`);
  else if (to !== from && !canMoveOrder(from, to)) transitionError(checks, from, to);
  const studentId = await existingId(tx, checks, 'studentId', users, input.studentId, schoolId, eq(users.type, 'Student'));
  const gatewayCredentialId = await existingId(tx, checks, 'gatewayCredentialId', gatewayCredentials, input.gatewayCredentialId, schoolId);
  const couponId = await existingId(tx, checks, 'couponId', coupons, input.couponId, schoolId);
  checks.throwIfAny();

  const { studentId: _s, gatewayCredentialId: _g, couponId: _c, ...columns } = given(input);
  const values = columns as Partial<typeof orders.$inferInsert>;
  if (input.studentId !== undefined) values.studentId = studentId!;
  if (input.gatewayCredentialId !== undefined) values.gatewayCredentialId = gatewayCredentialId;
  if (input.couponId !== undefined) values.couponId = couponId;
  if (typeof values.uuid === 'string') values.uuid = values.uuid.trim() || null;
  const becomes = to !== from || !current ? to : null;
  if (becomes === 'confirmed' && !input.confirmedAt) values.confirmedAt = ctx.now();
  if (becomes === 'canceled') values.canceledAt = ctx.now();
  return { values, becomes };
}

/** The events of an order that became `status` (none for a status it already had). */
async function emitStatusEvent(tx: Queryable, order: OrderRow, status: OrderStatus | null, from: OrderStatus | null) {
  if (status !== 'confirmed' && status !== 'canceled') return;
  await emitRowEvent(tx, status === 'confirmed' ? 'order.confirmed' : 'order.canceled', order, { from, to: status, studentId: order.studentId });
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
    const where = and(
      inSchool(ctx, orders.schoolId),
      ownOrders(ctx),
      args.status ? eq(orders.status, args.status) : undefined,
      filterIdMatch(orders.studentId, args.studentId, 'studentId'),
      args.createdFrom ? gte(orders.createdAt, args.createdFrom) : undefined,
      args.createdTo ? lt(orders.createdAt, args.createdTo) : undefined,
    );
    return paginate(ctx, orders, where, args);
  }

  @Mutation(() => OrderPayload, { description: 'Creates an order for a student of the school (studentId required).' })
  createOrder(@Arg('input', () => OrderInput) input: OrderInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'order', async (tx) => {
      const { values, becomes } = await orderValues(tx, ctx, schoolId, input);
      const [row] = await tx
        .insert(orders)
        .values({ ...values, studentId: values.studentId!, schoolId })
        .returning();
      await emitRowEvent(tx, 'order.created', row, { status: row.status, studentId: row.studentId });
      await emitStatusEvent(tx, row, becomes, null);
      return row;
    });
  }

  @Mutation(() => OrderPayload, { description: 'Updates an order; a status moves it along its lifecycle (see OrderStatus).' })
  updateOrder(@Arg('id', () => ID) id: string, @Arg('input', () => OrderInput) input: OrderInput, @Ctx() ctx: Context) {
    const orderId = parseId(id, 'Order');
    return mutate(ctx, 'order', async (tx) => {
      const current = await lockOwned(tx, ctx, orders, orderId, 'Order');
      const { values, becomes } = await orderValues(tx, ctx, current.schoolId, input, current);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(orders).set(values).where(eq(orders.id, orderId)).returning();
      await emitStatusEvent(tx, row, becomes, current.status);
      return row;
    });
  }

  @Mutation(() => OrderPayload, { description: 'Cancels an order (it stays, canceled, with canceledAt); a canceled order is final.' })
  cancelOrder(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const orderId = parseId(id, 'Order');
    return mutate(ctx, 'order', async (tx) => {
      const current = await lockOwned(tx, ctx, orders, orderId, 'Order');
      if (!canMoveOrder(current.status, 'canceled')) {
        const checks = new Checks();
        transitionError(checks, current.status, 'canceled').throwIfAny();
      }
      const [row] = await tx
        .update(orders)
        .set({ status: 'canceled', canceledAt: ctx.now() })
        .where(eq(orders.id, orderId))
        .returning();
      await emitStatusEvent(tx, row, 'canceled', current.status);
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
