import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { idOrNull } from '../../graphql/ids.js';
import { Checks, isBlank } from '../../graphql/validation.js';
import { claimCoupons, couponFits } from './order.coupons.js';
import { disagreeing, itemPrice, orderPrice, type ItemPrice } from './order.pricing.js';
import { paymentOptions, type orderItems, type PaymentOptionRow } from './order.table.js';

/** An item as a client sends it (createOrder's and the import's item inputs both fit). */
export interface ItemRequest {
  paymentOptionId?: string | null;
  couponTokenId?: string | null;
  couponToken?: string | null;
  quantity?: number | null;
  total?: number | null;
  amountToPay?: number | null;
  totalInCredits?: number | null;
  amountToPayInCredits?: number | null;
}

const MAX_CENTS = 2 ** 31 - 1;

export type PricedItem = Omit<typeof orderItems.$inferInsert, 'orderId' | 'amountToPay'> & ItemPrice & { schoolProductId: number | null };

interface PriceOptions {
  at: Date;
  write: boolean;
  /**
   * `strict` (createOrder): a given price that disagrees with the computed one is a 422
   * `price_mismatch` naming the field. `history` (importOrder): the given prices are kept and the
   * item and order are flagged `priceOverridden`.
   */
  mode: 'strict' | 'history';
}

/**
 * Prices an order's items (order.pricing.ts) and claims their coupons (order.coupons.ts), in the
 * order's transaction. Problems go to `checks.nested(field, i)`; the caller throws them.
 */
export async function priceItems(
  tx: Queryable,
  schoolId: number,
  checks: Checks,
  field: string,
  requests: ItemRequest[],
  order: { couponId: number | null; total?: number | null; amountToPay?: number | null },
  options: PriceOptions,
) {
  const itemChecks = requests.map((_, i) => checks.nested(field, i));
  // The import's body requires the quantity (the spec); a new order's item buys one unless told.
  const quantityOf = (r: ItemRequest) => (options.mode === 'strict' ? (r.quantity ?? 1) : r.quantity);
  const optionIds = requests.map((r, i) => {
    itemChecks[i].required('paymentOptionId', r.paymentOptionId).required('quantity', quantityOf(r)).range('quantity', r.quantity, 1);
    for (const f of ['total', 'amountToPay', 'totalInCredits', 'amountToPayInCredits'] as const) itemChecks[i].range(f, r[f], 0);
    return isBlank(r.paymentOptionId) ? null : idOrNull(r.paymentOptionId);
  });
  const wanted = [...new Set(optionIds.filter((id): id is number => id !== null))];
  const options_: PaymentOptionRow[] = wanted.length
    ? await tx.select().from(paymentOptions).where(and(eq(paymentOptions.schoolId, schoolId), inArray(paymentOptions.id, wanted)))
    : [];
  const optionOf = (i: number) => options_.find((o) => o.id === optionIds[i]) ?? null;
  requests.forEach((r, i) => {
    if (!isBlank(r.paymentOptionId) && !optionOf(i)) itemChecks[i].add('paymentOptionId', 'not_found', 'must exist in this school');
  });

  const claimed = await claimCoupons(
    tx,
    schoolId,
    requests.map((r, i) => {
      const byId = isBlank(r.couponTokenId) ? null : idOrNull(r.couponTokenId);
      if (!isBlank(r.couponTokenId) && byId === null) itemChecks[i].add('couponTokenId', 'not_found', 'must be a coupon token of this school');
      return {
        checks: itemChecks[i],
        field: isBlank(r.couponTokenId) ? 'couponToken' : 'couponTokenId',
        tokenId: byId,
        token: byId === null && !isBlank(r.couponToken) ? r.couponToken!.trim() : null,
        productId: optionOf(i)?.schoolProductId ?? null,
      };
    }),
    { checks, couponId: order.couponId, productIds: requests.map((_, i) => optionOf(i)?.schoolProductId ?? null) },
    { at: options.at, write: options.write, lenient: options.mode === 'history' },
  );

  let overridden = false;
  const items: PricedItem[] = requests.map((r, i) => {
    const option = optionOf(i);
    const productId = option?.schoolProductId ?? null;
    // The token's coupon, else the order's when it fits the item's product.
    const coupon = claimed.tokenCoupons[i] ?? (claimed.orderCoupon && couponFits(claimed.orderCoupon, productId) ? claimed.orderCoupon : null);
    let quantity = quantityOf(r);
    // Amounts are int4 cents: a quantity whose total would not fit is refused rather than overflowing.
    const unit = option ? Math.max(option.price, option.priceInCredits ?? 0) : 0;
    if (option && quantity && unit * quantity > MAX_CENTS) {
      itemChecks[i].add('quantity', 'less_than_or_equal_to', undefined, Math.floor(MAX_CENTS / unit));
      quantity = null;
    }
    const computed: ItemPrice = option && quantity ? itemPrice(option, quantity, coupon) : { total: 0, amountToPay: 0, totalInCredits: null, amountToPayInCredits: null };
    const given = { total: r.total, amountToPay: r.amountToPay, totalInCredits: r.totalInCredits, amountToPayInCredits: r.amountToPayInCredits };
    const differing = disagreeing(given, computed);
    let price = computed;
    if (options.mode === 'strict') for (const f of differing) itemChecks[i].add(f, 'price_mismatch', `must be ${computed[f]} (computed from the payment option, quantity and coupon)`);
    else if (differing.length) {
      // History is kept as it was: the given amounts, flagged.
      overridden = true;
      price = { ...computed, ...Object.fromEntries(differing.map((f) => [f, given[f]])) };
    }
    return {
      schoolId,
      paymentOptionId: option?.id ?? 0,
      couponTokenId: claimed.tokenIds[i],
      quantity: quantity ?? 1,
      ...price,
      priceOverridden: options.mode === 'history' && differing.length > 0,
      schoolProductId: productId,
    };
  });

  const computedOrder = orderPrice(items);
  const differing = disagreeing({ total: order.total, amountToPay: order.amountToPay }, computedOrder);
  let price = computedOrder;
  if (options.mode === 'strict') for (const f of differing) checks.add(f, 'price_mismatch', `must be ${computedOrder[f]} (the sum of the items)`);
  else if (differing.length) {
    overridden = true;
    price = { ...computedOrder, ...Object.fromEntries(differing.map((f) => [f, order[f]])) };
  }
  return { items, price, overridden, coupon: claimed.orderCoupon };
}
