import { describe, expect, it } from 'vitest';
import { coupons, gatewayCredentials, orders } from '../src/modules/orders/order.table.js';
import { orderFixtures } from './support/orders.fixtures.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectFieldError } from './support/rest-assertions.js';
import { unique } from './support/rows.js';
import { twoSchools } from './support/world.js';

/**
 * REST face of the Orders family (the import has its own file): GET /orders/:id, POST /orders,
 * PUT/PATCH /orders/:id, DELETE /orders/:id and PUT /orders/:id/cancel (both cancel, 200 with the
 * order). Conventions: /work/shared/DESIGN.md; transitions: src/modules/orders/order.resolver.ts.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

describe('Orders over REST', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let studentA: { id: number };
  let studentA2: { id: number };
  let studentB: { id: number };
  let collaboratorA: { id: number };

  const { person, orderRow, countRows, eventsOf } = orderFixtures(() => service);
  /** An order of school a, made through the API. */
  async function createOrder(fields: Record<string, unknown> = {}, client: Client = a.admin) {
    const res = await client.post('/orders', { order: { student_id: studentA.id, ...fields } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  twoSchools('Alpha Orders', 'Beta Orders', async (w) => {
    ({ service, school: a, other: b } = w);
    studentA = await person(a.id, 'Student');
    studentA2 = await person(a.id, 'Student');
    studentB = await person(b.id, 'Student');
    collaboratorA = await person(a.id, 'Collaborator');
  });

  describe('credentials', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/orders/:id'],
      ['POST', '/orders', { order: { student_id: 1 } }],
      ['PUT', '/orders/:id', { order: { status: 'confirmed' } }],
      ['PATCH', '/orders/:id', { order: { status: 'confirmed' } }],
      ['DELETE', '/orders/:id'],
      ['PUT', '/orders/:id/cancel'],
    ];

    it.each(routes)('given no credential, when %s %s, then 401 and nothing changes', async (method, url, body) => {
      const order = await createOrder();
      const before = await countRows(orders);
      const res = await service.anonymous.request(method, url.replace(':id', String(order.id)), body);
      expectFieldError(res, 401, 'base', 'unauthenticated');
      expect(await countRows(orders)).toBe(before);
      expect((await orderRow(order.id)).status).toBe('initiated');
    });

    it('given a student credential, when it writes, then 403 and nothing changes', async () => {
      const order = await createOrder();
      const student = await service.token('student', a.id, studentA.id);
      const before = await countRows(orders);
      expectFieldError(await student.post('/orders', { order: { student_id: studentA.id } }), 403, 'base', 'forbidden');
      expectFieldError(await student.put(`/orders/${order.id}`, { order: { status: 'confirmed' } }), 403, 'base', 'forbidden');
      expectFieldError(await student.delete(`/orders/${order.id}`), 403, 'base', 'forbidden');
      expectFieldError(await student.put(`/orders/${order.id}/cancel`), 403, 'base', 'forbidden');
      expect(await countRows(orders)).toBe(before);
      expect((await orderRow(order.id)).status).toBe('initiated');
    });

    it('given an app credential of the school, when it creates, then 201; a collaborator writes nothing, 403', async () => {
      // Order writes are SELLERS (platform, admin, app): a collaborator teaches, it does not sell.
      const res = await (await service.token('app', a.id)).post('/orders', { order: { student_id: studentA.id } });
      expect(res.status, res.text).toBe(201);
      const collaborator = await service.token('collaborator', a.id, collaboratorA.id);
      const order = await createOrder();
      const before = await countRows(orders);
      expectFieldError(await collaborator.post('/orders', { order: { student_id: studentA.id } }), 403, 'base', 'forbidden');
      expectFieldError(await collaborator.put(`/orders/${order.id}`, { order: { status: 'confirmed' } }), 403, 'base', 'forbidden');
      expectFieldError(await collaborator.put(`/orders/${order.id}/cancel`), 403, 'base', 'forbidden');
      expect(await countRows(orders)).toBe(before);
      expect((await orderRow(order.id)).status).toBe(order.status);
    });

    it('given a platform credential, then it must name the school with X-School-Id, and then writes there', async () => {
      expectFieldError(await service.platform.post('/orders', { order: { student_id: studentA.id } }), 400, 'base', 'bad_request');
      const res = await service.platform.forSchool(a.id).post('/orders', { order: { student_id: studentA.id } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.school_id).toBe(a.id);
    });
  });

  describe('POST /orders', () => {
    it('given a student of the school (JSON), when creating, then 201 with the order, a Location, the row and order.created', async () => {
      const res = await a.admin.post('/orders', { order: { student_id: String(studentA.id) } });
      expect(res.status, res.text).toBe(201);
      const o = res.body;
      expect(res.headers.location).toBe(`/orders/${o.id}`);
      expect(o).toMatchObject({
        school_id: a.id,
        student_id: studentA.id,
        status: 'initiated',
        kind: 0,
        period: 0,
        amount_to_pay: 0,
        total: 0,
        test: false,
        success: false,
        confirmed_at: null,
        canceled_at: null,
        uuid: null,
        item_ids: [],
        invoice_ids: [],
      });
      expect(typeof o.id).toBe('number');
      expect(o.created_at).toMatch(ISO);
      // Only leaf fields: no nested objects in a REST reply.
      expect(Object.values(o).every((v) => v === null || typeof v !== 'object' || Array.isArray(v))).toBe(true);
      expect(await orderRow(o.id)).toMatchObject({ schoolId: a.id, studentId: studentA.id, status: 'initiated' });
      expect(await eventsOf(o.id)).toEqual(['order.created']);
      const shown = await a.admin.get(res.headers.location as string);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual(o);
    });

    it('given the optional fields, when creating a free order confirmed, then they are stored, confirmed_at is the time of confirmation and order.confirmed is emitted', async () => {
      const [gateway] = await service.db.insert(gatewayCredentials).values({ schoolId: a.id, gateway: 'pagarme' }).returning();
      const [coupon] = await service.db.insert(coupons).values({ schoolId: a.id, code: unique('C'), discountPercent: 10 }).returning();
      const uuid = unique('uuid');
      const res = await a.admin.post('/orders', {
        order: {
          student_id: studentA.id,
          status: 'confirmed',
          kind: 1,
          period: 4,
          amount_to_pay: 0,
          total: 0,
          gateway_credential_id: gateway.id,
          coupon_id: coupon.id,
          uuid,
          gateway_reference: 'or_123',
          response: '{"ok":true}',
          message: 'Approved',
          test: true,
          success: true,
          next_invoice_at: '2026-02-15T12:00:00.000Z',
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        status: 'confirmed',
        kind: 1,
        period: 4,
        amount_to_pay: 0,
        total: 0,
        gateway_credential_id: gateway.id,
        coupon_id: coupon.id,
        uuid,
        gateway_reference: 'or_123',
        test: true,
        success: true,
        next_invoice_at: '2026-02-15T12:00:00.000Z',
        confirmed_at: service.clock.now().toISOString(),
      });
      expect(await eventsOf(res.body.id)).toEqual(['order.created', 'order.confirmed']);
    });

    it('given a form-urlencoded body with bracket names, when creating, then strings become typed values', async () => {
      const res = await a.admin.post('/orders', { order: { student_id: String(studentA.id), kind: '2', period: '1', test: 'true', total: '0' } }, { encoding: 'form' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ student_id: studentA.id, kind: 2, period: 1, test: true, total: 0 });
    });

    it('given an empty form field for a column that always holds a value, when creating, then 422 blank', async () => {
      const before = await countRows(orders);
      expectFieldError(await a.admin.post('/orders', { order: { student_id: String(studentA.id), kind: '' } }, { encoding: 'form' }), 422, 'kind', 'blank');
      expect(await countRows(orders)).toBe(before);
    });

    it('given a multipart body with bracket names, when creating, then 201', async () => {
      const res = await a.admin.post('/orders', { order: { student_id: String(studentA.id), amount_to_pay: '0' } }, { encoding: 'multipart' });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ student_id: studentA.id, amount_to_pay: 0 });
    });

    it('given fields that are not writable (id, school_id, timestamps, canceled_at, item_ids), when creating, then they are ignored', async () => {
      const res = await a.admin.post('/orders', {
        order: { id: 999999, school_id: b.id, student_id: studentA.id, created_at: '2000-01-01T00:00:00Z', canceled_at: '2000-01-01T00:00:00Z', item_ids: [1] },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.id).not.toBe(999999);
      expect(res.body.school_id).toBe(a.id);
      expect(res.body.canceled_at).toBeNull();
      expect(res.body.created_at).not.toMatch(/^2000-/);
    });

    it.each([
      ['no student_id', { student_id: undefined, total: 100 }, 'student_id', 'blank'],
      ['a blank student_id', { student_id: '' }, 'student_id', 'blank'],
      ['a student_id naming nobody', { student_id: 99999999 }, 'student_id', 'not_found'],
      ['kind null', { kind: null }, 'kind', 'blank'],
      ['status null', { status: null }, 'status', 'blank'],
      ['kind 4', { kind: 4 }, 'kind', 'less_than_or_equal_to'],
      ['kind -1', { kind: -1 }, 'kind', 'greater_than_or_equal_to'],
      ['period 5', { period: 5 }, 'period', 'less_than_or_equal_to'],
      ['a negative total', { total: -1 }, 'total', 'greater_than_or_equal_to'],
      ['a negative amount_to_pay', { amount_to_pay: -5 }, 'amount_to_pay', 'greater_than_or_equal_to'],
      // Prices are the service's (test/orders/ tests them with items): an order without items costs 0.
      ['an amount_to_pay that is not the sum of the items', { amount_to_pay: 700 }, 'amount_to_pay', 'price_mismatch'],
      ['a total that is not the sum of the items', { total: 500 }, 'total', 'price_mismatch'],
      ['status canceled', { status: 'canceled' }, 'status', 'exclusion'],
      ['a gateway credential naming nothing', { gateway_credential_id: 99999999 }, 'gateway_credential_id', 'not_found'],
      ['a coupon naming nothing', { coupon_id: 99999999 }, 'coupon_id', 'not_found'],
    ])('given %s, when creating, then 422 naming the field and no row', async (_name, fields, field, code) => {
      const before = await countRows(orders);
      expectFieldError(await a.admin.post('/orders', { order: { student_id: studentA.id, ...fields } }), 422, field, code);
      expect(await countRows(orders)).toBe(before);
    });

    it('given a collaborator (not a student) of the school, or a student of another school, when creating, then 422 not_found', async () => {
      const before = await countRows(orders);
      expectFieldError(await a.admin.post('/orders', { order: { student_id: collaboratorA.id } }), 422, 'student_id', 'not_found');
      expectFieldError(await a.admin.post('/orders', { order: { student_id: studentB.id } }), 422, 'student_id', 'not_found');
      expect(await countRows(orders)).toBe(before);
    });

    it("given another school's gateway credential and coupon, when creating, then 422 on both and no row", async () => {
      const [gateway] = await service.db.insert(gatewayCredentials).values({ schoolId: b.id, gateway: 'stripe' }).returning();
      const [coupon] = await service.db.insert(coupons).values({ schoolId: b.id, code: unique('B'), discountAmount: 100 }).returning();
      const before = await countRows(orders);
      const res = await a.admin.post('/orders', { order: { student_id: studentA.id, gateway_credential_id: gateway.id, coupon_id: coupon.id } });
      expectFieldError(res, 422, 'gateway_credential_id', 'not_found');
      expectFieldError(res, 422, 'coupon_id', 'not_found');
      expect(await countRows(orders)).toBe(before);
    });

    it('given a uuid the school already used, when creating, then 409 taken on uuid', async () => {
      const uuid = unique('dup');
      await createOrder({ uuid });
      const before = await countRows(orders);
      expectFieldError(await a.admin.post('/orders', { order: { student_id: studentA.id, uuid } }), 409, 'uuid', 'taken');
      expect(await countRows(orders)).toBe(before);
      // Another school may use the same uuid.
      expect((await b.admin.post('/orders', { order: { student_id: studentB.id, uuid } })).status).toBe(201);
    });

    it.each([
      ['bad JSON', undefined, { raw: '{"order": {', headers: { 'content-type': 'application/json' } }, 'base'],
      ['no order key', { student_id: 1 }, {}, 'order'],
      ['an empty order hash', { order: {} }, {}, 'order'],
      ['order as a string', { order: 'x' }, {}, 'order'],
      ['kind "abc"', { order: { student_id: 1, kind: 'abc' } }, {}, 'kind'],
      ['test "maybe"', { order: { student_id: 1, test: 'maybe' } }, {}, 'test'],
      ['a malformed next_invoice_at', { order: { student_id: 1, next_invoice_at: 'tomorrow' } }, {}, 'next_invoice_at'],
    ])('given %s, when creating, then 400 and no row', async (_name, body, options, field) => {
      const before = await countRows(orders);
      const res = await a.admin.post('/orders', body, options as Parameters<Client['request']>[3]);
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body[`errors`])).toContain(field);
      expect(await countRows(orders)).toBe(before);
    });

    it('given an unknown status, when creating, then 422 inclusion and no row (a closed list)', async () => {
      const before = await countRows(orders);
      const res = await a.admin.post('/orders', { order: { student_id: 1, status: 'paid' } });
      expect(res.status, res.text).toBe(422);
      expect(res.body.details.status).toEqual([{ error: 'inclusion' }]);
      expect(await countRows(orders)).toBe(before);
    });
  });

  describe('GET /orders/:id', () => {
    it('given an order, when staff show it (also under /v1 and with .json), then 200 with snake_case leaves', async () => {
      const order = await createOrder({ gateway_reference: 'ref-show' });
      for (const url of [`/orders/${order.id}`, `/v1/orders/${order.id}`, `/orders/${order.id}.json`, `/api/v1/orders/${order.id}/`]) {
        const res = await a.admin.get(url);
        expect(res.status, url).toBe(200);
        expect(res.body).toEqual(order);
      }
    });

    it('given a student credential, when it shows its own order, then 200; another student’s order, then 404', async () => {
      const own = await createOrder();
      const others = await createOrder({ student_id: studentA2.id });
      const student = await service.token('student', a.id, studentA.id);
      const res = await student.get(`/orders/${own.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(own.id);
      expectFieldError(await student.get(`/orders/${others.id}`), 404, 'base', 'not_found');
    });

    it("given another school's order, when shown, then 404 not_found", async () => {
      const order = await createOrder();
      expectFieldError(await b.admin.get(`/orders/${order.id}`), 404, 'base', 'not_found');
      expectFieldError(await (await service.token('student', b.id, studentB.id)).get(`/orders/${order.id}`), 404, 'base', 'not_found');
    });

    it.each(['abc', '0', '-1', '99999999'])('given the id %s, when shown, then 404', async (id) => {
      expectFieldError(await a.admin.get(`/orders/${id}`), 404, 'base', 'not_found');
    });

    it('given GET /orders (no such route) and POST /orders/:id, then 405 with Allow', async () => {
      const order = await createOrder();
      const res = await a.admin.post(`/orders/${order.id}`, { order: {} });
      expect(res.status).toBe(405);
      expect(String(res.headers.allow)).toContain('GET');
      expect((await a.admin.get('/orders/import')).status).toBe(405);
    });
  });

  describe('PUT/PATCH /orders/:id', () => {
    it.each(['PUT', 'PATCH'])('given an order, when %s with fields, then 200 with the order, a Location and the row changed', async (method) => {
      const order = await createOrder();
      const res = await a.admin.request(method, `/orders/${order.id}`, { order: { student_id: studentA2.id, message: 'Waiting', gateway_reference: 'ref-1' } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.location).toBe(`/orders/${order.id}`);
      expect(res.body).toMatchObject({ id: order.id, student_id: studentA2.id, message: 'Waiting', gateway_reference: 'ref-1', status: 'initiated' });
      expect(await orderRow(order.id)).toMatchObject({ studentId: studentA2.id, message: 'Waiting', gatewayReference: 'ref-1' });
    });

    it('given a form-urlencoded PATCH, when updating the status, then 200', async () => {
      const order = await createOrder();
      const res = await a.admin.patch(`/orders/${order.id}`, { order: { status: 'processing', amount_to_pay: '0' } }, { encoding: 'form' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'processing', amount_to_pay: 0 });
    });

    it('given the whole fetched order sent back, when updating, then 200 and nothing but updated_at changes', async () => {
      const order = await createOrder({ status: 'confirmed' });
      const res = await a.admin.put(`/orders/${order.id}`, { order });
      expect(res.status, res.text).toBe(200);
      const { updated_at: _u1, ...before } = order;
      const { updated_at: _u2, ...after } = res.body;
      expect(after).toEqual(before);
      expect(await eventsOf(order.id)).toEqual(['order.created', 'order.confirmed']);
    });

    it('given a student of another school or a cleared student_id, when updating, then 422 and the row untouched', async () => {
      const order = await createOrder();
      expectFieldError(await a.admin.put(`/orders/${order.id}`, { order: { student_id: studentB.id } }), 422, 'student_id', 'not_found');
      expectFieldError(await a.admin.put(`/orders/${order.id}`, { order: { student_id: null } }), 422, 'student_id', 'blank');
      expectFieldError(await a.admin.put(`/orders/${order.id}`, { order: { kind: 9 } }), 422, 'kind', 'less_than_or_equal_to');
      expect((await orderRow(order.id)).studentId).toBe(studentA.id);
    });

    it('given a missing order hash, then 400; given another school’s order, then 404 and it is untouched', async () => {
      const order = await createOrder();
      expectFieldError(await a.admin.put(`/orders/${order.id}`, { status: 'confirmed' }), 400, 'order', 'bad_request');
      expectFieldError(await b.admin.put(`/orders/${order.id}`, { order: { status: 'confirmed' } }), 404, 'base', 'not_found');
      expectFieldError(await b.admin.delete(`/orders/${order.id}`), 404, 'base', 'not_found');
      expectFieldError(await b.admin.put(`/orders/${order.id}/cancel`), 404, 'base', 'not_found');
      expect((await orderRow(order.id)).status).toBe('initiated');
      expect((await orderRow(order.id)).canceledAt).toBeNull();
    });
  });

  // Orders without items (free: nothing to pay) here; paid ones are confirmed by their payment (test/orders/).
  describe('status transitions', () => {
    const allowed: [string, string][] = [
      ['initiated', 'processing'],
      ['initiated', 'no_wait_processing'],
      ['initiated', 'confirmed'],
      ['initiated', 'canceled'],
      ['processing', 'confirmed'],
      ['processing', 'canceled'],
      ['no_wait_processing', 'confirmed'],
      ['no_wait_processing', 'canceled'],
    ];
    const refused: [string, string][] = [
      ['processing', 'initiated'],
      ['processing', 'no_wait_processing'],
      ['no_wait_processing', 'processing'],
      ['confirmed', 'initiated'],
      ['confirmed', 'processing'],
      ['confirmed', 'no_wait_processing'],
      ['canceled', 'initiated'],
      ['canceled', 'processing'],
      ['canceled', 'confirmed'],
    ];

    /** An order in `status`, reached through allowed updates. */
    async function orderIn(status: string) {
      if (status === 'canceled') {
        const order = await createOrder();
        const res = await a.admin.put(`/orders/${order.id}/cancel`);
        expect(res.status, res.text).toBe(200);
        return res.body;
      }
      return createOrder({ status });
    }

    it.each(allowed)('given an order %s, when updated to %s, then 200 and the status is stored', async (from, to) => {
      const order = await orderIn(from);
      const res = await a.admin.patch(`/orders/${order.id}`, { order: { status: to } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(to);
      const row = await orderRow(order.id);
      expect(row.status).toBe(to);
      if (to === 'confirmed') expect(row.confirmedAt?.toISOString()).toBe(service.clock.now().toISOString());
      if (to === 'canceled') expect(row.canceledAt?.toISOString()).toBe(service.clock.now().toISOString());
      const events = await eventsOf(order.id);
      if (to === 'confirmed' || to === 'canceled') expect(events.at(-1)).toBe(`order.${to}`);
    });

    it.each(refused)('given an order %s, when updated to %s, then 422 invalid_transition and the order is untouched', async (from, to) => {
      const order = await orderIn(from);
      const events = await eventsOf(order.id);
      const res = await a.admin.patch(`/orders/${order.id}`, { order: { status: to, total: 777 } });
      expectFieldError(res, 422, 'status', 'invalid_transition');
      const row = await orderRow(order.id);
      expect(row.status).toBe(from);
      expect(row.total).toBe(0);
      expect(await eventsOf(order.id)).toEqual(events);
    });

    it('given a confirmed order, when updated to canceled, then 422 refund_required (a paid order is refunded, not canceled)', async () => {
      const order = await orderIn('confirmed');
      expectFieldError(await a.admin.patch(`/orders/${order.id}`, { order: { status: 'canceled' } }), 422, 'status', 'refund_required');
      expect((await orderRow(order.id)).status).toBe('confirmed');
    });

    it('given confirming with a confirmed_at, then that time is kept', async () => {
      const order = await createOrder({ status: 'processing' });
      const res = await a.admin.put(`/orders/${order.id}`, { order: { status: 'confirmed', confirmed_at: '2025-12-24T10:30:00.000Z' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.confirmed_at).toBe('2025-12-24T10:30:00.000Z');
    });
  });

  describe('cancelling: DELETE /orders/:id and PUT /orders/:id/cancel', () => {
    it.each([
      ['DELETE', '/orders/:id'],
      ['PUT', '/orders/:id/cancel'],
      ['PUT', '/v1/orders/:id/cancel.json'],
    ])('given a processing order, when %s %s, then 200 with the canceled order; the order stays, with canceled_at and order.canceled', async (method, path) => {
      const order = await createOrder({ status: 'processing' });
      const res = await a.admin.request(method, path.replace(':id', String(order.id)));
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: order.id, status: 'canceled', canceled_at: service.clock.now().toISOString() });
      const row = await orderRow(order.id);
      expect(row.status).toBe('canceled');
      expect(row.canceledAt?.toISOString()).toBe(service.clock.now().toISOString());
      expect(await eventsOf(order.id)).toEqual(['order.created', 'order.canceled']);
      expect((await a.admin.get(`/orders/${order.id}`)).body.status).toBe('canceled');
    });

    it('given a canceled order, when cancelled again (either route), then 422 invalid_transition and canceled_at is kept', async () => {
      const order = await createOrder();
      expect((await a.admin.delete(`/orders/${order.id}`)).status).toBe(200);
      const canceledAt = (await orderRow(order.id)).canceledAt;
      service.clock.advanceDays(1);
      const again = await a.admin.delete(`/orders/${order.id}`);
      expectFieldError(again, 422, 'status', 'invalid_transition');
      expect(again.body.errors.status).toEqual(['is already canceled']);
      expectFieldError(await a.admin.put(`/orders/${order.id}/cancel`), 422, 'status', 'invalid_transition');
      expect((await orderRow(order.id)).canceledAt).toEqual(canceledAt);
      expect(await eventsOf(order.id)).toEqual(['order.created', 'order.canceled']);
    });

    it('given an unknown id, when cancelled, then 404', async () => {
      expectFieldError(await a.admin.delete('/orders/99999999'), 404, 'base', 'not_found');
      expectFieldError(await a.admin.put('/orders/abc/cancel'), 404, 'base', 'not_found');
    });
  });
});
