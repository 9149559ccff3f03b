import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { countRows } from '../support/rows.js';
import { saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Replays change nothing the second time: a payment confirmed again (by hand or as a gateway's
// repeated report), an order imported again under its uuid. A paid order enrolls once
// (src/modules/orders/order.enroll.ts: unique (order_id, school_product_id)).

describe('replaying a confirmation or an import', () => {
  let service: Service;
  let a: TestSchool;
  let f: SaleRefs;
  const fx = saleFixtures(() => service);

  twoSchools('Alpha Replay', 'Beta Replay', async (w) => {
    ({ service, school: a } = w);
    f = await fx.sale(a.id, 6);
  });

  const counts = async () => ({ enrollments: await countRows(service, enrollments), registrations: await countRows(service, registrations), events: await countRows(service, domainEvents) });

  it('given a confirmed payment, when confirmed again or reported confirmed again, then nothing new: no enrollment, no event', async () => {
    const { payment, order } = await fx.paidOrder(a.admin, f);
    const before = await counts();
    expect((await a.admin.put(`/payments/${payment.id}/confirm`)).status).toBe(200);
    expect((await a.admin.put(`/payments/${payment.id}/status`, { payment: { status: 'confirmed' } })).status).toBe(200);
    expect(await counts()).toEqual(before);
    const made = await service.db.select().from(enrollments).where(eq(enrollments.orderId, order.id));
    expect(made).toHaveLength(1);
  });

  it('given a second paid order of the same student, then its registration is reused and it gets an enrollment of its own', async () => {
    const before = await counts();
    const { order } = await fx.paidOrder(a.admin, f);
    const after = await counts();
    expect([after.registrations - before.registrations, after.enrollments - before.enrollments]).toEqual([0, 1]);
    expect((await service.db.select().from(enrollments).where(eq(enrollments.orderId, order.id)))[0]).toMatchObject({ status: 'active', schoolProductId: f.product.id });
  });

  it('given a paid order imported twice under one uuid, then one order, one enrollment (from its confirmed_at, with order_id), nothing new the second time', async () => {
    const body = {
      order: {
        school_id: a.id,
        student_id: f.student.id,
        uuid: 'paid-elsewhere-1',
        status: 'confirmed',
        confirmed_at: '2026-01-01T00:00:00.000Z',
        items_attributes: [{ school_id: a.id, payment_option_id: f.option.id, coupon_token_id: f.tokens[0].id, quantity: 1, total: 49700 }],
        invoices_attributes: [{ school_id: a.id, amount: 34790, occurrence: 1, status: 'paid', payments_attributes: [{ school_id: a.id, kind: 3, status: 'confirmed', amount: 34790 }] }],
      },
    };
    const first = await a.admin.post('/orders/import', body);
    expect(first.status, first.text).toBe(201);
    const made = await service.db.select().from(enrollments).where(eq(enrollments.orderId, first.body.id));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ status: 'active', unlimited: false, availableUntil: new Date('2027-01-01T00:00:00.000Z') });
    const before = await counts();
    const again = await a.admin.post('/orders/import', body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, created: false });
    expect(await counts()).toEqual(before);
  });

  it('given a free order confirmed at creation, then the student is enrolled at once; updating it confirmed again changes nothing', async () => {
    const { token } = await fx.coupon(a.id, { discountPercent: 100 });
    const res = await a.admin.post('/orders', {
      order: { student_id: f.student.id, status: 'confirmed', items_attributes: [{ payment_option_id: f.option.id, coupon_token_id: token.id }] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'confirmed', amount_to_pay: 0, invoice_ids: [] });
    expect(await service.db.select().from(enrollments).where(eq(enrollments.orderId, res.body.id))).toHaveLength(1);
    const before = await counts();
    expect((await a.admin.put(`/orders/${res.body.id}`, { order: { status: 'confirmed' } })).status).toBe(200);
    expect(await counts()).toEqual(before);
  });
});
