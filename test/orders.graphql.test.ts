import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../src/auth/secrets.js';
import { couponTokens, gatewayCredentials, invoices, orderItems, orders, payments } from '../src/modules/orders/order.table.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { type Hash, orderFixtures } from './support/orders.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { graphql, type ReplyOf, type TadaDocumentNode } from './support/graphql.js';
import { unique } from './support/rows.js';
import { twoSchools } from './support/world.js';

/**
 * GraphQL face of the Orders family: order, orders (with the filters REST lacks), createOrder,
 * updateOrder, cancelOrder, importOrder (dryRun), the relation fields through loaders, and the
 * objects an order references (PaymentOption, Coupon, CouponToken, GatewayCredential).
 */

/** importOrder's input, typed where the tests reach into it: they send wrong values on purpose. */
type ImportInput = Hash & { uuid: string; itemsAttributes: Hash[]; invoicesAttributes: (Hash & { paymentsAttributes: Hash[] })[] };

const ORDER_FIELDS = graphql(`fragment OrderFields on Order {
  id schoolId studentId status kind period total amountToPay uuid confirmedAt canceledAt createdAt itemIds invoiceIds
}`);
const ORDER = graphql(`query ($id: ID!) { order(id: $id) {
  ...OrderFields
  student { id fullName } school { id } coupon { id code } gatewayCredential { id gateway }
  items { id orderId quantity paymentOption { id name price } couponToken { id token coupon { id } } }
  invoices { id occurrence status payments { id invoiceId kind status installments } }
} }`, [ORDER_FIELDS]);
const ORDERS = graphql(`query ($status: OrderStatus, $studentId: ID, $createdFrom: DateTime, $createdTo: DateTime, $first: Int, $after: String, $page: Int, $perPage: Int) {
  orders(status: $status, studentId: $studentId, createdFrom: $createdFrom, createdTo: $createdTo, first: $first, after: $after, page: $page, perPage: $perPage) {
    totalCount nodes { id status studentId createdAt } pageInfo { hasNextPage endCursor }
  }
}`);
const CREATE = graphql(`mutation ($input: OrderInput!) { createOrder(input: $input) { order { ...OrderFields } errors { field code message } } }`, [ORDER_FIELDS]);
const UPDATE = graphql(`mutation ($id: ID!, $input: OrderInput!) { updateOrder(id: $id, input: $input) { order { ...OrderFields } errors { field code message } } }`, [ORDER_FIELDS]);
const CANCEL = graphql(`mutation ($id: ID!) { cancelOrder(id: $id) { order { ...OrderFields } errors { field code message } } }`, [ORDER_FIELDS]);
const IMPORT = graphql(`mutation ($input: ImportOrderInput!, $dryRun: Boolean) { importOrder(input: $input, dryRun: $dryRun) {
  order {
    id created dryRun uuid status total createdAt confirmedAt itemIds invoiceIds
    student { id } school { id }
    items { id orderId quantity total paymentOption { id name } couponToken { id } }
    invoices { id orderId occurrence status payments { id invoiceId kind status installments } }
  }
  errors { field code message }
} }`);

