/**
 * `importOrder` (REST `POST /orders/import`): an order with its items, invoices and their payments,
 * typically already paid in another system, written in ONE transaction. Decisions:
 *
 * - Idempotent on the order's uuid: when the school already has an order with that uuid, it is
 *   returned (`created: false`) and nothing is written or even validated (a retry of an import
 *   that succeeded must not fail on the invoice and payment uuids the first one stored).
 *   Concurrent imports of one uuid wait for each other (an advisory lock on the school and uuid),
 *   so the later ones find the first one's order; the unique index remains the last guard.
 * - Every rule of the spec's import body is checked before anything is written, and every
 *   violation is reported (not only the first), each naming its nested path
 *   (`invoicesAttributes.0.paymentsAttributes.1.status`, REST
 *   `invoices_attributes[0].payments_attributes[1].status`): required fields at each level,
 *   `schoolId` at each level = the credential's school, kind 0..3, period 0..4, payment kind 0..3,
 *   amounts 0 or more, quantity and installments 1 or more, installments required for a common
 *   order (kind 0) paid by credit card (payment kind 0), uuids of invoices and payments unique in
 *   the school, and the references (student, payment options, coupon tokens, gateway credential,
 *   coupon) existing in the school: one statement per referenced table, whatever the rows.
 *   Statuses are GraphQL enums: an unknown one is a malformed request (REST 400 naming the path).
 * - Any violation rejects everything (a UserError payload, REST 422; 409 when a uuid is taken).
 * - `dryRun`: the same checks, nothing written; the payload holds the order as it would be
 *   (ids null, `dryRun: true`), or the errors.
 * - Original times are kept: createdAt, confirmedAt, nextInvoiceAt, nextChargeAt as given; an
 *   item, invoice or payment without createdAt takes the order's. A confirmed order without
 *   confirmedAt gets the order's createdAt (else now); a canceled one gets canceledAt likewise.
 * - Events: `order.imported`, only when the order has no createdAt (createdAt given = callbacks
 *   skipped). An import emits no order.created/confirmed/canceled.
 * - Prices (order.pricing.ts): each item's and the order's amounts are computed; a given amount
 *   that differs is history and is kept, the item and the order flagged `priceOverridden`.
 * - Coupon tokens are single-use: a used one (usedAt set, or named twice) is refused
 *   (`coupon_used`); the others are consumed under a row lock (order.coupons.ts), usedAt = the
 *   order's createdAt (else now). A coupon out of its window or used up gives no discount (history).
 * - An imported confirmed order enrolls its student (order.enroll.ts) from its confirmedAt;
 *   importing the same uuid again finds the order and creates nothing.
 */
import 'reflect-metadata';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Arg, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import { lockKey } from '../../db/locks.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull } from '../../graphql/ids.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { RelationFields } from '../../graphql/relations.js';
import { Checks, isBlank } from '../../graphql/validation.js';
import { emitEvents, emitRowEvent } from '../events/events.js';
import { schoolById } from '../schools/school.loaders.js';
import { School } from '../schools/school.type.js';
import { users } from '../users/user.table.js';
import { StudentTypes } from '../users/user.type.js';
import { CouponToken, PaymentOption } from './billing.type.js';
import { ImportOrderInput } from './order.input.js';
import { invoicesOfOrder, itemRelations, itemsOfOrder, paymentsOfInvoice, studentById } from './order.loaders.js';
import { enrollOrder } from './order.enroll.js';
import { priceItems } from './order.items.js';
import { ORDER_KIND_COMMON, PAYMENT_KIND_CREDIT_CARD } from './order.state.js';
import { coupons, gatewayCredentials, invoices, orderItems, orders, payments, type OrderRow } from './order.table.js';
import { ImportedInvoice, ImportedOrder, ImportedOrderItem, ImportedPayment } from './order.type.js';

export const ImportOrderPayload = Payload(ImportedOrder, 'order', 'ImportOrderPayload');
// Checked before writing; these name the field should a concurrent import take a uuid meanwhile.
uniqueConstraintField('invoices_school_id_uuid_key', 'invoicesAttributes');
uniqueConstraintField('payments_school_id_uuid_key', 'invoicesAttributes');

