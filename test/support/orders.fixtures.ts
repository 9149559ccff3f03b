import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { couponTokens, coupons, gatewayCredentials, invoices, orderItems, orders, paymentOptions, payments } from '../../src/modules/orders/order.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { countRows, unique } from './rows.js';
import { expect } from 'vitest';
import type { Client, Service } from './service.js';

/**
 * A hash of a request body as the tests build it: any value, since a test sends wrong ones on
 * purpose (a status out of the list, a kind that is not a number, a field deleted).
 */
export type Hash = { [key: string]: unknown };

/** What an import names: a student, two payment options, coupon tokens, a coupon and a gateway credential of the school. */
export interface ImportRefs {
  schoolId: number;
  student: { id: number };
  options: { id: number }[];
  tokens: { id: number }[];
  coupon: { id: number };
  gateway: { id: number };
}

/**
 * The orders family's fixtures, for its REST, import and GraphQL tests: rows whose APIs other
 * families build (users, products), or that a test wants as given, go straight into the tables.
 * `service` is read when a fixture runs.
 */
export function orderFixtures(service: () => Service) {
  const db = () => service().db;
  return {
    async person(schoolId: number, type: 'Student' | 'Collaborator' | 'Admin' = 'Student') {
      const [row] = await db()
        .insert(users)
        .values({ schoolId, type, fullName: `${type} person`, email: `${unique(type.toLowerCase())}@example.com` })
        .returning();
      return row;
    },
    countRows: (table: PgTable, where?: SQL) => countRows(service(), table, where),
    async orderRow(id: number) {
      const [row] = await db().select().from(orders).where(eq(orders.id, id));
      return row;
    },
    /** The names of the order's domain events, in order. */
    async eventsOf(orderId: number) {
      const rows = await db()
        .select()
        .from(domainEvents)
        .where(and(eq(domainEvents.subjectType, 'Order'), eq(domainEvents.subjectId, orderId)))
        .orderBy(domainEvents.id);
      return rows.map((r) => r.name);
    },
    /** The rows an import names, made in the school (`tokenCount` unused coupon tokens). */
    async importRefs(schoolId: number, tokenCount = 40): Promise<ImportRefs> {
      const [student] = await db()
        .insert(users)
        .values({ schoolId, type: 'Student', fullName: 'Importing Student', email: `${unique('student')}@example.com` })
        .returning();
      const [product] = await db().insert(schoolProducts).values({ schoolId, title: 'Course' }).returning();
      const options = await db()
        .insert(paymentOptions)
        .values([
          { schoolId, schoolProductId: product.id, name: 'Full', price: 10000, installmentsMax: 12 },
          { schoolId, schoolProductId: product.id, name: 'Half', price: 5000 },
        ])
        .returning();
      const [coupon] = await db().insert(coupons).values({ schoolId, code: unique('COUPON'), discountPercent: 10 }).returning();
      const tokens = await db()
        .insert(couponTokens)
        .values(Array.from({ length: tokenCount }, () => ({ schoolId, couponId: coupon.id, token: unique('T') })))
        .returning();
      const [gateway] = await db().insert(gatewayCredentials).values({ schoolId, gateway: 'pagarme' }).returning();
      return { schoolId, student, options, tokens, coupon, gateway };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// POST /orders/import (test/orders/).

/** Lists of hashes as index-keyed hashes (`x[0][y]=`), as form and multipart clients send them. */
export const indexed = (v: unknown): unknown =>
  Array.isArray(v)
    ? Object.fromEntries(v.map((item, i) => [String(i), indexed(item)]))
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, indexed(x)]))
      : v;

/** The import body's order, typed where the tests reach into it (a test sending another shape casts to Hash). */
export type ImportOrder = Hash & { uuid: string; items_attributes: Hash[]; invoices_attributes: (Hash & { payments_attributes: Hash[] })[] };

/**
 * Where importBody takes the next two coupon tokens of a fixture: tokens are single-use, so each
 * body names fresh ones, from the upper half (the lower half stays for tests that name a token).
 */