describe('Orders over GraphQL', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let studentA: { id: number };
  let studentA2: { id: number };
  let studentB: { id: number };
  let productA: { id: number };
  let productB: { id: number };

  const { person, countRows: count } = orderFixtures(() => service);
  /** Sends a mutation expecting no error of any kind, and returns its payload. */
  async function ok<D extends TadaDocumentNode<any, any>, K extends keyof ReplyOf<D>['data']>(client: Client, query: D, variables: Record<string, unknown>, field: K) {
    const res = await client.graphql(query, variables);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect((res.data[field] as { errors: unknown }).errors).toEqual([]);
    return res.data[field];
  }
  /** The objects an import needs, made through the mutations a client would use. */
  async function billing(school: TestSchool, productId: number) {
    const option = (await ok(school.admin, graphql(`mutation ($input: PaymentOptionInput!) { createPaymentOption(input: $input) { paymentOption { id name price installmentsMax schoolProductId } errors { field code message } } }`), {
      input: { name: 'Full price', price: 10000, installmentsMax: 12, schoolProductId: String(productId) },
    }, 'createPaymentOption')).paymentOption;
    const coupon = (await ok(school.admin, graphql(`mutation ($input: CouponInput!) { createCoupon(input: $input) { coupon { id code } errors { field code message } } }`), {
      input: { code: unique('SAVE'), discountPercent: 15 },
    }, 'createCoupon')).coupon;
    const token = (await ok(school.admin, graphql(`mutation ($input: CouponTokenInput!) { createCouponToken(input: $input) { couponToken { id token couponId usedAt } errors { field code message } } }`), {
      input: { couponId: coupon.id },
    }, 'createCouponToken')).couponToken;
    // Coupon tokens are single-use: every import takes fresh ones (`spare`, made straight in the table).
    const spare = await service.db
      .insert(couponTokens)
      .values(Array.from({ length: 60 }, () => ({ schoolId: school.id, couponId: Number(coupon.id), token: unique('T') })))
      .returning();
    const gateway = (await ok(school.admin, graphql(`mutation ($input: GatewayCredentialInput!) { createGatewayCredential(input: $input) { gatewayCredential { id gateway secretKeyHint } errors { field code message } } }`), {
      input: { gateway: 'pagarme', secretKey: `sk_test_${randomBytes(12).toString('hex')}` },
    }, 'createGatewayCredential')).gatewayCredential;
    return { option, coupon, token, gateway, tokens: [token.id, ...spare.map((t) => String(t.id))], used: 0 };
  }
  function importInput(schoolId: number, studentId: number, refs: Awaited<ReturnType<typeof billing>>, change: (o: ImportInput) => void = () => {}) {
    const s = String(schoolId);
    const couponTokenId = refs.tokens[refs.used++];
    const input: ImportInput = {
      schoolId: s,
      studentId: String(studentId),
      gatewayCredentialId: refs.gateway.id,
      couponId: refs.coupon.id,
      uuid: unique('gql-order'),
      status: 'confirmed',
      total: 10000,
      amountToPay: 8500,
      createdAt: '2024-06-01T09:00:00.000Z',
      itemsAttributes: [{ schoolId: s, paymentOptionId: refs.option.id, couponTokenId, quantity: 1, total: 10000, amountToPay: 8500 }],
      invoicesAttributes: [
        {
          schoolId: s,
          amount: 8500,
          occurrence: 1,
          status: 'paid',
          paymentsAttributes: [
            { schoolId: s, kind: 0, status: 'failed', installments: 1 },
            { schoolId: s, kind: '0', status: 'confirmed', installments: 1 },
          ],
        },
      ],
    };
    change(input);
    return input;
  }

  twoSchools('Alpha GraphQL Orders', 'Beta GraphQL Orders', async (w) => {
    ({ service, school: a, other: b } = w);
    studentA = await person(a.id);
    studentA2 = await person(a.id);
    studentB = await person(b.id);
    [productA] = await service.db.insert(schoolProducts).values({ schoolId: a.id, title: 'A course' }).returning();
    [productB] = await service.db.insert(schoolProducts).values({ schoolId: b.id, title: 'B course' }).returning();
  });

  describe('the objects an order references', () => {
    it('given a payment option, when created and updated, then it is stored; invalid fields are UserErrors', async () => {
      const { option } = await billing(a, productA.id);
      expect(option).toMatchObject({ name: 'Full price', price: 10000, installmentsMax: 12, schoolProductId: String(productA.id) });
      const M = graphql(`mutation ($id: ID!, $input: PaymentOptionInput!) { updatePaymentOption(id: $id, input: $input) { paymentOption { id price name } errors { field code message } } }`);
      const updated = await ok(a.admin, M, { id: option.id, input: { price: 12000 } }, 'updatePaymentOption');
      expect(updated.paymentOption).toMatchObject({ id: option.id, price: 12000, name: 'Full price' });
      const bad = await a.admin.graphql(graphql(`mutation ($input: PaymentOptionInput!) { createPaymentOption(input: $input) { paymentOption { id } errors { field code message } } }`), {
        input: { price: -1, installmentsMax: 0, schoolProductId: String(productB.id) },
      });
      expect(bad.data.createPaymentOption.paymentOption).toBeNull();
      expect(bad.data.createPaymentOption.errors.map((e) => [e.field.join('.'), e.code]).sort()).toEqual([
        ['installmentsMax', 'greater_than_or_equal_to'],
        ['name', 'blank'],
        ['price', 'greater_than_or_equal_to'],
        ['schoolProductId', 'not_found'],
      ]);
      // Another school's option is not found.
      const foreign = await b.admin.graphql(M, { id: option.id, input: { price: 1 } });
      expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
      // Students may read payment options (prices), filtered by product.
      const student = await service.token('student', a.id, studentA.id);
      const list = await student.graphql(graphql(`query ($p: ID) { paymentOptions(schoolProductId: $p) { totalCount nodes { id schoolProduct { id title } } } }`), { p: String(productA.id) });
      expect(list.errors).toBeUndefined();
      expect(list.data.paymentOptions.nodes.map((n) => n.id)).toContain(option.id);
      expect(list.data.paymentOptions.nodes[0].schoolProduct).toEqual({ id: String(productA.id), title: 'A course' });
    });

    it('given coupons, then a code is required and unique in the school, and a coupon gives a percentage or an amount', async () => {
      const C = graphql(`mutation ($input: CouponInput!) { createCoupon(input: $input) { coupon { id code discountPercent discountAmount active } errors { field code message } } }`);
      const code = unique('CODE');
      const made = await ok(a.admin, C, { input: { code, discountAmount: 500 } }, 'createCoupon');
      expect(made.coupon).toMatchObject({ code, discountAmount: 500, discountPercent: null, active: true });
      const taken = await a.admin.graphql(C, { input: { code, discountPercent: 5 } });
      expect(taken.data.createCoupon.errors).toEqual([expect.objectContaining({ field: ['code'], code: 'taken' })]);
      expect((await b.admin.graphql(C, { input: { code, discountPercent: 5 } })).data.createCoupon.errors).toEqual([]);
      const both = await a.admin.graphql(C, { input: { code: unique('X'), discountPercent: 5, discountAmount: 5 } });
      expect(both.data.createCoupon.errors.map((e) => e.code)).toEqual(['present']);
      const none = await a.admin.graphql(C, { input: { code: unique('X') } });
      expect(none.data.createCoupon.errors.map((e) => e.field[0])).toEqual(['discountPercent']);
      const U = graphql(`mutation ($id: ID!, $input: CouponInput!) { updateCoupon(id: $id, input: $input) { coupon { id discountPercent discountAmount active } errors { field code message } } }`);
      const switched = await ok(a.admin, U, { id: made.coupon.id, input: { discountAmount: null, discountPercent: 20, active: false } }, 'updateCoupon');
      expect(switched.coupon).toMatchObject({ discountPercent: 20, discountAmount: null, active: false });
      const student = await service.token('student', a.id, studentA.id);
      expect((await student.graphql('{ coupons { totalCount } }')).errors?.[0].extensions.code).toBe('FORBIDDEN');
    });

    it('given coupon tokens, then a token is generated when omitted, the coupon must be of the school, and the list filters', async () => {
      const { coupon } = await billing(a, productA.id);
      const C = graphql(`mutation ($input: CouponTokenInput!) { createCouponToken(input: $input) { couponToken { id token couponId usedAt coupon { id } } errors { field code message } } }`);
      const generated = await ok(a.admin, C, { input: { couponId: coupon.id } }, 'createCouponToken');
      expect(generated.couponToken.token).toMatch(/^[A-Z0-9_-]{12}$/);
      expect(generated.couponToken.coupon).toEqual({ id: coupon.id });
      const named = await ok(a.admin, C, { input: { couponId: coupon.id, token: 'WELCOME-1', usedAt: '2025-01-01T00:00:00.000Z' } }, 'createCouponToken');
      expect(named.couponToken).toMatchObject({ token: 'WELCOME-1', usedAt: '2025-01-01T00:00:00.000Z' });
      const foreign = await b.admin.graphql(C, { input: { couponId: coupon.id } });
      expect(foreign.data.createCouponToken.errors).toEqual([expect.objectContaining({ field: ['couponId'], code: 'not_found' })]);
      const L = graphql(`query ($c: ID, $used: Boolean) { couponTokens(couponId: $c, used: $used) { totalCount nodes { id } } }`);
      const used = await a.admin.graphql(L, { c: coupon.id, used: true });
      expect(used.data.couponTokens.nodes.map((n) => n.id)).toEqual([named.couponToken.id]);
      const unused = await a.admin.graphql(L, { c: coupon.id, used: false });
      expect(unused.data.couponTokens.totalCount).toBe(2 + 60);
      const U = graphql(`mutation ($id: ID!, $input: CouponTokenInput!) { updateCouponToken(id: $id, input: $input) { couponToken { id usedAt } errors { field code message } } }`);
      expect((await ok(a.admin, U, { id: named.couponToken.id, input: { usedAt: null } }, 'updateCouponToken')).couponToken.usedAt).toBeNull();
    });

    it('given a gateway credential with a secret key, then the key is never returned, stored encrypted under SECRETS_KEY, shown as a hint', async () => {
      const secret = `sk_live_${randomBytes(16).toString('hex')}`;
      const C = graphql(`mutation ($input: GatewayCredentialInput!) { createGatewayCredential(input: $input) { gatewayCredential { id gateway name environment publicKey secretKeyHint } errors { field code message } } }`);
      const res = await a.admin.graphql(C, { input: { gateway: 'stripe', name: 'Main', environment: 'production', publicKey: 'pk_live_1', secretKey: secret } });
      expect(res.errors).toBeUndefined();
      const credential = res.data.createGatewayCredential.gatewayCredential;
      expect(credential).toMatchObject({ gateway: 'stripe', name: 'Main', environment: 'production', publicKey: 'pk_live_1', secretKeyHint: `****${secret.slice(-4)}` });
      expect(JSON.stringify(res)).not.toContain(secret);
      const [row] = await service.db.select().from(gatewayCredentials).where(eq(gatewayCredentials.id, Number(credential.id)));
      expect(row.secretKeyCiphertext).toMatch(/^v1\./);
      expect(row.secretKeyCiphertext).not.toContain(secret.slice(8));
      expect(decryptSecret(row.secretKeyCiphertext!)).toBe(secret);
      // The schema has no field that could return it.
      const introspection = await a.admin.graphql('{ __type(name: "GatewayCredential") { fields { name } } }');
      expect(introspection.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('secretKey');

      const U = graphql(`mutation ($id: ID!, $input: GatewayCredentialInput!) { updateGatewayCredential(id: $id, input: $input) { gatewayCredential { id secretKeyHint environment } errors { field code message } } }`);
      const kept = await ok(a.admin, U, { id: credential.id, input: { name: 'Renamed' } }, 'updateGatewayCredential');
      expect(kept.gatewayCredential.secretKeyHint).toBe(`****${secret.slice(-4)}`);
      const blank = await a.admin.graphql(U, { id: credential.id, input: { secretKey: '  ', gateway: '' } });
      expect(blank.data.updateGatewayCredential.errors.map((e) => e.field[0]).sort()).toEqual(['gateway', 'secretKey']);
      const removed = await ok(a.admin, U, { id: credential.id, input: { secretKey: null } }, 'updateGatewayCredential');
      expect(removed.gatewayCredential.secretKeyHint).toBeNull();
      const [after] = await service.db.select().from(gatewayCredentials).where(eq(gatewayCredentials.id, Number(credential.id)));
      expect(after.secretKeyCiphertext).toBeNull();
      const student = await service.token('student', a.id, studentA.id);
      expect((await student.graphql('{ gatewayCredentials { totalCount } }')).errors?.[0].extensions.code).toBe('FORBIDDEN');
    });
  });

  describe('createOrder, updateOrder, cancelOrder', () => {
    it('given a student of the school, then the order is created; invalid input is a list of UserErrors', async () => {
      const made = await ok(a.admin, CREATE, { input: { studentId: String(studentA.id), kind: 2, period: 1 } }, 'createOrder');
      expect(made.order).toMatchObject({ studentId: String(studentA.id), status: 'initiated', kind: 2, period: 1, itemIds: [], invoiceIds: [] });
      const bad = await a.admin.graphql(CREATE, { input: { studentId: String(studentB.id), kind: 7, period: -1, status: 'canceled' } });
      expect(bad.errors).toBeUndefined();
      expect(bad.data.createOrder.order).toBeNull();
      expect(bad.data.createOrder.errors.map((e) => [e.field.join('.'), e.code]).sort()).toEqual([
        ['kind', 'less_than_or_equal_to'],
        ['period', 'greater_than_or_equal_to'],
        ['status', 'exclusion'],
        ['studentId', 'not_found'],
      ]);
    });

    it('given the lifecycle, then allowed changes apply and refused ones are invalid_transition UserErrors', async () => {
      const { order } = await ok(a.admin, CREATE, { input: { studentId: String(studentA.id) } }, 'createOrder');
      const processing = await ok(a.admin, UPDATE, { id: order.id, input: { status: 'processing' } }, 'updateOrder');
      expect(processing.order.status).toBe('processing');
      const back = await a.admin.graphql(UPDATE, { id: order.id, input: { status: 'initiated' } });
      expect(back.data.updateOrder).toEqual({ order: null, errors: [{ field: ['status'], code: 'invalid_transition', message: 'cannot change from processing to initiated' }] });
      // Nothing to pay (no items): it may be confirmed by hand. Confirmed, it is paid: refunded, not canceled.
      const confirmed = await ok(a.admin, UPDATE, { id: order.id, input: { status: 'confirmed' } }, 'updateOrder');
      expect(confirmed.order).toMatchObject({ status: 'confirmed', confirmedAt: service.clock.now().toISOString() });
      const paid = await a.admin.graphql(CANCEL, { id: order.id });
      expect(paid.data.cancelOrder.errors).toEqual([expect.objectContaining({ field: ['status'], code: 'refund_required' })]);
      const { order: unpaid } = await ok(a.admin, CREATE, { input: { studentId: String(studentA.id) } }, 'createOrder');
      const canceled = await ok(a.admin, CANCEL, { id: unpaid.id }, 'cancelOrder');
      expect(canceled.order).toMatchObject({ status: 'canceled', canceledAt: service.clock.now().toISOString() });
      const again = await a.admin.graphql(CANCEL, { id: unpaid.id });
      expect(again.data.cancelOrder.errors).toEqual([expect.objectContaining({ field: ['status'], code: 'invalid_transition' })]);
      const revive = await a.admin.graphql(UPDATE, { id: unpaid.id, input: { status: 'confirmed' } });
      expect(revive.data.updateOrder.errors[0].code).toBe('invalid_transition');
      // Another school's order: NOT_FOUND, untouched.
      const { order: other } = await ok(a.admin, CREATE, { input: { studentId: String(studentA.id) } }, 'createOrder');
      const foreign = await b.admin.graphql(CANCEL, { id: other.id });
      expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
      const [row] = await service.db.select().from(orders).where(eq(orders.id, Number(other.id)));
      expect(row.status).toBe('initiated');
    });

    it('given a student credential, then it may not create, update or cancel', async () => {
      const student = await service.token('student', a.id, studentA.id);
      const { order } = await ok(a.admin, CREATE, { input: { studentId: String(studentA.id) } }, 'createOrder');
      for (const [query, variables] of [
        [CREATE, { input: { studentId: String(studentA.id) } }],
        [UPDATE, { id: order.id, input: { total: 1 } }],
        [CANCEL, { id: order.id }],
      ] as const) {
        const res = await student.graphql(query, variables);
        expect(res.errors?.[0].extensions.code).toBe('FORBIDDEN');
      }
    });
  });

  describe('order and orders', () => {
    let refs: Awaited<ReturnType<typeof billing>>;
    let imported: ReplyOf<typeof IMPORT>['data']['importOrder']['order'];
    beforeAll(async () => {
      refs = await billing(a, productA.id);
      imported = (await ok(a.admin, IMPORT, { input: importInput(a.id, studentA.id, refs) }, 'importOrder')).order;
    });

    it('given an imported order, then order(id) resolves its items, invoices, payments, student, school, coupon and gateway', async () => {
      const res = await a.admin.graphql(ORDER, { id: imported.id });
      expect(res.errors).toBeUndefined();
      const o = res.data.order;
      expect(o).toMatchObject({ id: imported.id, status: 'confirmed', createdAt: '2024-06-01T09:00:00.000Z', confirmedAt: '2024-06-01T09:00:00.000Z' });
      expect(o.student).toEqual({ id: String(studentA.id), fullName: expect.any(String) });
      expect(o.school).toEqual({ id: String(a.id) });
      expect(o.coupon).toEqual({ id: refs.coupon.id, code: refs.coupon.code });
      expect(o.gatewayCredential).toEqual({ id: refs.gateway.id, gateway: 'pagarme' });
      expect(o.items).toEqual([
        {
          id: o.itemIds[0],
          orderId: o.id,
          quantity: 1,
          paymentOption: { id: refs.option.id, name: 'Full price', price: 10000 },
          couponToken: { id: refs.token.id, token: refs.token.token, coupon: { id: refs.coupon.id } },
        },
      ]);
      expect(o.invoices).toHaveLength(1);
      expect(o.invoices[0].payments.map((p) => [p.invoiceId, p.kind, p.status, p.installments])).toEqual([
        [o.invoiceIds[0], 0, 'failed', 1],
        [o.invoiceIds[0], 0, 'confirmed', 1],
      ]);
    });

    it('given a student credential, then it sees its own orders only, without the gateway credential', async () => {
      const own = await service.token('student', a.id, studentA.id);
      const other = await service.token('student', a.id, studentA2.id);
      const res = await own.graphql(ORDER, { id: imported.id });
      expect(res.errors).toBeUndefined();
      expect(res.data.order.gatewayCredential).toBeNull();
      expect(res.data.order.items).toHaveLength(1);
      const denied = await other.graphql(ORDER, { id: imported.id });
      expect(denied.errors?.[0].extensions.code).toBe('NOT_FOUND');
      const list = await other.graphql(ORDERS, {});
      expect(list.data.orders.nodes.every((n) => n.studentId === String(studentA2.id))).toBe(true);
      const listOwn = await own.graphql(ORDERS, { studentId: String(studentA2.id) });
      expect(listOwn.data.orders.totalCount).toBe(0);
      expect((await b.admin.graphql(ORDER, { id: imported.id })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    });

    it('given filters, then orders lists by status, student and creation time, in pages', async () => {
      const school = await service.school('Filter School');
      const s1 = await person(school.id);
      const s2 = await person(school.id);
      const insert = (studentId: number, status: 'initiated' | 'confirmed' | 'canceled', createdAt: string) =>
        service.db.insert(orders).values({ schoolId: school.id, studentId, status, createdAt: new Date(createdAt) }).returning();
      await insert(s1.id, 'confirmed', '2024-01-10T00:00:00Z');
      await insert(s1.id, 'initiated', '2024-02-10T00:00:00Z');
      await insert(s2.id, 'confirmed', '2024-03-10T00:00:00Z');
      await insert(s2.id, 'canceled', '2024-04-10T00:00:00Z');
      const q = async (variables: Record<string, unknown>) => {
        const res = await school.admin.graphql(ORDERS, variables);
        expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
        return res.data.orders;
      };
      expect((await q({})).totalCount).toBe(4);
      expect((await q({ status: 'confirmed' })).nodes.map((n) => n.studentId)).toEqual([String(s1.id), String(s2.id)]);
      expect((await q({ studentId: String(s2.id) })).totalCount).toBe(2);
      const window = await q({ createdFrom: '2024-02-10T00:00:00Z', createdTo: '2024-04-10T00:00:00Z' });
      expect(window.nodes.map((n) => n.createdAt)).toEqual(['2024-02-10T00:00:00.000Z', '2024-03-10T00:00:00.000Z']);
      expect((await q({ status: 'confirmed', studentId: String(s1.id), createdFrom: '2024-01-01T00:00:00Z' })).totalCount).toBe(1);
      const first = await q({ first: 3 });
      expect(first.nodes).toHaveLength(3);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const rest = await q({ first: 3, after: first.pageInfo.endCursor });
      expect(rest.nodes).toHaveLength(1);
      expect((await q({ page: 2, perPage: 3 })).nodes).toHaveLength(1);
      const bad = await school.admin.graphql(ORDERS, { studentId: 'abc' });
      expect(bad.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    });
  });

  describe('importOrder', () => {
    let refs: Awaited<ReturnType<typeof billing>>;
    beforeAll(async () => {
      refs = await billing(a, productA.id);
    });

    it('given a valid tree, then the order comes back with its rows; the same uuid again returns it and creates nothing', async () => {
      const input = importInput(a.id, studentA.id, refs);
      const first = await ok(a.admin, IMPORT, { input }, 'importOrder');
      expect(first.order).toMatchObject({ created: true, dryRun: false, uuid: input.uuid, status: 'confirmed', student: { id: String(studentA.id) }, school: { id: String(a.id) } });
      expect(first.order.items).toEqual([{ id: first.order.itemIds[0], orderId: first.order.id, quantity: 1, total: 10000, paymentOption: { id: refs.option.id, name: 'Full price' }, couponToken: { id: refs.token.id } }]);
      expect(first.order.invoices[0].payments).toHaveLength(2);
      const before = [await count(orders), await count(orderItems), await count(invoices), await count(payments)];
      const again = await ok(a.admin, IMPORT, { input: { ...input, total: 1 } }, 'importOrder');
      expect(again.order).toMatchObject({ id: first.order.id, created: false, total: 10000, itemIds: first.order.itemIds, invoiceIds: first.order.invoiceIds });
      expect(again.order.invoices[0].payments.map((p) => p.id)).toEqual(first.order.invoices[0].payments.map((p) => p.id));
      expect([await count(orders), await count(orderItems), await count(invoices), await count(payments)]).toEqual(before);
      const [token] = await service.db.select().from(couponTokens).where(eq(couponTokens.id, Number(refs.token.id)));
      expect(token.usedAt?.toISOString()).toBe('2024-06-01T09:00:00.000Z');
    });

    it('given a dry run, then the order as it would be (ids null, nested children) and nothing written', async () => {
      const before = [await count(orders), await count(orderItems), await count(invoices), await count(payments)];
      const input = importInput(a.id, studentA.id, refs);
      const res = await ok(a.admin, IMPORT, { input, dryRun: true }, 'importOrder');
      expect(res.order).toMatchObject({ id: null, created: false, dryRun: true, itemIds: [], invoiceIds: [], student: { id: String(studentA.id) } });
      expect(res.order.items).toEqual([{ id: null, orderId: null, quantity: 1, total: 10000, paymentOption: { id: refs.option.id, name: 'Full price' }, couponToken: { id: input.itemsAttributes[0].couponTokenId } }]);
      expect(res.order.invoices).toEqual([
        {
          id: null,
          orderId: null,
          occurrence: 1,
          status: 'paid',
          payments: [
            { id: null, invoiceId: null, kind: 0, status: 'failed', installments: 1 },
            { id: null, invoiceId: null, kind: 0, status: 'confirmed', installments: 1 },
          ],
        },
      ]);
      expect([await count(orders), await count(orderItems), await count(invoices), await count(payments)]).toEqual(before);
    });

    it('given invalid parts, then UserErrors with nested paths, no order, and nothing written', async () => {
      const before = [await count(orders), await count(orderItems), await count(invoices), await count(payments)];
      const input = importInput(a.id, studentA.id, refs, (o) => {
        o.invoicesAttributes[0].paymentsAttributes[1].status = null;
        o.invoicesAttributes[0].paymentsAttributes[0].schoolId = String(b.id);
        o.itemsAttributes[0].paymentOptionId = '99999999';
      });
      for (const dryRun of [false, true]) {
        const res = await a.admin.graphql(IMPORT, { input, dryRun });
        expect(res.errors).toBeUndefined();
        expect(res.data.importOrder.order).toBeNull();
        expect(res.data.importOrder.errors.map((e) => `${e.field.join('.')}:${e.code}`).sort()).toEqual([
          'invoicesAttributes.0.paymentsAttributes.0.schoolId:invalid',
          'invoicesAttributes.0.paymentsAttributes.1.status:blank',
          'itemsAttributes.0.paymentOptionId:not_found',
        ]);
      }
      expect([await count(orders), await count(orderItems), await count(invoices), await count(payments)]).toEqual(before);
    });

    it('given an unknown status or a kind that is not a number, then a GraphQL validation error (BAD_USER_INPUT)', async () => {
      const status = await a.admin.graphql(IMPORT, { input: importInput(a.id, studentA.id, refs, (o) => (o.invoicesAttributes[0].status = 'settled')) });
      expect(status.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      const kind = await a.admin.graphql(IMPORT, { input: importInput(a.id, studentA.id, refs, (o) => (o.invoicesAttributes[0].paymentsAttributes[0].kind = 'card')) });
      expect(kind.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
      const literal = await a.admin.graphql(`mutation { importOrder(input: { schoolId: "${a.id}", studentId: "${studentA.id}", invoicesAttributes: [{ schoolId: "${a.id}", amount: 1, occurrence: 1, status: paid, paymentsAttributes: [{ schoolId: "${a.id}", kind: "3", status: confirmed }] }] }, dryRun: true) { order { invoices { payments { kind } } } errors { field code message } } }`);
      expect(literal.errors).toBeUndefined();
      expect(literal.data.importOrder.order.invoices[0].payments[0].kind).toBe(3);
    });
  });

  describe('batching', () => {
    const NESTED = graphql(`query ($first: Int) { orders(first: $first) { nodes {
      id items { id paymentOption { id } } invoices { id payments { id } } student { id }
    } } }`);

    it('given many orders with items, invoices and payments, then the nested query costs the same statements as for few', async () => {
      const school = await service.school('Batching Orders');
      const [product] = await service.db.insert(schoolProducts).values({ schoolId: school.id, title: 'P' }).returning();
      const refs = await billing(school, product.id);
      const students = await Promise.all([1, 2, 3].map(() => person(school.id)));
      const importSome = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const input = importInput(school.id, students[i % 3].id, refs, (o) => {
            o.itemsAttributes.push({ ...o.itemsAttributes[0], couponTokenId: refs.tokens[refs.used++], quantity: 2, total: 20000, amountToPay: 17000 });
            o.invoicesAttributes.push({ ...o.invoicesAttributes[0], occurrence: 2 });
          });
          await ok(school.admin, IMPORT, { input }, 'importOrder');
        }
      };
      await importSome(2);
      let few!: ReplyOf<typeof NESTED>;
      const fewCount = await service.countStatements(async () => {
        few = await school.admin.graphql(NESTED, { first: 100 });
      });
      expect(few.errors).toBeUndefined();
      expect(few.data.orders.nodes).toHaveLength(2);

      await importSome(18);
      let many!: ReplyOf<typeof NESTED>;
      const manyCount = await service.countStatements(async () => {
        many = await school.admin.graphql(NESTED, { first: 100 });
      });
      expect(many.errors).toBeUndefined();
      const nodes = many.data.orders.nodes;
      expect(nodes).toHaveLength(20);
      expect(nodes.flatMap((o) => o.items)).toHaveLength(40);
      expect(nodes.flatMap((o) => o.invoices.flatMap((i) => i.payments))).toHaveLength(80);
      expect(nodes.every((o) => o.student && o.items.every((i) => i.paymentOption?.id === refs.option.id))).toBe(true);
      expect(manyCount).toBe(fewCount);
      // credential, orders page, items, payment options, invoices, payments, students.
      expect(manyCount).toBeLessThanOrEqual(7);
    });
  });
});