type OrderValues = typeof orders.$inferInsert;
type ItemValues = Omit<typeof orderItems.$inferInsert, 'orderId'>;
type InvoiceValues = Omit<typeof invoices.$inferInsert, 'orderId'>;
type PaymentValues = Omit<typeof payments.$inferInsert, 'invoiceId'>;

/** Where a dry run keeps the children it would create (not a GraphQL field). */
const PREVIEW = Symbol('preview');

interface ImportedOrderResult extends Omit<Partial<OrderRow>, 'id'> {
  id: number | null;
  schoolId: number;
  studentId: number;
  created: boolean;
  dryRun: boolean;
  [PREVIEW]?: { items: object[]; invoices: object[] };
}

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/** The ids of `table` in the school among `ids`: one statement (none for no ids). */
async function foundIds(tx: Queryable, table: Owned, ids: Iterable<number>, schoolId: number, where?: SQL): Promise<Set<number>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Set();
  const rows = (await tx
    .select({ id: table.id })
    .from(table as PgTable)
    .where(and(inArray(table.id, list), eq(table.schoolId, schoolId), where))) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

/** The uuids of `table` already taken in the school among `uuids`: one statement (none for no uuids). */
async function takenUuids(tx: Queryable, table: typeof invoices | typeof payments, uuids: string[], schoolId: number): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await tx
    .select({ uuid: table.uuid })
    .from(table)
    .where(and(eq(table.schoolId, schoolId), inArray(table.uuid, [...new Set(uuids)])));
  return new Set(rows.map((r) => r.uuid!));
}

const uuidOf = (value: string | null | undefined) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** A reference given at `checks`'s `field`: its id, for the one-statement lookup of its table. */
class References {
  private readonly wanted: { checks: Checks; field: string; id: number | null }[] = [];
  add(checks: Checks, field: string, value: string | null | undefined): number | null {
    if (isBlank(value)) return null;
    const id = idOrNull(value);
    this.wanted.push({ checks, field, id });
    return id;
  }
  /** Looks every id up at once and reports those not in the school. */
  async check(tx: Queryable, table: Owned, schoolId: number, where?: SQL): Promise<Set<number>> {
    const found = await foundIds(tx, table, this.wanted.flatMap((w) => (w.id === null ? [] : [w.id])), schoolId, where);
    for (const w of this.wanted) if (w.id === null || !found.has(w.id)) w.checks.add(w.field, 'not_found', 'must exist in this school');
    return found;
  }
}

/** Each uuid given at most once in the body and not yet used in the school. */
class UniqueUuids {
  private readonly given: { checks: Checks; uuid: string }[] = [];
  add(checks: Checks, uuid: string | null) {
    if (uuid === null) return;
    if (this.given.some((g) => g.uuid === uuid)) checks.add('uuid', 'taken', 'is given twice in this import');
    else this.given.push({ checks, uuid });
  }
  async check(tx: Queryable, table: typeof invoices | typeof payments, schoolId: number) {
    const taken = await takenUuids(tx, table, this.given.map((g) => g.uuid), schoolId);
    for (const g of this.given) if (taken.has(g.uuid)) g.checks.add('uuid', 'taken');
  }
}

