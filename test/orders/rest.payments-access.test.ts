import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments } from '../../src/modules/orders/order.table.js';
import { orderFixtures, saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import { expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Who may not move payments (the role rows in src/modules/orders/index.ts): a student (even the
// buyer), a collaborator (it teaches, it does not sell), and another school (its credential sees a 404).

describe('who may not pay, confirm or refund', () => {
  let service: Service;
  let a: TestSchool;
  let b: TestSchool;
  let f: SaleRefs;
  let student: Client;
  let collaborator: Client;
  const fx = saleFixtures(() => service);
  const { person } = orderFixtures(() => service);

  twoSchools('Alpha Payment Access', 'Beta Payment Access', async (w) => {
    ({ service, school: a, other: b } = w);
    f = await fx.sale(a.id);
    student = await service.token('student', a.id, f.student.id);
    collaborator = await service.token('collaborator', a.id, (await person(a.id, 'Collaborator')).id);
  });

  const moves = (invoiceId: number, paymentId: number): [string, string, unknown][] => [
    ['POST', `/invoices/${invoiceId}/payments`, { payment: { kind: 3 } }],
    ['PUT', `/payments/${paymentId}/confirm`, undefined],
    ['PUT', `/payments/${paymentId}/status`, { payment: { status: 'reversed' } }],
    ['POST', `/payments/${paymentId}/refund`, { refund: { reason: 'mine' } }],
  ];

  it('given a student (the buyer) or a collaborator, then 403 on every move and nothing changes', async () => {
    const { invoiceId, payment } = await fx.paidOrder(a.admin, f);
    for (const client of [student, collaborator])
      for (const [method, path, body] of moves(invoiceId, payment.id)) expectFieldError(await client.request(method, path, body), 403, 'base', 'forbidden');
    const [row] = await service.db.select().from(payments).where(eq(payments.id, payment.id));
    expect([row.status, row.refundedAmount]).toEqual(['confirmed', 0]);
  });

  it("given another school's credential, then 404 on every move and on the payment's show; the buyer reads its own payment", async () => {
    const { invoiceId, payment } = await fx.paidOrder(a.admin, f);
    for (const [method, path, body] of moves(invoiceId, payment.id)) expectNotFound(await b.admin.request(method, path, body));
    expectNotFound(await b.admin.get(`/payments/${payment.id}`));
    expect((await student.get(`/payments/${payment.id}`)).body).toMatchObject({ id: payment.id, status: 'confirmed' });
    const [row] = await service.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row.status).toBe('confirmed');
  });

  it("given another student of the school, then the buyer's payment is a 404 to it", async () => {
    const { payment } = await fx.paidOrder(a.admin, f);
    const stranger = await service.token('student', a.id, (await person(a.id)).id);
    expectNotFound(await stranger.get(`/payments/${payment.id}`));
  });
});
