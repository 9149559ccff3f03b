import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { coupons, couponTokens, orders } from '../../src/modules/orders/order.table.js';
import { saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A single-use coupon token is consumed in the order's transaction under a row lock
// (src/modules/orders/order.coupons.ts): concurrent orders on one token give exactly one order.
// On PostgreSQL (TEST_DATABASE_URL) the requests really run in parallel transactions.

describe('one coupon token, 20 orders at once', () => {
  let service: Service;
  let a: TestSchool;
  let f: SaleRefs;
  const { sale } = saleFixtures(() => service);

  twoSchools('Alpha Race', 'Beta Race', async (w) => {
    ({ service, school: a } = w);
    f = await sale(a.id, 2);
  });

  const body = (token: { id: number }) => ({ order: { student_id: f.student.id, items_attributes: [{ payment_option_id: f.option.id, coupon_token_id: token.id }] } });

  it('given 20 parallel POST /orders on one token, then exactly one 201 and 19 × 422 coupon_used', async () => {
    const replies = await Promise.all(Array.from({ length: 20 }, () => a.admin.post('/orders', body(f.tokens[0]))));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(422)]);
    for (const r of replies.filter((r) => r.status === 422)) expect(r.body.details['items_attributes[0].coupon_token_id']).toEqual([{ error: 'coupon_used' }]);
    const made = await service.db.select().from(orders).where(eq(orders.schoolId, a.id));
    expect(made).toHaveLength(1);
    expect(made[0].amountToPay).toBe(34790);
    const [coupon] = await service.db.select().from(coupons).where(eq(coupons.id, f.coupon.id));
    expect(coupon.usesCount).toBe(1);
  });

  it('given 20 parallel imports naming one unused token, then exactly one imports it', async () => {
    const importBody = (i: number) => ({
      order: {
        school_id: a.id,
        student_id: f.student.id,
        uuid: `race-${i}`,
        items_attributes: [{ school_id: a.id, payment_option_id: f.option.id, coupon_token_id: f.tokens[1].id, quantity: 1, total: 49700 }],
      },
    });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => a.admin.post('/orders/import', importBody(i))));
    expect(replies.map((r) => r.status).sort()).toEqual([201, ...Array(19).fill(422)]);
    const [token] = await service.db.select().from(couponTokens).where(eq(couponTokens.id, f.tokens[1].id));
    expect(token.usedAt).not.toBeNull();
  });
});
