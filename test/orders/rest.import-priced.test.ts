import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { couponTokens, orderItems } from '../../src/modules/orders/order.table.js';
import { saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// POST /orders/import and prices/coupons: history keeps its amounts (flagged price_overridden),
// but a single-use token already used is refused (issue 27).

describe('POST /orders/import: prices and coupon tokens', () => {
  let service: Service;
  let a: TestSchool;
  let f: SaleRefs;
  const { sale } = saleFixtures(() => service);

  twoSchools('Alpha Import Prices', 'Beta Import Prices', async (w) => {
    ({ service, school: a } = w);
    f = await sale(a.id, 4);
  });

  const body = (tokenId: number, item: Record<string, unknown>, order: Record<string, unknown> = {}) => ({
    order: {
      school_id: a.id,
      student_id: f.student.id,
      created_at: '2024-01-10T10:00:00Z',
      items_attributes: [{ school_id: a.id, payment_option_id: f.option.id, coupon_token_id: tokenId, quantity: 1, ...item }],
      ...order,
    },
  });

  it('given amounts that agree with the computed ones, then they are stored unflagged', async () => {
    const res = await a.admin.post('/orders/import', body(f.tokens[0].id, { total: 49700, amount_to_pay: 34790 }, { total: 49700, amount_to_pay: 34790 }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ total: 49700, amount_to_pay: 34790, price_overridden: false });
  });

  it('given amounts that disagree (a price of the time), then they are kept and flagged price_overridden', async () => {
    const res = await a.admin.post('/orders/import', body(f.tokens[1].id, { total: 39700, amount_to_pay: 27790 }, { amount_to_pay: 27790 }));
    expect(res.status, res.text).toBe(201);
    // The order's total, not given, is the items' sum; its amount_to_pay is the one given.
    expect(res.body).toMatchObject({ total: 39700, amount_to_pay: 27790, price_overridden: true });
    const [item] = await service.db.select().from(orderItems).where(eq(orderItems.orderId, res.body.id));
    expect(item).toMatchObject({ total: 39700, amountToPay: 27790, priceOverridden: true });
  });

  it('given a token already used (used_at set), then 422 coupon_used and nothing is written', async () => {
    await service.db.update(couponTokens).set({ usedAt: new Date('2023-12-01T00:00:00Z') }).where(eq(couponTokens.id, f.tokens[2].id));
    const res = await a.admin.post('/orders/import', body(f.tokens[2].id, { total: 49700 }, { uuid: 'replayed-token' }));
    expectFieldError(res, 422, 'items_attributes[0].coupon_token_id', 'coupon_used');
    // The token a previous import consumed is refused the same way.
    expectFieldError(await a.admin.post('/orders/import', body(f.tokens[0].id, { total: 49700 })), 422, 'items_attributes[0].coupon_token_id', 'coupon_used');
    const [token] = await service.db.select().from(couponTokens).where(eq(couponTokens.id, f.tokens[2].id));
    expect(token.usedAt?.toISOString()).toBe('2023-12-01T00:00:00.000Z');
  });
});
