import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { couponTokens, orders } from '../../src/modules/orders/order.table.js';
import { type ImportOrder, type ImportRefs as Fixture, orderFixtures, orderImportFixtures } from '../support/orders.fixtures.js';
import type { Client, Reply, Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { unique } from '../support/rows.js';
import { twoSchools } from '../support/world.js';

// POST /orders/import refused: every rule of the spec's import body, all or nothing, credentials and
// cost. Decisions: src/modules/orders/order-import.resolver.ts; the body and its reads:
// test/support/orders.fixtures.ts.

describe('POST /orders/import', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let fa: Fixture;
  let fb: Fixture;

  const { importRefs: fixture } = orderFixtures(() => service);
  const { importBody, counts, stored } = orderImportFixtures(() => service);

  twoSchools('Alpha Import', 'Beta Import', async (w) => {
    ({ service, school: a, other: b } = w);
    fa = await fixture(a.id, 400);
    fb = await fixture(b.id);
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
      // Events: order.imported, and invoice.paid / payment.confirmed or refunded for each such row not given its own created_at (history),
      // and the confirmed order's enrollment in the one product its items buy (enrollment.created, enrollment.activated).
      type Sent = { status: string; created_at?: string };
      const invoicesSent = body.order.invoices_attributes as (Sent & { payments_attributes: Sent[] })[];
      const paidEvents = invoicesSent.filter((i) => i.status === 'paid' && !i.created_at).length;
      const paymentEvents = invoicesSent.flatMap((i) => i.payments_attributes).filter((p) => (p.status === 'confirmed' || p.status === 'refunded') && !p.created_at).length;
      expect([after.orders - before.orders, after.items - before.items, after.invoices - before.invoices, after.payments - before.payments, after.events - before.events]).toEqual([
        1, 2, 3, 5, 1 + paidEvents + paymentEvents + 2,
      ]);
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
      // The coupons' claim (tokens and coupons locked, then marked) and the enrollment of a confirmed order are a few statements more, whatever the rows.
      expect(largeCount).toBeLessThanOrEqual(24);
    });
  });
});
