import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { couponTokens, coupons, invoices, orderItems, orders } from '../../src/modules/orders/order.table.js';
import { saleFixtures, type SaleRefs } from '../support/orders.fixtures.js';
import { expectFieldError } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// POST /orders with items: the service prices them (src/modules/orders/order.pricing.ts) and
// consumes their coupons (order.coupons.ts); a price sent that disagrees is a 422 naming the field.

describe('POST /orders with items', () => {
  let service: Service;
  let a: TestSchool;
  let f: SaleRefs;
  const { sale, option, coupon } = saleFixtures(() => service);

  twoSchools('Alpha Pricing', 'Beta Pricing', async (w) => {
    ({ service, school: a } = w);
    f = await sale(a.id, 8);
  });

  const order = (items: Record<string, unknown>[], fields: Record<string, unknown> = {}) => ({ order: { student_id: f.student.id, items_attributes: items, ...fields } });
  const stored = async (id: number) => ({
    order: (await service.db.select().from(orders).where(eq(orders.id, id)))[0],
    items: await service.db.select().from(orderItems).where(eq(orderItems.orderId, id)).orderBy(orderItems.id),
    invoices: await service.db.select().from(invoices).where(eq(invoices.orderId, id)),
  });

  it('given 49,700 with a 30 % coupon token, then amount_to_pay is 34,790, the token is used and an invoice of 34,790 is open', async () => {
    const res = await a.admin.post('/orders', order([{ payment_option_id: f.option.id, coupon_token_id: f.tokens[0].id }], { amount_to_pay: 34790 }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ total: 49700, amount_to_pay: 34790, status: 'initiated', price_overridden: false });
    const rows = await stored(res.body.id);
    expect(rows.items.map((i) => [i.quantity, i.total, i.amountToPay, i.couponTokenId])).toEqual([[1, 49700, 34790, f.tokens[0].id]]);
    expect(rows.invoices.map((i) => [i.occurrence, i.amount, i.status])).toEqual([[1, 34790, 'open']]);
    const [token] = await service.db.select().from(couponTokens).where(eq(couponTokens.id, f.tokens[0].id));
    expect(token.usedAt?.toISOString()).toBe(service.clock.now().toISOString());
    const [c] = await service.db.select().from(coupons).where(eq(coupons.id, f.coupon.id));
    expect(c.usesCount).toBe(1);
  });

  it('given a token by its text, a quantity and an order coupon, then each item takes its own discount and the order sums them', async () => {
    const plain = await option(a.id, { price: 999, priceInCredits: 10 });
    const { coupon: fifteen } = await coupon(a.id, { discountPercent: 15 });
    const res = await a.admin.post(
      '/orders',
      order([{ payment_option_id: f.option.id, coupon_token: f.tokens[1].token }, { payment_option_id: plain.id, quantity: 3 }], { coupon_id: fifteen.id }),
    );
    expect(res.status, res.text).toBe(201);
    const rows = await stored(res.body.id);
    // 2,997 at 15 % is 449.55 off: rounded half up to 450. Credits 30 at 15 % is 4.5: 5 off.
    expect(rows.items.map((i) => [i.total, i.amountToPay, i.totalInCredits, i.amountToPayInCredits])).toEqual([
      [49700, 34790, null, null],
      [2997, 2547, 30, 25],
    ]);
    expect(res.body).toMatchObject({ total: 52697, amount_to_pay: 37337, coupon_id: fifteen.id });
  });

  it('given an amount coupon larger than the price, then the item costs 0, never less; an order with nothing to pay opens no invoice', async () => {
    const cheap = await option(a.id, { price: 500 });
    const { token } = await coupon(a.id, { discountAmount: 800 });
    const res = await a.admin.post('/orders', order([{ payment_option_id: cheap.id, coupon_token_id: token.id }]));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ total: 500, amount_to_pay: 0 });
    expect((await stored(res.body.id)).invoices).toEqual([]);
  });

  it.each([
    ['an item amount_to_pay that disagrees', [{ amount_to_pay: 0 }], {}, 'items_attributes[0].amount_to_pay'],
    ['an item total that disagrees', [{ total: 1 }], {}, 'items_attributes[0].total'],
    ["an order amount_to_pay that is not its items' sum", [{}], { amount_to_pay: 0 }, 'amount_to_pay'],
    ["an order total that is not its items' sum", [{}], { total: 99 }, 'total'],
  ])('given %s, then 422 price_mismatch naming the field, and nothing is written', async (_name, items, fields, field) => {
    const before = (await service.db.select().from(orders)).length;
    const res = await a.admin.post('/orders', order(items.map((i) => ({ payment_option_id: f.option.id, ...i })), fields));
    expectFieldError(res, 422, field, 'price_mismatch');
    expect((await service.db.select().from(orders)).length).toBe(before);
  });

  it('given a used token, then 422 coupon_used; a failed order leaves its token unused', async () => {
    const token = f.tokens[2];
    expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: f.option.id, coupon_token_id: token.id, total: 1 }])), 422, 'items_attributes[0].total', 'price_mismatch');
    const [unused] = await service.db.select().from(couponTokens).where(eq(couponTokens.id, token.id));
    expect(unused.usedAt).toBeNull();
    expect((await a.admin.post('/orders', order([{ payment_option_id: f.option.id, coupon_token_id: token.id }]))).status).toBe(201);
    const again = await a.admin.post('/orders', order([{ payment_option_id: f.option.id, coupon_token_id: token.id }]));
    expectFieldError(again, 422, 'items_attributes[0].coupon_token_id', 'coupon_used');
    // Named twice in one order: the second use is refused.
    const twice = await a.admin.post('/orders', order([0, 1].map(() => ({ payment_option_id: f.option.id, coupon_token_id: f.tokens[3].id }))));
    expectFieldError(twice, 422, 'items_attributes[1].coupon_token_id', 'coupon_used');
  });

  it('given coupons out of their window, used up, or for another product, then 422 with the reason', async () => {
    const now = service.clock.now().getTime();
    const expired = await coupon(a.id, { discountPercent: 10, validUntil: new Date(now - 1000) });
    const future = await coupon(a.id, { discountPercent: 10, validFrom: new Date(now + 86_400_000) });
    const usedUp = await coupon(a.id, { discountPercent: 10, maxUses: 1, usesCount: 1 });
    const other = await option(a.id, { price: 100 });
    const elsewhere = await coupon(a.id, { discountPercent: 10, schoolProductId: f.product.id });
    const inactive = await coupon(a.id, { discountPercent: 10, active: false });
    const cases: [number, number, string][] = [
      [expired.token.id, f.option.id, 'coupon_expired'],
      [future.token.id, f.option.id, 'coupon_expired'],
      [usedUp.token.id, f.option.id, 'coupon_exhausted'],
      [elsewhere.token.id, other.id, 'coupon_not_applicable'],
      [inactive.token.id, f.option.id, 'inactive'],
    ];
    for (const [tokenId, optionId, code] of cases)
      expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: optionId, coupon_token_id: tokenId }])), 422, 'items_attributes[0].coupon_token_id', code);
    // The order-level coupon: the same rules, on coupon_id.
    expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: f.option.id }], { coupon_id: usedUp.coupon.id })), 422, 'coupon_id', 'coupon_exhausted');
    expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: other.id }], { coupon_id: elsewhere.coupon.id })), 422, 'coupon_id', 'coupon_not_applicable');
  });

  it('given a payment option of another school or none, then 422 naming the item field', async () => {
    expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: 99999999 }])), 422, 'items_attributes[0].payment_option_id', 'not_found');
    expectFieldError(await a.admin.post('/orders', order([{ quantity: 1 }])), 422, 'items_attributes[0].payment_option_id', 'blank');
    expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: f.option.id, quantity: 0 }])), 422, 'items_attributes[0].quantity', 'greater_than_or_equal_to');
    // 49,700 × 50,000 cents would not fit the amounts' 32 bits.
    expectFieldError(await a.admin.post('/orders', order([{ payment_option_id: f.option.id, quantity: 50000 }])), 422, 'items_attributes[0].quantity', 'less_than_or_equal_to');
  });

  it('given an order with something to pay, when PUT to confirmed, then 422 payment_required (its payment confirms it)', async () => {
    const res = await a.admin.post('/orders', order([{ payment_option_id: f.option.id }]));
    expect(res.status, res.text).toBe(201);
    expectFieldError(await a.admin.put(`/orders/${res.body.id}`, { order: { status: 'confirmed' } }), 422, 'status', 'payment_required');
    expectFieldError(await a.admin.put(`/orders/${res.body.id}`, { order: { amount_to_pay: 0 } }), 422, 'amount_to_pay', 'price_mismatch');
    expect((await stored(res.body.id)).order.status).toBe('initiated');
  });
});