const tokenCursor = new WeakMap<ImportRefs, number>();
function freshTokens(f: ImportRefs): [{ id: number }, { id: number }] {
  const at = tokenCursor.get(f) ?? Math.floor(f.tokens.length / 2);
  if (at + 1 >= f.tokens.length) throw new Error('orders.fixtures: the fixture ran out of coupon tokens; make it with more');
  tokenCursor.set(f, at + 2);
  return [f.tokens[at], f.tokens[at + 1]];
}

/** The import's bodies and the reads its tests check. `service` is read when a fixture runs. */
export function orderImportFixtures(service: () => Service) {
  const n = (table: PgTable, where?: SQL) => countRows(service(), table, where);

  /** A valid import of an already-paid order: 2 items (two fresh coupon tokens), 2 invoices, 3 payments, original times. */
  function importBody(f: ImportRefs, change: (order: ImportOrder) => void = () => {}) {
    const s = f.schoolId;
    const [token0, token1] = freshTokens(f);
    const order: ImportOrder = {
      school_id: s,
      student_id: f.student.id,
      gateway_credential_id: f.gateway.id,
      coupon_id: f.coupon.id,
      uuid: unique('order'),
      kind: 0,
      period: 0,
      status: 'confirmed',
      amount_to_pay: 18000,
      total: 20000,
      created_at: '2024-03-01T10:00:00.000Z',
      confirmed_at: '2024-03-01T10:05:00.000Z',
      next_invoice_at: '2024-04-01T10:00:00.000Z',
      gateway_reference: 'or_abc',
      response: '{"status":"paid"}',
      message: 'Transaction approved',
      test: true,
      success: true,
      items_attributes: [
        { school_id: s, payment_option_id: f.options[0].id, coupon_token_id: token0.id, quantity: 1, total: 10000, amount_to_pay: 9000 },
        {
          school_id: s,
          payment_option_id: f.options[1].id,
          coupon_token_id: token1.id,
          quantity: 2,
          total: 10000,
          amount_to_pay: 9000,
          amount_to_pay_in_credits: 0,
          total_in_credits: 0,
          created_at: '2024-03-01T10:01:00.000Z',
        },
      ],
      invoices_attributes: [
        {
          school_id: s,
          amount: 9000,
          occurrence: 1,
          status: 'paid',
          uuid: unique('invoice'),
          next_charge_at: '2024-04-01T10:00:00.000Z',
          payments_attributes: [
            { school_id: s, kind: '0', status: 'failed', installments: 2, amount: 9000, uuid: unique('payment'), cardholder: 'ANA S', gateway_fees: 0 },
            {
              school_id: s,
              kind: 0,
              status: 'confirmed',
              installments: 2,
              amount: 9000,
              uuid: unique('payment'),
              success: true,
              gateway_fees: 120,
              created_at: '2024-03-01T10:04:00.000Z',
            },
          ],
        },
        {
          school_id: s,
          amount: 9000,
          occurrence: 2,
          status: 'open',
          payments_attributes: [{ school_id: s, kind: 1, status: 'waiting_boleto', boleto_code: '23790.12345', link: 'https://pay.example/b/1' }],
        },
      ],
    };
    change(order);
    return { order };
  }

  async function counts() {
    return {
      orders: await n(orders),
      items: await n(orderItems),
      invoices: await n(invoices),
      payments: await n(payments),
      events: await n(domainEvents),
      usedTokens: await n(couponTokens, sql`${couponTokens.usedAt} is not null`),
    };
  }

  async function stored(orderId: number) {
    const [order] = await service().db.select().from(orders).where(eq(orders.id, orderId));
    const items = await service().db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.id);
    const invs = await service().db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.occurrence);
    const pays = invs.length
      ? await service().db.select().from(payments).where(inArray(payments.invoiceId, invs.map((i) => i.id))).orderBy(payments.id)
      : [];
    return { order, items, invoices: invs, payments: pays };
  }

  return { importBody, counts, stored };
}

