import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import {
  couponTokens,
  coupons,
  gatewayCredentials,
  invoices,
  orderItems,
  orders,
  paymentOptions,
  payments,
} from '../src/modules/orders/order.table.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { schoolStatusChanges } from '../src/modules/schools/school.table.js';
import { users } from '../src/modules/users/user.table.js';
import { type Reply, type Service, startService, type TestSchool } from './support/service.js';

// Requests racing for one row, one order uuid, one e-mail. On PostgreSQL they run on separate
// connections at once; on PGlite they serialize, and the same outcome must hold.

const PARALLEL = 8;
let service: Service;
let school: TestSchool;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Racing School');
});
afterAll(() => service?.stop());

const all = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const statuses = (replies: { status: number }[]) => replies.map((r) => r.status).sort();
const countWhere = async (table: any, where: any) => {
  const [row] = await service.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return Number(row.n);
};

describe('parallel updates of one row', () => {
  it('given eight updates of one product at once, then all answer 200 and the row is one of them whole', async () => {
    const created = await school.admin.post('/school_products', { school_product: { title: 'Before' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const variant = (i: number) => ({ title: `Title ${i}`, subtitle: `Subtitle ${i}`, description: `Description ${i}` });
    const replies = await all(PARALLEL, (i) => school.admin.put(`/school_products/${id}`, { school_product: variant(i) }));
    expect(statuses(replies)).toEqual(Array(PARALLEL).fill(200));
    for (const [i, res] of replies.entries()) expect(res.body).toMatchObject(variant(i));
    const [row] = await service.db.select().from(schoolProducts).where(eq(schoolProducts.id, id));
    const winner = Number(row.title.replace('Title ', ''));
    expect({ title: row.title, subtitle: row.subtitle, description: row.description }).toEqual(variant(winner));
  });

  it('given eight full refunds of one paid order at once, then one refunds it, the others are refused, one event', async () => {
    const order = await importOrder(orderBody(await orderFixture()));
    expect(order.status).toBe(201);
    const [payment] = await service.db
      .select({ id: payments.id })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(eq(invoices.orderId, order.body.id));
    const replies = await all(PARALLEL, () => school.admin.post(`/payments/${payment.id}/refund`, { refund: { reason: 'Racing refunds' } }));
    expect(statuses(replies)).toEqual([200, ...Array(PARALLEL - 1).fill(422)]);
    for (const res of replies.filter((r) => r.status === 422)) expect(Object.values(res.body.details).flat()).toEqual([{ error: 'invalid_transition' }]);
    const [row] = await service.db.select().from(orders).where(eq(orders.id, order.body.id));
    expect(row.status).toBe('canceled');
    expect(await countWhere(domainEvents, and(eq(domainEvents.name, 'order.refunded'), eq(domainEvents.subjectId, order.body.id)))).toBe(1);
  });

  it('given eight platform blocks of one school at once, then one moves it, the others are invalid transitions, one change recorded', async () => {
    const target = await service.school('Racing Blocked');
    const replies = await all(PARALLEL, () => service.platform.put(`/school/${target.id}`, { school: { event: 'block' } }));
    expect(statuses(replies)).toEqual([200, ...Array(PARALLEL - 1).fill(422)]);
    const changes = await service.db.select().from(schoolStatusChanges).where(eq(schoolStatusChanges.schoolId, target.id));
    expect(changes.filter((c) => c.event === 'block')).toHaveLength(1);
  });
});

describe('parallel creation of schools named alike', () => {
  it('given eight wizards for one school name at once, then each gets a subdomain of its own (same-name, same-name-2, ...), none a conflict', async () => {
    const name = `Twin Academy ${++seq}`;
    const replies = await all(PARALLEL, (i) =>
      service.platform.post('/schools/wizard', { school: { name, email: `owner${i}@twin.example`, password: 'racing-password' } }),
    );
    expect(statuses(replies), replies.map((r) => r.text.slice(0, 120)).join('\n')).toEqual(Array(PARALLEL).fill(201));
    const base = `twin-academy-${seq}`;
    const subdomains = replies.map((r) => r.body.school.subdomain).sort();
    expect(new Set(subdomains).size).toBe(PARALLEL);
    expect(subdomains).toEqual([base, ...Array.from({ length: PARALLEL - 1 }, (_, i) => `${base}-${i + 2}`)].sort());
  });

  it('given eight schools created with one explicit subdomain at once, then one is created and the others are 409 naming it', async () => {
    const subdomain = `taken-${++seq}`;
    const replies = await all(PARALLEL, (i) => service.platform.post('/schools', { school: { name: `Taken ${i}`, subdomain, email: `t${i}@twin.example` } }));
    expect(statuses(replies)).toEqual([201, ...Array(PARALLEL - 1).fill(409)]);
    for (const res of replies.filter((r) => r.status === 409)) expect(res.body.details).toEqual({ subdomain: [{ error: 'taken' }] });
  });
});

interface OrderFixture {
  studentId: number;
  optionId: number;
  gatewayId: number;
  couponId: number;
  tokenIds: number[];
}

async function orderFixture(): Promise<OrderFixture> {
  const s = school.id;
  const [student] = await service.db
    .insert(users)
    .values({ schoolId: s, type: 'Student', fullName: 'Racing Student', email: `${unique('student')}@example.com` })
    .returning();
  const [product] = await service.db.insert(schoolProducts).values({ schoolId: s, title: 'Course' }).returning();
  const [option] = await service.db.insert(paymentOptions).values({ schoolId: s, schoolProductId: product.id, name: 'Full', price: 10000 }).returning();
  const [gateway] = await service.db.insert(gatewayCredentials).values({ schoolId: s, gateway: 'pagarme' }).returning();
  const [coupon] = await service.db.insert(coupons).values({ schoolId: s, code: unique('COUPON'), discountPercent: 10 }).returning();
  const tokens = await service.db
    .insert(couponTokens)
    .values(Array.from({ length: PARALLEL }, () => ({ schoolId: s, couponId: coupon.id, token: unique('T') })))
    .returning();
  return { studentId: student.id, optionId: option.id, gatewayId: gateway.id, couponId: coupon.id, tokenIds: tokens.map((t) => t.id) };
}

/** A paid order with one item, one invoice and one payment, as another system exports it. */
function orderBody(f: OrderFixture, uuid = unique('order'), token = 0) {
  const s = school.id;
  return {
    order: {
      school_id: s,
      student_id: f.studentId,
      gateway_credential_id: f.gatewayId,
      coupon_id: f.couponId,
      uuid,
      kind: 0,
      period: 0,
      status: 'confirmed',
      amount_to_pay: 10000,
      total: 10000,
      items_attributes: [
        { school_id: s, payment_option_id: f.optionId, coupon_token_id: f.tokenIds[token], quantity: 1, total: 10000, amount_to_pay: 10000 },
      ],
      invoices_attributes: [
        {
          school_id: s,
          amount: 10000,
          occurrence: 1,
          status: 'paid',
          uuid: unique('invoice'),
          payments_attributes: [{ school_id: s, kind: 0, status: 'confirmed', installments: 1, amount: 10000, uuid: unique('payment') }],
        },
      ],
    },
  };
}

const importOrder = (body: unknown): Promise<Reply> => school.admin.post('/orders/import', body);

describe('parallel imports of one order uuid', () => {
  it('given eight imports of one uuid at once, then one order is created with its rows once, the others answer it, none fails', async () => {
    const body = orderBody(await orderFixture());
    const replies = await all(PARALLEL, () => importOrder(body));
    expect(statuses(replies)).toEqual([200, 200, 200, 200, 200, 200, 200, 201].slice(8 - PARALLEL));
    const ids = new Set(replies.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(await countWhere(orders, and(eq(orders.schoolId, school.id), eq(orders.uuid, body.order.uuid)))).toBe(1);
    expect(await countWhere(orderItems, eq(orderItems.orderId, id))).toBe(1);
    expect(await countWhere(invoices, eq(invoices.orderId, id))).toBe(1);
    const [invoice] = await service.db.select().from(invoices).where(eq(invoices.orderId, id));
    expect(await countWhere(payments, eq(payments.invoiceId, invoice.id))).toBe(1);
  });

  it('given imports of one uuid with different bodies at once, then still one order, the others answer it, never a 500', async () => {
    const f = await orderFixture();
    const uuid = unique('order');
    const bodies = Array.from({ length: PARALLEL }, (_, i) => orderBody(f, uuid, i));
    const replies = await all(PARALLEL, (i) => importOrder(bodies[i]));
    for (const res of replies) expect([200, 201, 409], res.text).toContain(res.status);
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await countWhere(orders, and(eq(orders.schoolId, school.id), eq(orders.uuid, uuid)))).toBe(1);
  });
});

describe('parallel creation of one e-mail in one school', () => {
  const createStudent = (email: string) =>
    school.admin.graphql(
      'mutation($input: PersonInput!) { createStudent(input: $input) { student { id email } errors { field code } } }',
      { input: { fullName: 'Twin', email, password: 'racing-password' } },
    );

  it('given eight students created with one e-mail at once (in any case), then one user exists and the others are told it is taken', async () => {
    const email = `${unique('twin')}@example.com`;
    const results = await all(PARALLEL, (i) => createStudent(i % 2 ? email.toUpperCase() : email));
    for (const r of results) expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const payloads = results.map((r) => r.data.createStudent);
    const created = payloads.filter((p) => p.student);
    expect(created).toHaveLength(1);
    expect(created[0].student.email).toBe(email);
    for (const p of payloads.filter((p) => !p.student)) expect(p.errors).toEqual([{ field: ['email'], code: 'taken' }]);
    expect(await countWhere(users, and(eq(users.schoolId, school.id), eq(users.email, email)))).toBe(1);
  });

  it('given the same e-mail in another school at the same time, then both schools get their user', async () => {
    const other = await service.school('Racing Other');
    const email = `${unique('both')}@example.com`;
    const make = (s: TestSchool) =>
      s.admin.graphql('mutation($input: PersonInput!) { createStudent(input: $input) { student { id } errors { code } } }', {
        input: { fullName: 'Both', email },
      });
    const [a, b] = await Promise.all([make(school), make(other)]);
    expect(a.data.createStudent.errors).toEqual([]);
    expect(b.data.createStudent.errors).toEqual([]);
  });
});
