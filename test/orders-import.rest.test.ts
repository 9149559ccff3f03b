import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { couponTokens, invoices, orderItems, orders, payments } from '../src/modules/orders/order.table.js';
import { type Hash, type ImportRefs as Fixture, orderFixtures } from './support/orders.fixtures.js';
import { type Client, type Reply, type Service, type TestSchool } from './support/service.js';
import { expectFieldError } from './support/rest-assertions.js';
import { unique } from './support/rows.js';
import { twoSchools } from './support/world.js';

/**
 * POST /orders/import: an order with items, invoices and payments in one transaction, every rule of
 * the spec's import body, idempotency on uuid, dry runs, both body encodings. Decisions:
 * src/modules/orders/order-import.resolver.ts.
 */

/** Lists of hashes as index-keyed hashes (`x[0][y]=`), as form and multipart clients send them. */
const indexed = (v: unknown): unknown =>
  Array.isArray(v)
    ? Object.fromEntries(v.map((item, i) => [String(i), indexed(item)]))
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, indexed(x)]))
      : v;

/** The import body's order, typed where the tests reach into it (a test sending another shape casts to Hash). */
type ImportOrder = Hash & { uuid: string; items_attributes: Hash[]; invoices_attributes: (Hash & { payments_attributes: Hash[] })[] };