/** Validates the whole tree (nothing written) and returns the rows to write. */
async function planImport(tx: Queryable, schoolId: number, input: ImportOrderInput, now: Date, dryRun: boolean) {
  const checks = new Checks();
  const sameSchool = (c: Checks, value: string | null | undefined) => {
    c.required('schoolId', value);
    if (!isBlank(value) && idOrNull(value) !== schoolId) c.add('schoolId', 'invalid', `must be the school of the credential (${schoolId})`);
  };
  const refs = { student: new References(), gateway: new References(), coupon: new References() };
  const invoiceUuids = new UniqueUuids();
  const paymentUuids = new UniqueUuids();

  sameSchool(checks, input.schoolId);
  checks.required('studentId', input.studentId);
  checks.range('kind', input.kind, 0, 3).range('period', input.period, 0, 4).range('amountToPay', input.amountToPay, 0).range('total', input.total, 0);
  const studentId = refs.student.add(checks, 'studentId', input.studentId);
  const gatewayCredentialId = refs.gateway.add(checks, 'gatewayCredentialId', input.gatewayCredentialId);
  const couponId = refs.coupon.add(checks, 'couponId', input.couponId);
  const couponFound = await refs.coupon.check(tx, coupons, schoolId);
  const orderKind = input.kind ?? ORDER_KIND_COMMON;
  const status = input.status ?? 'initiated';
  const createdAt = input.createdAt ?? undefined;
  const when = createdAt ?? now;

  // The spec's required item fields; the payment option, quantity and prices are priceItems' checks.
  (input.itemsAttributes ?? []).forEach((item, i) => {
    const c = checks.nested('itemsAttributes', i);
    sameSchool(c, item.schoolId);
    c.required('couponTokenId', item.couponTokenId).required('total', item.total);
  });
  const priced = await priceItems(
    tx,
    schoolId,
    checks,
    'itemsAttributes',
    input.itemsAttributes ?? [],
    { couponId: couponId !== null && couponFound.has(couponId) ? couponId : null, total: input.total, amountToPay: input.amountToPay },
    { at: when, write: !dryRun, mode: 'history' },
  );
  const items: ItemValues[] = priced.items.map(({ schoolProductId: _p, ...item }, i) => ({ ...item, createdAt: input.itemsAttributes![i].createdAt ?? createdAt }));

  const invoiceRows = (input.invoicesAttributes ?? []).map((invoice, i) => {
    const c = checks.nested('invoicesAttributes', i);
    sameSchool(c, invoice.schoolId);
    c.required('amount', invoice.amount).required('occurrence', invoice.occurrence).required('status', invoice.status);
    c.range('amount', invoice.amount, 0).range('occurrence', invoice.occurrence, 0);
    const uuid = uuidOf(invoice.uuid);
    invoiceUuids.add(c, uuid);
    const invoiceCreatedAt = invoice.createdAt ?? createdAt;
    const paymentRows: PaymentValues[] = (invoice.paymentsAttributes ?? []).map((payment, j) => {
      const p = c.nested('paymentsAttributes', j);
      sameSchool(p, payment.schoolId);
      p.required('kind', payment.kind).required('status', payment.status);
      p.range('kind', payment.kind, 0, 3).range('amount', payment.amount, 0).range('gatewayFees', payment.gatewayFees, 0);
      p.range('installments', payment.installments, 1);
      p.requiredWhen(
        orderKind === ORDER_KIND_COMMON && payment.kind === PAYMENT_KIND_CREDIT_CARD,
        'installments',
        payment.installments,
        'for a common order (kind 0) paid by credit card (kind 0)',
      );
      const paymentUuid = uuidOf(payment.uuid);
      paymentUuids.add(p, paymentUuid);
      return {
        schoolId,
        kind: payment.kind!,
        status: payment.status!,
        amount: payment.amount ?? null,
        uuid: paymentUuid,
        gatewayReference: payment.gatewayReference ?? null,
        link: payment.link ?? null,
        boletoCode: payment.boletoCode ?? null,
        cardholder: payment.cardholder ?? null,
        response: payment.response ?? null,
        message: payment.message ?? null,
        success: payment.success ?? false,
        test: payment.test ?? false,
        installments: payment.installments ?? null,
        gatewayFees: payment.gatewayFees ?? null,
        createdAt: payment.createdAt ?? invoiceCreatedAt,
      };
    });
    const values: InvoiceValues = {
      schoolId,
      amount: invoice.amount!,
      occurrence: invoice.occurrence!,
      status: invoice.status!,
      uuid,
      nextChargeAt: invoice.nextChargeAt ?? null,
      createdAt: invoiceCreatedAt,
    };
    return { values, payments: paymentRows };
  });

  // The references and uuids, one statement per table for the whole tree.
  await refs.student.check(tx, users, schoolId, eq(users.type, 'Student'));
  await refs.gateway.check(tx, gatewayCredentials, schoolId);
  await invoiceUuids.check(tx, invoices, schoolId);
  await paymentUuids.check(tx, payments, schoolId);
  checks.throwIfAny();

  const order: OrderValues = {
    schoolId,
    studentId: studentId!,
    gatewayCredentialId,
    couponId,
    ...priced.price,
    priceOverridden: priced.overridden,
    kind: orderKind,
    period: input.period ?? 0,
    status,
    confirmedAt: input.confirmedAt ?? (status === 'confirmed' ? when : null),
    canceledAt: status === 'canceled' ? when : null,
    nextInvoiceAt: input.nextInvoiceAt ?? null,
    uuid: uuidOf(input.uuid),
    gatewayReference: input.gatewayReference ?? null,
    response: input.response ?? null,
    message: input.message ?? null,
    test: input.test ?? false,
    success: input.success ?? false,
    createdAt,
  };
  return { order, items, invoices: invoiceRows, when };
}

