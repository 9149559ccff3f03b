import type { CouponRow, PaymentOptionRow } from './order.table.js';

/**
 * Prices, in integer cents (credits are whole credits). The service computes them; a client never
 * sets them (createOrder refuses a disagreeing value, the import keeps it and flags the row
 * `priceOverridden`). The rules:
 *
 * - an item's `total` = its payment option's `price` × `quantity` (`totalInCredits` likewise from
 *   `priceInCredits`, null when the option has no credit price);
 * - its discount comes from its coupon (its coupon token's, else the order's when that coupon fits
 *   the item's product): a percent coupon takes `round_half_up(total × percent / 100)` (to the cent:
 *   49,700 at 30 % is 14,910 off, 34,790 to pay; 999 at 15 % is 149.85 → 150 off); an amount coupon
 *   takes its amount once per item, never more than the item's total;
 * - `amountToPay` = `total` − discount, never below 0; credits take a percent coupon by the same rule
 *   (an amount coupon is cents, it does not discount credits);
 * - an order's `total` and `amountToPay` are the sums of its items' (0 for an order without items).
 */
export interface ItemPrice {
  total: number;
  amountToPay: number;
  totalInCredits: number | null;
  amountToPayInCredits: number | null;
}

type Discount = Pick<CouponRow, 'discountPercent' | 'discountAmount'>;

/** `value × percent / 100` rounded half up to a whole cent, in integers (no float error). */
export const percentOf = (value: number, percent: number) => Math.floor((value * percent + 50) / 100);

export function itemPrice(option: Pick<PaymentOptionRow, 'price' | 'priceInCredits'>, quantity: number, coupon: Discount | null): ItemPrice {
  const total = option.price * quantity;
  const totalInCredits = option.priceInCredits === null ? null : option.priceInCredits * quantity;
  const percent = coupon?.discountPercent ?? null;
  const off = percent !== null ? percentOf(total, percent) : Math.min(coupon?.discountAmount ?? 0, total);
  const creditsOff = totalInCredits === null || percent === null ? 0 : percentOf(totalInCredits, percent);
  return {
    total,
    amountToPay: Math.max(0, total - off),
    totalInCredits,
    amountToPayInCredits: totalInCredits === null ? null : Math.max(0, totalInCredits - creditsOff),
  };
}

export function orderPrice(items: readonly Pick<ItemPrice, 'total' | 'amountToPay'>[]) {
  return {
    total: items.reduce((sum, i) => sum + i.total, 0),
    amountToPay: items.reduce((sum, i) => sum + i.amountToPay, 0),
  };
}

/** The price fields a client may send, each compared with the computed one. */
export const PRICE_FIELDS = ['total', 'amountToPay', 'totalInCredits', 'amountToPayInCredits'] as const;

/** The fields whose given value (not undefined or null) differs from the computed one. */
export function disagreeing<T extends Partial<Record<(typeof PRICE_FIELDS)[number], number | null>>>(given: T, computed: T): (keyof T & string)[] {
  return (Object.keys(computed) as (keyof T & string)[]).filter((k) => given[k] !== undefined && given[k] !== null && given[k] !== computed[k]);
}