describe('POST /orders/import', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let fa: Fixture;
  let fb: Fixture;

  const { importRefs: fixture, countRows } = orderFixtures(() => service);

  /** A valid import of an already-paid order: 2 items, 2 invoices, 3 payments, original times. */
  function importBody(f: Fixture, change: (order: ImportOrder) => void = () => {}) {
    const s = f.schoolId;
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
        { school_id: s, payment_option_id: f.options[0].id, coupon_token_id: f.tokens[0].id, quantity: 1, total: 10000, amount_to_pay: 9000 },
        {
          school_id: s,
          payment_option_id: f.options[1].id,
          coupon_token_id: f.tokens[1].id,
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
    const n = countRows;
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
    const [order] = await service.db.select().from(orders).where(eq(orders.id, orderId));
    const items = await service.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.id);
    const invs = await service.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.occurrence);
    const pays = invs.length
      ? await service.db.select().from(payments).where(inArray(payments.invoiceId, invs.map((i) => i.id))).orderBy(payments.id)
      : [];
    return { order, items, invoices: invs, payments: pays };
  }

  twoSchools('Alpha Import', 'Beta Import', async (w) => {
    ({ service, school: a, other: b } = w);
    fa = await fixture(a.id, 80);
    fb = await fixture(b.id);
  });

  describe('a valid import', () => {
    it('given a JSON body with items, invoices and payments, then 201 with the order, a Location, every row and the original times', async () => {
      const body = importBody(fa);
      const before = await counts();
      const res = await a.admin.post('/orders/import', body);
      expect(res.status, res.text).toBe(201);
      const o = res.body;
      expect(res.headers.location).toBe(`/orders/${o.id}`);
      expect(o).toMatchObject({
        school_id: a.id,
        student_id: fa.student.id,
        uuid: body.order.uuid,
        status: 'confirmed',
        kind: 0,
        period: 0,
        amount_to_pay: 18000,
        total: 20000,
        created_at: '2024-03-01T10:00:00.000Z',
        confirmed_at: '2024-03-01T10:05:00.000Z',
        next_invoice_at: '2024-04-01T10:00:00.000Z',
        canceled_at: null,
        gateway_reference: 'or_abc',
        test: true,
        success: true,
        created: true,
        dry_run: false,
      });
      expect(o.item_ids).toHaveLength(2);
      expect(o.invoice_ids).toHaveLength(2);

      const rows = await stored(o.id);
      expect(rows.items.map((i) => i.id)).toEqual(o.item_ids);
      expect(rows.invoices.map((i) => i.id)).toEqual(o.invoice_ids);
      expect(rows.items.map((i) => [i.paymentOptionId, i.couponTokenId, i.quantity, i.total, i.amountToPay, i.createdAt.toISOString()])).toEqual([
        [fa.options[0].id, fa.tokens[0].id, 1, 10000, 9000, '2024-03-01T10:00:00.000Z'],
        [fa.options[1].id, fa.tokens[1].id, 2, 10000, 9000, '2024-03-01T10:01:00.000Z'],
      ]);
      expect(rows.invoices.map((i) => [i.occurrence, i.status, i.amount, i.uuid, i.nextChargeAt?.toISOString() ?? null, i.createdAt.toISOString()])).toEqual([
        [1, 'paid', 9000, body.order.invoices_attributes[0].uuid, '2024-04-01T10:00:00.000Z', '2024-03-01T10:00:00.000Z'],
        [2, 'open', 9000, null, null, '2024-03-01T10:00:00.000Z'],
      ]);
      expect(rows.payments.map((p) => [p.invoiceId, p.kind, p.status, p.installments, p.createdAt.toISOString()])).toEqual([
        [rows.invoices[0].id, 0, 'failed', 2, '2024-03-01T10:00:00.000Z'],
        [rows.invoices[0].id, 0, 'confirmed', 2, '2024-03-01T10:04:00.000Z'],
        [rows.invoices[1].id, 1, 'waiting_boleto', null, '2024-03-01T10:00:00.000Z'],
      ]);
      expect(rows.payments[0]).toMatchObject({ cardholder: 'ANA S', uuid: body.order.invoices_attributes[0].payments_attributes[0].uuid, schoolId: a.id });
      expect(rows.payments[2]).toMatchObject({ boletoCode: '23790.12345', link: 'https://pay.example/b/1' });

      // The coupon tokens the items used are marked used at the order's time.
      const tokens = await service.db.select().from(couponTokens).where(inArray(couponTokens.id, [fa.tokens[0].id, fa.tokens[1].id]));
      expect(tokens.map((t) => t.usedAt?.toISOString())).toEqual(['2024-03-01T10:00:00.000Z', '2024-03-01T10:00:00.000Z']);

      const after = await counts();
      expect(after).toEqual({ ...before, orders: before.orders + 1, items: before.items + 2, invoices: before.invoices + 2, payments: before.payments + 3, usedTokens: before.usedTokens + 2 });
      // created_at given: callbacks skipped, no event.
      expect(after.events).toBe(before.events);

      const shown = await a.admin.get(`/orders/${o.id}`);
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ id: o.id, item_ids: o.item_ids, invoice_ids: o.invoice_ids, created_at: '2024-03-01T10:00:00.000Z' });
    });

    it('given no created_at, then order.imported is emitted and a confirmed order gets confirmed_at now', async () => {
      const body = importBody(fa, (o) => {
        delete o.created_at;
        delete o.confirmed_at;
        (o as Hash).uuid = null;
      });
      const res = await a.admin.post('/orders/import', body);
      expect(res.status, res.text).toBe(201);
      expect(res.body.confirmed_at).toBe(service.clock.now().toISOString());
      expect(res.body.uuid).toBeNull();
      const events = await service.db
        .select()
        .from(domainEvents)
        .where(and(eq(domainEvents.subjectType, 'Order'), eq(domainEvents.subjectId, res.body.id)));
      expect(events.map((e) => e.name)).toEqual(['order.imported']);
      expect(events[0].payload).toMatchObject({ status: 'confirmed', items: 2, invoices: 2, payments: 3 });
    });

    it('given a form-urlencoded body with bracket names, then 201 and the nested rows, with typed values', async () => {
      const uuid = unique('form');
      const s = a.id;
      const fields: [string, string | number][] = [
        ['order[school_id]', s],
        ['order[student_id]', fa.student.id],
        ['order[uuid]', uuid],
        ['order[kind]', '1'],
        ['order[period]', '1'],
        ['order[status]', 'confirmed'],
        ['order[test]', 'false'],
        ['order[created_at]', '2023-05-05T05:05:05Z'],
        ['order[items_attributes][0][school_id]', s],
        ['order[items_attributes][0][payment_option_id]', fa.options[0].id],
        ['order[items_attributes][0][coupon_token_id]', fa.tokens[2].id],
        ['order[items_attributes][0][quantity]', '3'],
        ['order[items_attributes][0][total]', '30000'],
        ['order[invoices_attributes][0][school_id]', s],
        ['order[invoices_attributes][0][amount]', '10000'],
        ['order[invoices_attributes][0][occurrence]', '1'],
        ['order[invoices_attributes][0][status]', 'paid'],
        ['order[invoices_attributes][0][payments_attributes][0][school_id]', s],
        ['order[invoices_attributes][0][payments_attributes][0][kind]', '2'],
        ['order[invoices_attributes][0][payments_attributes][0][status]', 'failed'],
        ['order[invoices_attributes][0][payments_attributes][1][school_id]', s],
        ['order[invoices_attributes][0][payments_attributes][1][kind]', '2'],
        ['order[invoices_attributes][0][payments_attributes][1][status]', 'confirmed'],
        ['order[invoices_attributes][0][payments_attributes][1][success]', 'true'],
      ];
      const raw = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
      const res = await a.admin.post('/orders/import', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ uuid, kind: 1, period: 1, status: 'confirmed', test: false, created_at: '2023-05-05T05:05:05.000Z' });
      const rows = await stored(res.body.id);
      expect(rows.items.map((i) => [i.quantity, i.total])).toEqual([[3, 30000]]);
      expect(rows.payments.map((p) => [p.kind, p.status, p.success])).toEqual([
        [2, 'failed', false],
        [2, 'confirmed', true],
      ]);
    });

    it('given a multipart body and index-keyed hashes in JSON, then both import', async () => {
      const multipart = indexed(importBody(fa));
      const res = await a.admin.post('/orders/import', multipart, { encoding: 'multipart' });
      expect(res.status, res.text).toBe(201);
      expect((await stored(res.body.id)).payments).toHaveLength(3);

      const keyed = importBody(fa, (o) => {
        // Lists sent as index-keyed hashes.
        (o as Hash).items_attributes = { '0': o.items_attributes[0], '1': o.items_attributes[1] };
        (o as Hash).invoices_attributes = { '0': { ...o.invoices_attributes[0], payments_attributes: { '0': o.invoices_attributes[0].payments_attributes[0] } } };
      });
      const res2 = await a.admin.post('/orders/import', keyed);
      expect(res2.status, res2.text).toBe(201);
      const rows = await stored(res2.body.id);
      expect([rows.items.length, rows.invoices.length, rows.payments.length]).toEqual([2, 1, 1]);
    });

    it('given an order without items or invoices (kind 3, free), then 201 with empty id lists', async () => {
      const res = await a.admin.post('/orders/import', importBody(fa, (o) => {
        o.kind = 3;
        o.items_attributes = [];
        delete (o as Hash).invoices_attributes;
      }));
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ kind: 3, item_ids: [], invoice_ids: [] });
    });

    it('given payment kinds as "2", 2 and "pix", then each is stored as 2', async () => {
      const res = await a.admin.post('/orders/import', importBody(fa, (o) => {
        o.invoices_attributes[0].payments_attributes = ['2', 2, 'pix'].map((kind) => ({ school_id: a.id, kind, status: 'confirmed' }));
      }));
      expect(res.status, res.text).toBe(201);
      expect((await stored(res.body.id)).payments.map((p) => p.kind)).toEqual([2, 2, 2, 1]);
    });

    it('given a credit-card payment without installments on a subscription (kind 1) or a boleto, then installments are not required', async () => {
      const res = await a.admin.post('/orders/import', importBody(fa, (o) => {
        o.kind = 1;
        delete o.invoices_attributes[0].payments_attributes[0].installments;
      }));
      expect(res.status, res.text).toBe(201);
    });

    it('given a canceled order, then canceled_at takes the order’s created_at', async () => {
      const res = await a.admin.post('/orders/import', importBody(fa, (o) => (o.status = 'canceled')));
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ status: 'canceled', canceled_at: '2024-03-01T10:00:00.000Z' });
    });
  });

  describe('the rules of the import body', () => {
    const cases: [string, (o: ImportOrder, f: { a: Fixture; b: Fixture }) => void, string, string][] = [
      ['no student_id', (o) => delete o.student_id, 'student_id', 'blank'],
      ['no school_id', (o) => delete o.school_id, 'school_id', 'blank'],
      ['the school_id of another school', (o, f) => (o.school_id = f.b.schoolId), 'school_id', 'invalid'],
      ['kind 4', (o) => (o.kind = 4), 'kind', 'less_than_or_equal_to'],
      ['kind -1', (o) => (o.kind = -1), 'kind', 'greater_than_or_equal_to'],
      ['period 5', (o) => (o.period = 5), 'period', 'less_than_or_equal_to'],
      ['a negative total', (o) => (o.total = -1), 'total', 'greater_than_or_equal_to'],
      ['a student of another school', (o, f) => (o.student_id = f.b.student.id), 'student_id', 'not_found'],
      ['a gateway credential of another school', (o, f) => (o.gateway_credential_id = f.b.gateway.id), 'gateway_credential_id', 'not_found'],
      ['a coupon of another school', (o, f) => (o.coupon_id = f.b.coupon.id), 'coupon_id', 'not_found'],
      ['an item without school_id', (o) => delete o.items_attributes[1].school_id, 'items_attributes[1].school_id', 'blank'],
      ['an item of another school', (o, f) => (o.items_attributes[1].school_id = f.b.schoolId), 'items_attributes[1].school_id', 'invalid'],
      ['an item without payment_option_id', (o) => delete o.items_attributes[0].payment_option_id, 'items_attributes[0].payment_option_id', 'blank'],
      ['an item without coupon_token_id', (o) => delete o.items_attributes[0].coupon_token_id, 'items_attributes[0].coupon_token_id', 'blank'],
      ['an item without quantity', (o) => delete o.items_attributes[0].quantity, 'items_attributes[0].quantity', 'blank'],
      ['an item without total', (o) => delete o.items_attributes[1].total, 'items_attributes[1].total', 'blank'],
      ['an item of quantity 0', (o) => (o.items_attributes[0].quantity = 0), 'items_attributes[0].quantity', 'greater_than_or_equal_to'],
      ['a payment option of another school', (o, f) => (o.items_attributes[1].payment_option_id = f.b.options[0].id), 'items_attributes[1].payment_option_id', 'not_found'],
      ['a payment option that does not exist', (o) => (o.items_attributes[0].payment_option_id = 99999999), 'items_attributes[0].payment_option_id', 'not_found'],
      ['a payment option id "abc"', (o) => (o.items_attributes[0].payment_option_id = 'abc'), 'items_attributes[0].payment_option_id', 'not_found'],
      ['a coupon token of another school', (o, f) => (o.items_attributes[0].coupon_token_id = f.b.tokens[0].id), 'items_attributes[0].coupon_token_id', 'not_found'],
      ['an invoice without school_id', (o) => delete o.invoices_attributes[1].school_id, 'invoices_attributes[1].school_id', 'blank'],
      ['an invoice without amount', (o) => delete o.invoices_attributes[0].amount, 'invoices_attributes[0].amount', 'blank'],
      ['an invoice without occurrence', (o) => delete o.invoices_attributes[0].occurrence, 'invoices_attributes[0].occurrence', 'blank'],
      ['an invoice without status', (o) => delete o.invoices_attributes[1].status, 'invoices_attributes[1].status', 'blank'],
      ['an invoice of a negative amount', (o) => (o.invoices_attributes[0].amount = -100), 'invoices_attributes[0].amount', 'greater_than_or_equal_to'],
      ['a payment without school_id', (o) => delete o.invoices_attributes[0].payments_attributes[1].school_id, 'invoices_attributes[0].payments_attributes[1].school_id', 'blank'],
      [
        'a payment of another school',
        (o, f) => (o.invoices_attributes[0].payments_attributes[1].school_id = f.b.schoolId),
        'invoices_attributes[0].payments_attributes[1].school_id',
        'invalid',
      ],
      ['a payment without kind', (o) => delete o.invoices_attributes[1].payments_attributes[0].kind, 'invoices_attributes[1].payments_attributes[0].kind', 'blank'],
      ['a payment without status', (o) => delete o.invoices_attributes[0].payments_attributes[1].status, 'invoices_attributes[0].payments_attributes[1].status', 'blank'],
      ['a payment of kind 4', (o) => (o.invoices_attributes[0].payments_attributes[1].kind = 4), 'invoices_attributes[0].payments_attributes[1].kind', 'less_than_or_equal_to'],
      ['a payment of kind "7"', (o) => (o.invoices_attributes[1].payments_attributes[0].kind = '7'), 'invoices_attributes[1].payments_attributes[0].kind', 'less_than_or_equal_to'],
      ['a payment of kind -1', (o) => (o.invoices_attributes[1].payments_attributes[0].kind = -1), 'invoices_attributes[1].payments_attributes[0].kind', 'greater_than_or_equal_to'],
      [
        'a credit-card payment of a common order without installments',
        (o) => delete o.invoices_attributes[0].payments_attributes[1].installments,
        'invoices_attributes[0].payments_attributes[1].installments',
        'blank',
      ],
      [
        'a credit-card payment of a common order (kind omitted) without installments',
        (o) => {
          delete o.kind;
          o.invoices_attributes[0].payments_attributes[0].installments = null;
        },
        'invoices_attributes[0].payments_attributes[0].installments',
        'blank',
      ],
      ['installments 0', (o) => (o.invoices_attributes[0].payments_attributes[0].installments = 0), 'invoices_attributes[0].payments_attributes[0].installments', 'greater_than_or_equal_to'],
    ];

    it.each(cases)('given %s, then 422 naming the nested path and nothing is written', async (_name, change, field, code) => {
      const body = importBody(fa, (o) => change(o, { a: fa, b: fb }));
      const before = await counts();
      const res = await a.admin.post('/orders/import', body);
      expectFieldError(res, 422, field, code);
      expect(await counts()).toEqual(before);
    });

    it('given several violations at several levels, then every one is reported at once', async () => {
      const res = await a.admin.post('/orders/import', importBody(fa, (o) => {
        delete o.student_id;
        o.period = 9;
        o.items_attributes[1].quantity = 0;
        o.invoices_attributes[1].payments_attributes[0].kind = 5;
      }));
      expect(res.status, res.text).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['invoices_attributes[1].payments_attributes[0].kind', 'items_attributes[1].quantity', 'period', 'student_id']);
    });

    it('given an invoice or payment uuid already stored, or given twice, then 409 taken at its path and nothing is written', async () => {
      const first = importBody(fa);
      expect((await a.admin.post('/orders/import', first)).status).toBe(201);
      const before = await counts();
      const reuseInvoice = importBody(fa, (o) => (o.invoices_attributes[1].uuid = first.order.invoices_attributes[0].uuid));
      expectFieldError(await a.admin.post('/orders/import', reuseInvoice), 409, 'invoices_attributes[1].uuid', 'taken');
      const reusePayment = importBody(fa, (o) => (o.invoices_attributes[1].payments_attributes[0].uuid = first.order.invoices_attributes[0].payments_attributes[1].uuid));
      expectFieldError(await a.admin.post('/orders/import', reusePayment), 409, 'invoices_attributes[1].payments_attributes[0].uuid', 'taken');
      const twice = importBody(fa, (o) => (o.invoices_attributes[0].payments_attributes[1].uuid = o.invoices_attributes[0].payments_attributes[0].uuid));
      expectFieldError(await a.admin.post('/orders/import', twice), 409, 'invoices_attributes[0].payments_attributes[1].uuid', 'taken');
      expect(await counts()).toEqual(before);
      // Another school may reuse the uuids.
      const other = importBody(fb, (o) => {
        o.invoices_attributes[0].uuid = first.order.invoices_attributes[0].uuid;
      });
      expect((await b.admin.post('/orders/import', other)).status).toBe(201);
    });

    it('given an unknown payment status deep in the tree, then 422 inclusion naming its path (an enumeration is a closed list), nothing written', async () => {
      const before = await counts();
      const res = await a.admin.post('/orders/import', importBody(fa, (o) => (o.invoices_attributes[0].payments_attributes[1].status = 'paid')));
      expectFieldError(res, 422, 'invoices_attributes[0].payments_attributes[1].status', 'inclusion');
      for (const [change, field] of [
        [(o: ImportOrder) => (o.status = 'done'), 'status'],
        [(o: ImportOrder) => (o.invoices_attributes[1].status = 'settled'), 'invoices_attributes[1].status'],
      ] as const) {
        expectFieldError(await a.admin.post('/orders/import', importBody(fa, change)), 422, field, 'inclusion');
      }
      expect(await counts()).toEqual(before);
    });

    it.each([
      ['bad JSON', undefined, { raw: '{"order": [', headers: { 'content-type': 'application/json' } }, 'base'],
      ['no order key', { items_attributes: [] }, {}, 'order'],
      ['order as a list', { order: [1, 2] }, {}, 'order'],
      ['items_attributes as a string', { order: { school_id: 1, items_attributes: 'x' } }, {}, 'items_attributes'],
      ['a payment kind "card"', null, {}, 'invoices_attributes[0].payments_attributes[0].kind'],
      ['an item quantity "one"', null, {}, 'items_attributes[0].quantity'],
      ['a malformed created_at', null, {}, 'created_at'],
    ])('given %s, then 400 and nothing is written', async (name, body, options, field) => {
      let sent: unknown = body;
      if (name === 'a payment kind "card"') sent = importBody(fa, (o) => (o.invoices_attributes[0].payments_attributes[0].kind = 'card'));
      if (name === 'an item quantity "one"') sent = importBody(fa, (o) => (o.items_attributes[0].quantity = 'one'));
      if (name === 'a malformed created_at') sent = importBody(fa, (o) => (o.created_at = 'last year'));
      const before = await counts();
      const res = await a.admin.post('/orders/import', sent, options as Parameters<Client['request']>[3]);
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body.errors)).toContain(field);
      expect(await counts()).toEqual(before);
    });
  });

  describe('all or nothing', () => {
    it('given an invalid payment deep in the tree, then no order, item, invoice, payment or event is left and no token is marked used', async () => {
      const body = importBody(fa, (o) => {
        delete o.created_at; // an event would be emitted on success
        o.invoices_attributes.push({
          school_id: a.id,
          amount: 100,
          occurrence: 3,
          status: 'paid',
          payments_attributes: [
            { school_id: a.id, kind: 2, status: 'confirmed' },
            { school_id: a.id, kind: 9, status: 'confirmed' },
          ],
        });
      });
      const before = await counts();
      const res = await a.admin.post('/orders/import', body);
      expectFieldError(res, 422, 'invoices_attributes[2].payments_attributes[1].kind', 'less_than_or_equal_to');
      expect(Object.keys(res.body.errors)).toEqual(['invoices_attributes[2].payments_attributes[1].kind']);
      expect(await counts()).toEqual(before);
      expect(await service.db.select().from(orders).where(eq(orders.uuid, body.order.uuid))).toEqual([]);
      const tokens = await service.db.select().from(couponTokens).where(inArray(couponTokens.id, [fa.tokens[0].id, fa.tokens[1].id]));
      expect(tokens).toHaveLength(2);

      // The same body with the payment fixed imports whole.
      body.order.invoices_attributes[2].payments_attributes[1].kind = 3;
      const fixed = await a.admin.post('/orders/import', body);
      expect(fixed.status, fixed.text).toBe(201);
      const after = await counts();
      // Events: order.imported, and invoice.paid / payment.confirmed or refunded for each such row not given its own created_at (history).
      type Sent = { status: string; created_at?: string };
      const invoicesSent = body.order.invoices_attributes as (Sent & { payments_attributes: Sent[] })[];
      const paidEvents = invoicesSent.filter((i) => i.status === 'paid' && !i.created_at).length;
      const paymentEvents = invoicesSent.flatMap((i) => i.payments_attributes).filter((p) => (p.status === 'confirmed' || p.status === 'refunded') && !p.created_at).length;
      expect([after.orders - before.orders, after.items - before.items, after.invoices - before.invoices, after.payments - before.payments, after.events - before.events]).toEqual([
        1, 2, 3, 5, 1 + paidEvents + paymentEvents,
      ]);
    });
  });

  describe('idempotency on uuid', () => {
    it('given an order already imported, when the same uuid is imported again, then the first order is returned and nothing is created', async () => {
      const body = importBody(fa);
      const first = await a.admin.post('/orders/import', body);
      expect(first.status, first.text).toBe(201);
      const before = await counts();
      // Even with different contents (and uuids of invoices the first import stored).
      const again = await a.admin.post('/orders/import', importBody(fa, (o) => {
        o.uuid = body.order.uuid;
        o.total = 1;
        o.invoices_attributes = body.order.invoices_attributes;
      }));
      expect([200, 201]).toContain(again.status);
      expect(again.body).toMatchObject({ id: first.body.id, total: 20000, created: false, dry_run: false, item_ids: first.body.item_ids, invoice_ids: first.body.invoice_ids });
      expect(await counts()).toEqual(before);
      // A uuid with surrounding spaces is the same uuid.
      const spaced = await a.admin.post('/orders/import', importBody(fa, (o) => (o.uuid = ` ${body.order.uuid} `)));
      expect(spaced.body.id).toBe(first.body.id);
      expect(await counts()).toEqual(before);
    });

    // Needs the router to reply 200 when the payload says nothing was created: see the report
    // (proposed `Route.created`). Flip to `it` once the router has it.
    it('given an order already imported, when the same uuid is imported again, then the reply is 200 (not 201)', async () => {
      const body = importBody(fa);
      expect((await a.admin.post('/orders/import', body)).status).toBe(201);
      const again = await a.admin.post('/orders/import', body);
      expect(again.status).toBe(200);
      expect(again.headers.location).toBeUndefined();
    });

    it("given another school's uuid, then it is a new order in this school", async () => {
      const body = importBody(fb);
      const theirs = await b.admin.post('/orders/import', body);
      expect(theirs.status).toBe(201);
      const ours = await a.admin.post('/orders/import', importBody(fa, (o) => (o.uuid = body.order.uuid)));
      expect(ours.status).toBe(201);
      expect(ours.body.id).not.toBe(theirs.body.id);
      expect(ours.body.school_id).toBe(a.id);
    });
  });

  describe('dry run', () => {
    it.each(['/orders/import?dry_run=true', '/orders/import?dry_run=1', '/v1/orders/import.json?dry_run=true'])(
      'given %s and a valid body, then 200 with the order as it would be (id null) and nothing is written',
      async (url) => {
        const body = importBody(fa, (o) => delete o.created_at);
        const before = await counts();
        const res = await a.admin.post(url, body);
        expect(res.status, res.text).toBe(200);
        expect(res.headers.location).toBeUndefined();
        expect(res.body).toMatchObject({
          id: null,
          uuid: body.order.uuid,
          status: 'confirmed',
          total: 20000,
          student_id: fa.student.id,
          created: false,
          dry_run: true,
          item_ids: [],
          invoice_ids: [],
          confirmed_at: '2024-03-01T10:05:00.000Z',
          created_at: service.clock.now().toISOString(),
        });
        expect(await counts()).toEqual(before);
        expect(await service.db.select().from(orders).where(eq(orders.uuid, body.order.uuid))).toEqual([]);
      },
    );

    it('given dry_run=true in the body (JSON or form), then nothing is written and the order comes back with id null', async () => {
      const before = await counts();
      const json = await a.admin.post('/orders/import', { ...importBody(fa), dry_run: true });
      expect([200, 201], json.text).toContain(json.status);
      expect(json.body).toMatchObject({ id: null, dry_run: true, created: false });
      const form = await a.admin.post('/orders/import', { ...importBody(fa, (o) => {
        (o as Hash).items_attributes = { '0': o.items_attributes[0] };
        (o as Hash).invoices_attributes = {};
      }), dry_run: 'true' }, { encoding: 'form' });
      expect([200, 201], form.text).toContain(form.status);
      expect(form.body).toMatchObject({ id: null, dry_run: true });
      expect(await counts()).toEqual(before);
    });

    // Needs the router change of the report (a dry run named in the body is not a create).
    it('given dry_run=true in the body, then the reply is 200 without a Location', async () => {
      const res = await a.admin.post('/orders/import', { ...importBody(fa), dry_run: true });
      expect(res.status).toBe(200);
      expect(res.headers.location).toBeUndefined();
    });

    it('given an invalid body, then the errors (422) and nothing is written', async () => {
      const before = await counts();
      const res = await a.admin.post('/orders/import?dry_run=true', importBody(fa, (o) => (o.invoices_attributes[0].payments_attributes[1].kind = 8)));
      expectFieldError(res, 422, 'invoices_attributes[0].payments_attributes[1].kind', 'less_than_or_equal_to');
      expect(await counts()).toEqual(before);
    });

    it('given dry_run=false, then the import happens', async () => {
      const res = await a.admin.post('/orders/import?dry_run=false', importBody(fa));
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ created: true, dry_run: false });
      expect(typeof res.body.id).toBe('number');
    });
  });

  describe('credentials', () => {
    it('given no credential, a wrong token or a student, then 401, 401, 403 and nothing is written', async () => {
      const before = await counts();
      expectFieldError(await service.anonymous.post('/orders/import', importBody(fa)), 401, 'base', 'unauthenticated');
      expectFieldError(await service.client('lp_admin_nope').post('/orders/import', importBody(fa)), 401, 'base', 'unauthenticated');
      const student = await service.token('student', a.id, fa.student.id);
      expectFieldError(await student.post('/orders/import', importBody(fa)), 403, 'base', 'forbidden');
      expect(await counts()).toEqual(before);
    });

    it('given an app credential, or a platform credential naming the school, then 201', async () => {
      expect((await (await service.token('app', a.id)).post('/orders/import', importBody(fa))).status).toBe(201);
      expectFieldError(await service.platform.post('/orders/import', importBody(fa)), 400, 'base', 'bad_request');
      const res = await service.platform.forSchool(a.id).post('/orders/import', importBody(fa));
      expect(res.status, res.text).toBe(201);
      // A platform credential acting for school b may not import a's body (school_id is a's).
      expectFieldError(await service.platform.forSchool(b.id).post('/orders/import', importBody(fa)), 422, 'school_id', 'invalid');
    });
  });

  describe('cost', () => {
    it('given 20 items and 10 invoices of 3 payments, then the import costs as many statements as one of 1 item and 1 invoice', async () => {
      const small = importBody(fa, (o) => {
        o.items_attributes = o.items_attributes.slice(0, 1);
        o.invoices_attributes = [o.invoices_attributes[0]];
        o.invoices_attributes[0].payments_attributes = o.invoices_attributes[0].payments_attributes.slice(0, 1);
      });
      const large = importBody(fa, (o) => {
        o.items_attributes = Array.from({ length: 20 }, (_, i) => ({
          school_id: a.id,
          payment_option_id: fa.options[i % 2].id,
          coupon_token_id: fa.tokens[10 + i].id,
          quantity: 1,
          total: 100,
        }));
        o.invoices_attributes = Array.from({ length: 10 }, (_, i) => ({
          school_id: a.id,
          amount: 100,
          occurrence: i + 1,
          status: 'paid',
          uuid: unique('inv'),
          payments_attributes: [0, 1, 2].map(() => ({ school_id: a.id, kind: 0, status: 'confirmed', installments: 1, uuid: unique('pay') })),
        }));
      });
      let smallRes: Reply | undefined;
      let largeRes: Reply | undefined;
      const smallCount = await service.countStatements(async () => {
        smallRes = await a.admin.post('/orders/import', small);
      });
      const largeCount = await service.countStatements(async () => {
        largeRes = await a.admin.post('/orders/import', large);
      });
      expect(smallRes!.status, smallRes!.text).toBe(201);
      expect(largeRes!.status, largeRes!.text).toBe(201);
      const rows = await stored(largeRes!.body.id);
      expect([rows.items.length, rows.invoices.length, rows.payments.length]).toEqual([20, 10, 30]);
      expect(rows.payments.every((p) => rows.invoices.some((i) => i.id === p.invoiceId))).toBe(true);
      expect(largeCount).toBe(smallCount);
      expect(largeCount).toBeLessThanOrEqual(20);
    });
  });
});