type Plan = Awaited<ReturnType<typeof planImport>>;

/** The order as it would be: the plan's rows with null ids and the times the database would give. */
function preview(plan: Plan, now: Date): ImportedOrderResult {
  const times = (createdAt: Date | undefined) => ({ createdAt: createdAt ?? now, updatedAt: now });
  return {
    ...plan.order,
    ...times(plan.order.createdAt),
    id: null,
    created: false,
    dryRun: true,
    [PREVIEW]: {
      items: plan.items.map((item) => ({ ...item, ...times(item.createdAt), id: null, orderId: null })),
      invoices: plan.invoices.map((invoice) => ({
        ...invoice.values,
        ...times(invoice.values.createdAt),
        id: null,
        orderId: null,
        [PREVIEW]: invoice.payments.map((payment) => ({ ...payment, ...times(payment.createdAt), id: null, invoiceId: null })),
      })),
    },
  } as ImportedOrderResult;
}

/** Fresh ids from a table's identity sequence, so parents and children are written in one statement each. */
async function nextIds(tx: Queryable, table: string, count: number): Promise<number[]> {
  const rows = await tx
    .select({ id: sql<number>`nextval(pg_get_serial_sequence(${table}, 'id'))::int` })
    .from(sql`generate_series(1, ${count}::int)`);
  return rows.map((r) => Number(r.id));
}

async function writeImport(tx: Queryable, plan: Plan, input: ImportOrderInput): Promise<ImportedOrderResult> {
  const [order] = await tx
    .insert(orders)
    .values(plan.order)
    .onConflictDoNothing({ target: [orders.schoolId, orders.uuid] })
    .returning();
  if (!order) {
    // Another import of this uuid committed first: its order is the answer.
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.schoolId, plan.order.schoolId), eq(orders.uuid, plan.order.uuid!)));
    return { ...existing, created: false, dryRun: false };
  }
  if (plan.items.length) await tx.insert(orderItems).values(plan.items.map((item) => ({ ...item, orderId: order.id })));
  if (plan.invoices.length) {
    const ids = await nextIds(tx, 'invoices', plan.invoices.length);
    await tx.insert(invoices).values(plan.invoices.map((invoice, i) => ({ ...invoice.values, id: ids[i], orderId: order.id })));
    const paymentRows = plan.invoices.flatMap((invoice, i) => invoice.payments.map((payment) => ({ ...payment, invoiceId: ids[i] })));
    const inserted = paymentRows.length ? await tx.insert(payments).values(paymentRows).returning({ id: payments.id }) : [];
    const paymentIds = inserted.map((r) => r.id).sort((a, b) => a - b);
    // Identity values follow the VALUES order. An invoice or payment given its own created_at is history: no event.
    await emitEvents(tx, [
      ...plan.invoices.flatMap(({ values: v }, i) =>
        v.status === 'paid' && !v.createdAt
          ? [{ schoolId: order.schoolId, name: 'invoice.paid' as const, subjectType: 'Invoice' as const, subjectId: ids[i], payload: { orderId: order.id, amount: v.amount, occurrence: v.occurrence, uuid: v.uuid ?? null } }]
          : [],
      ),
      ...paymentRows.flatMap((p, i) =>
        (p.status === 'confirmed' || p.status === 'refunded') && !p.createdAt
          ? [
              {
                schoolId: order.schoolId,
                name: p.status === 'confirmed' ? ('payment.confirmed' as const) : ('payment.refunded' as const),
                subjectType: 'Payment' as const,
                subjectId: paymentIds[i],
                payload: { orderId: order.id, invoiceId: p.invoiceId, status: p.status, kind: p.kind, amount: p.amount ?? null, uuid: p.uuid ?? null },
              },
            ]
          : [],
      ),
    ]);
  }
  // A paid order imported gives access as a confirmed one does (history: its events skipped).
  if (order.status === 'confirmed') await enrollOrder(tx, order, order.confirmedAt ?? plan.when, !input.createdAt);
  if (!input.createdAt) {
    await emitRowEvent(tx, 'order.imported', order, {
      uuid: order.uuid,
      status: order.status,
      items: plan.items.length,
      invoices: plan.invoices.length,
      payments: plan.invoices.reduce((n, invoice) => n + invoice.payments.length, 0),
    });
  }
  return { ...order, created: true, dryRun: false };
}