// ---------------------------------------------------------------------------------------------
// Selling (test/orders/): a product with an access period, a payment option and coupons.

/** What a sale names: a student (and its credential), a product of 12 months' access, its option at 49,700 and a 30 % coupon with tokens. */
export interface SaleRefs {
  schoolId: number;
  student: { id: number };
  product: { id: number };
  option: { id: number; price: number };
  coupon: { id: number };
  tokens: { id: number; token: string }[];
}

/** The selling fixtures: rows whose APIs other families test go straight into the tables. */
export function saleFixtures(service: () => Service) {
  const db = () => service().db;
  const fx = {
    async sale(schoolId: number, tokenCount = 4): Promise<SaleRefs> {
      const [student] = await db()
        .insert(users)
        .values({ schoolId, type: 'Student', fullName: 'Buying Student', email: `${unique('buyer')}@example.com` })
        .returning();
      const [product] = await db()
        .insert(schoolProducts)
        .values({ schoolId, title: 'Sold course', availableTimeType: 'time', availableTimeLength: 12, availableTimeUnit: 'months' })
        .returning();
      const [option] = await db().insert(paymentOptions).values({ schoolId, schoolProductId: product.id, name: 'Full', price: 49700, installmentsMax: 12 }).returning();
      const [coupon] = await db().insert(coupons).values({ schoolId, code: unique('THIRTY'), discountPercent: 30 }).returning();
      const tokens = await db()
        .insert(couponTokens)
        .values(Array.from({ length: tokenCount }, () => ({ schoolId, couponId: coupon.id, token: unique('TOKEN') })))
        .returning();
      return { schoolId, student, product, option, coupon, tokens };
    },
    async option(schoolId: number, values: { price: number; priceInCredits?: number; schoolProductId?: number }) {
      const [row] = await db().insert(paymentOptions).values({ schoolId, name: 'Option', ...values }).returning();
      return row;
    },
    async coupon(schoolId: number, values: Partial<typeof coupons.$inferInsert>) {
      const [coupon] = await db().insert(coupons).values({ schoolId, code: unique('C'), ...values }).returning();
      const [token] = await db().insert(couponTokens).values({ schoolId, couponId: coupon.id, token: unique('T') }).returning();
      return { coupon, token };
    },
    /** An order of the sale's option through POST /orders (by `client`), and its open invoice's id. */
    async order(client: Client, f: SaleRefs, fields: Hash = {}) {
      const res = await client.post('/orders', { order: { student_id: f.student.id, items_attributes: [{ payment_option_id: f.option.id }], ...fields } });
      expect(res.status, res.text).toBe(201);
      return { order: res.body as Hash & { id: number }, invoiceId: res.body.invoice_ids[0] as number };
    },
    /** A card payment of the invoice (POST /invoices/:id/payments), made by `client`. */
    async payment(client: Client, invoiceId: number, fields: Hash = {}) {
      const res = await client.post(`/invoices/${invoiceId}/payments`, { payment: { kind: 0, installments: 1, ...fields } });
      expect(res.status, res.text).toBe(201);
      return res.body as Hash & { id: number };
    },
    /** An order paid: ordered, a card payment made and confirmed. */
    async paidOrder(client: Client, f: SaleRefs) {
      const { order, invoiceId } = await fx.order(client, f);
      const payment = await fx.payment(client, invoiceId);
      const res = await client.put(`/payments/${payment.id}/confirm`);
      expect(res.status, res.text).toBe(200);
      return { order, invoiceId, payment };
    },
    /** The names of the school's events after `since` (an event id), in order, with their subjects. */
    async eventsAfter(schoolId: number, since = 0) {
      const rows = await db()
        .select()
        .from(domainEvents)
        .where(and(eq(domainEvents.schoolId, schoolId), sql`${domainEvents.id} > ${since}`))
        .orderBy(domainEvents.id);
      return rows;
    },
  };
  return fx;
}
