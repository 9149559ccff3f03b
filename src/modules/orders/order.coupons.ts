import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { Checks } from '../../graphql/validation.js';
import { couponTokens, coupons, type CouponRow, type CouponTokenRow } from './order.table.js';

/**
 * Coupons as an order uses them. A coupon applies when it is active, `at` is inside its validity
 * window [validFrom, validUntil), it has uses left (`usesCount` < `maxUses`; an order counts one use
 * of its coupon, a coupon token one use of the token's coupon) and, for an item, the item's product
 * is the coupon's product (a coupon without product fits every item).
 *
 * A coupon token is single-use. It is claimed in the order's transaction under a row lock
 * (`SELECT … FOR UPDATE` on the token, then on the coupons, each in id order so that two orders
 * never wait for each other in a circle): a concurrent order on the same token waits for the first
 * transaction, then reads the token used and is refused (`coupon_used`). The coupon's `usesCount`
 * moves under the same kind of lock, so `maxUses` holds under concurrency too.
 */

/** One use of a coupon token by an item: the token named by id or by its text, where errors go. */
export interface TokenUse {
  checks: Checks;
  field: string;
  tokenId: number | null;
  token: string | null;
  productId: number | null;
}

export interface Claimed {
  /** The coupon of each token use (null when it has none, or, in `lenient` mode, when it does not apply). */
  tokenCoupons: (CouponRow | null)[];
  tokenIds: (number | null)[];
  /** The order's coupon, when given and usable. */
  orderCoupon: CouponRow | null;
}

interface ClaimOptions {
  /** When the coupons are judged (an import: its order's createdAt). */
  at: Date;
  /** Write the claim (mark tokens used, count uses); a dry run only checks. */
  write: boolean;
  /**
   * An import of history: a used token is still refused, but a coupon out of its window, used up or
   * of another product is no error; it gives no discount, and the prices will say so (priceOverridden).
   */
  lenient: boolean;
}

/** Why a coupon cannot be used at `at` for `uses` more uses, or null. */
function couponProblem(coupon: CouponRow, at: Date, uses: number): { code: 'inactive' | 'coupon_expired' | 'coupon_exhausted'; message: string } | null {
  if (!coupon.active) return { code: 'inactive', message: 'is not active' };
  if ((coupon.validFrom && at < coupon.validFrom) || (coupon.validUntil && at >= coupon.validUntil))
    return { code: 'coupon_expired', message: 'is outside its validity window' };
  if (coupon.maxUses !== null && coupon.usesCount + uses > coupon.maxUses) return { code: 'coupon_exhausted', message: `has no uses left (at most ${coupon.maxUses})` };
  return null;
}

export const couponFits = (coupon: Pick<CouponRow, 'schoolProductId'>, productId: number | null) =>
  coupon.schoolProductId === null || coupon.schoolProductId === productId;

/**
 * Locks, checks and (with `write`) consumes the coupon tokens of the items and the order's coupon.
 * Problems go into each use's checks; the caller throws them (rolling the claim back).
 */
export async function claimCoupons(
  tx: Queryable,
  schoolId: number,
  uses: TokenUse[],
  order: { checks: Checks; couponId: number | null; productIds: (number | null)[] },
  options: ClaimOptions,
): Promise<Claimed> {
  const ids = uses.flatMap((u) => (u.tokenId !== null ? [u.tokenId] : []));
  const texts = uses.flatMap((u) => (u.tokenId === null && u.token !== null ? [u.token] : []));
  const tokens: CouponTokenRow[] =
    ids.length || texts.length
      ? await tx
          .select()
          .from(couponTokens)
          .where(
            and(
              eq(couponTokens.schoolId, schoolId),
              or(ids.length ? inArray(couponTokens.id, ids) : undefined, texts.length ? inArray(couponTokens.token, texts) : undefined),
            ),
          )
          .orderBy(asc(couponTokens.id))
          .for('update')
      : [];
  const couponIds = [...new Set([...tokens.map((t) => t.couponId), ...(order.couponId !== null ? [order.couponId] : [])])];
  const couponRows: CouponRow[] = couponIds.length
    ? await tx
        .select()
        .from(coupons)
        .where(and(eq(coupons.schoolId, schoolId), inArray(coupons.id, couponIds)))
        .orderBy(asc(coupons.id))
        .for('update')
    : [];
  const couponById = new Map(couponRows.map((c) => [c.id, c]));

  const usesOf = new Map<number, number>();
  const claimedTokens = new Set<number>();
  const tokenIds: (number | null)[] = [];
  const tokenCoupons = uses.map((use) => {
    const token = tokens.find((t) => (use.tokenId !== null ? t.id === use.tokenId : t.token === use.token));
    tokenIds.push(token?.id ?? null);
    if (use.tokenId === null && use.token === null) return null;
    if (!token) {
      use.checks.add(use.field, 'not_found', 'must be a coupon token of this school');
      return null;
    }
    if (token.usedAt || claimedTokens.has(token.id)) {
      use.checks.add(use.field, 'coupon_used', 'has already been used (a coupon token is single-use)');
      return null;
    }
    claimedTokens.add(token.id);
    const coupon = couponById.get(token.couponId)!;
    usesOf.set(coupon.id, (usesOf.get(coupon.id) ?? 0) + 1);
    const problem = couponProblem(coupon, options.at, usesOf.get(coupon.id)!);
    const fits = couponFits(coupon, use.productId);
    if (options.lenient) return problem || !fits ? null : coupon;
    if (problem) use.checks.add(use.field, problem.code, `its coupon ${problem.message}`);
    else if (!fits) use.checks.add(use.field, 'coupon_not_applicable', "its coupon is for another school product");
    return coupon;
  });

  let orderCoupon: CouponRow | null = null;
  if (order.couponId !== null) {
    const coupon = couponById.get(order.couponId);
    if (!coupon) order.checks.add('couponId', 'not_found', 'must exist in this school');
    else {
      usesOf.set(coupon.id, (usesOf.get(coupon.id) ?? 0) + 1);
      const problem = couponProblem(coupon, options.at, usesOf.get(coupon.id)!);
      const fitsAny = order.productIds.length === 0 || order.productIds.some((p) => couponFits(coupon, p));
      if (!options.lenient && problem) order.checks.add('couponId', problem.code, problem.message);
      else if (!options.lenient && !fitsAny) order.checks.add('couponId', 'coupon_not_applicable', "is for a school product none of the items buys");
      orderCoupon = problem ? null : coupon;
    }
  }

  if (options.write && order.checks.ok) {
    if (claimedTokens.size)
      await tx
        .update(couponTokens)
        .set({ usedAt: options.at })
        .where(inArray(couponTokens.id, [...claimedTokens]));
    for (const [id, n] of usesOf)
      await tx
        .update(coupons)
        .set({ usesCount: sql`${coupons.usesCount} + ${n}` })
        .where(eq(coupons.id, id));
  }
  return { tokenCoupons, tokenIds, orderCoupon };
}