export async function importOrder(tx: Queryable, ctx: Context, schoolId: number, input: ImportOrderInput, dryRun: boolean) {
  const uuid = uuidOf(input.uuid);
  if (uuid !== null) {
    // Concurrent imports of one uuid wait here: the later ones then find the first one's order.
    await lockKey(tx, 'order-import', `${schoolId}:${uuid}`);
    const [existing] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.schoolId, schoolId), eq(orders.uuid, uuid)));
    if (existing) return { ...existing, created: false, dryRun } satisfies ImportedOrderResult;
  }
  const now = ctx.now();
  const plan = await planImport(tx, schoolId, input, now, dryRun);
  return dryRun ? preview(plan, now) : writeImport(tx, plan, input);
}

const Student = StudentTypes.Type;

@Resolver(() => ImportedOrder)
@RelationFields<ImportedOrderResult>({
  student: { type: () => Student, loader: studentById, key: 'studentId', nullable: true },
  school: { type: () => School, loader: schoolById, key: 'schoolId', nullable: true },
})
export class OrderImportResolver {
  @Mutation(() => ImportOrderPayload, {
    description:
      'Imports an order with its items, invoices and payments in one transaction: all or nothing, idempotent on uuid. dryRun checks everything and writes nothing.',
  })
  importOrder(
    @Arg('input', () => ImportOrderInput) input: ImportOrderInput,
    @Arg('dryRun', () => Boolean, { nullable: true, description: 'Check only: the payload shows the order as it would be (ids null).' })
    dryRun: boolean | null,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'order', (tx) => importOrder(tx, ctx, schoolId, input, dryRun === true));
  }

  @FieldResolver(() => [ID], { description: 'The ids of its items (empty on a dry run).' })
  async itemIds(@Root() order: ImportedOrderResult, @Ctx() ctx: Context) {
    return order.id === null ? [] : (await ctx.loaders.get(itemsOfOrder).load(order.id)).map((i) => i.id);
  }

  @FieldResolver(() => [ID], { description: 'The ids of its invoices (empty on a dry run).' })
  async invoiceIds(@Root() order: ImportedOrderResult, @Ctx() ctx: Context) {
    return order.id === null ? [] : (await ctx.loaders.get(invoicesOfOrder).load(order.id)).map((i) => i.id);
  }

  @FieldResolver(() => [ImportedOrderItem])
  items(@Root() order: ImportedOrderResult, @Ctx() ctx: Context) {
    return order[PREVIEW]?.items ?? (order.id === null ? [] : ctx.loaders.get(itemsOfOrder).load(order.id));
  }

  @FieldResolver(() => [ImportedInvoice])
  invoices(@Root() order: ImportedOrderResult, @Ctx() ctx: Context) {
    return order[PREVIEW]?.invoices ?? (order.id === null ? [] : ctx.loaders.get(invoicesOfOrder).load(order.id));
  }
}

@Resolver(() => ImportedOrderItem)
export class ImportedOrderItemResolver {
  @FieldResolver(() => PaymentOption, { nullable: true })
  paymentOption(@Root() item: { paymentOptionId: number }, @Ctx() ctx: Context) {
    return itemRelations.paymentOption(item, ctx);
  }

  @FieldResolver(() => CouponToken, { nullable: true })
  couponToken(@Root() item: { couponTokenId: number | null }, @Ctx() ctx: Context) {
    return itemRelations.couponToken(item, ctx);
  }
}

@Resolver(() => ImportedInvoice)
export class ImportedInvoiceResolver {
  @FieldResolver(() => [ImportedPayment])
  payments(@Root() invoice: { id: number | null; [PREVIEW]?: object[] }, @Ctx() ctx: Context) {
    return invoice[PREVIEW] ?? (invoice.id === null ? [] : ctx.loaders.get(paymentsOfInvoice).load(invoice.id));
  }
}
