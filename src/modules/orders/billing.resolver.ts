import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { and, isNotNull, isNull } from 'drizzle-orm';
import { Resolver } from 'type-graphql';
import { encryptSecret, secretHint } from '../../auth/secrets.js';
import type { Queryable } from '../../db/client.js';
import { rowMatch } from '../../graphql/filters.js';
import { given } from '../../graphql/ids.js';
import { uniqueConstraintField } from '../../graphql/mutation.js';
import { existingId } from '../../graphql/references.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { CouponInput, CouponsArgs, CouponTokenInput, CouponTokensArgs, GatewayCredentialInput, PaymentOptionInput, PaymentOptionsArgs } from './billing.input.js';
import {
  Coupon,
  CouponToken,
  GatewayCredential,
  PaymentOption,
} from './billing.type.js';
import { createGatewaySigningSecret } from './gateway-signing.js';
import { couponById, couponTokenById, gatewayCredentialById, paymentOptionById } from './order.loaders.js';
import {
  couponTokens,
  coupons,
  gatewayCredentials,
  paymentOptions,
  type CouponRow,
  type CouponTokenRow,
  type PaymentOptionRow,
} from './order.table.js';

/**
 * The objects an order references (PaymentOption, Coupon, CouponToken, GatewayCredential): read
 * and written by staff; payment options are readable by every role (students see prices).
 */

uniqueConstraintField('coupons_school_id_code_key', 'code');
uniqueConstraintField('coupon_tokens_school_id_token_key', 'token');

@Resolver(() => PaymentOption)
@RelationFields<PaymentOptionRow>({
  schoolProduct: { type: () => SchoolProduct, loader: schoolProductById, key: 'schoolProductId', nullable: true },
})
export class PaymentOptionResolver extends resourceResolver({
  type: PaymentOption,
  byId: paymentOptionById,
  columns: (tx, input: PaymentOptionInput, { schoolId, current }) => paymentOptionValues(tx, schoolId, input, !current),
  listArgs: PaymentOptionsArgs,
  // A school product of another school is a 404, as under /school_products/:id/payment_options.
  listWhere: (ctx, args: PaymentOptionsArgs) => rowMatch(ctx, paymentOptions.schoolProductId, schoolProductById, args.schoolProductId, 'SchoolProduct'),
  omit: ['delete'],
}) {}

async function paymentOptionValues(tx: Queryable, schoolId: number, input: PaymentOptionInput, creating: boolean) {
  const checks = new Checks().present(creating, 'name', input.name).present(creating, 'price', input.price);
  checks.range('price', input.price, 0).range('priceInCredits', input.priceInCredits, 0).range('installmentsMax', input.installmentsMax, 1);
  const productId = await existingId(tx, checks, 'schoolProductId', schoolProducts, input.schoolProductId, schoolId);
  checks.throwIfAny();
  const { schoolProductId, ...rest } = given(input);
  const values = rest as Partial<typeof paymentOptions.$inferInsert>;
  if (schoolProductId !== undefined) values.schoolProductId = productId;
  if (typeof values.name === 'string') values.name = values.name.trim();
  return values;
}

@Resolver(() => Coupon)
export class CouponResolver extends resourceResolver({
  type: Coupon,
  byId: couponById,
  columns: (tx, input: CouponInput, { schoolId, current }) => couponValues(tx, schoolId, input, current),
  listArgs: CouponsArgs,
  listWhere: (ctx, args: CouponsArgs) => rowMatch(ctx, coupons.schoolProductId, schoolProductById, args.schoolProductId, 'SchoolProduct'),
  omit: ['delete'],
}) {}

/**
 * A coupon as it will be (`current` + `input`) gives a percentage or an amount, not both; its
 * window ends after it starts; its product is one of the school's.
 */
async function couponValues(tx: Queryable, schoolId: number, input: CouponInput, current?: CouponRow) {
  const checks = new Checks().present(!current, 'code', input.code);
  checks.range('discountPercent', input.discountPercent, 0, 100).range('discountAmount', input.discountAmount, 0).range('maxUses', input.maxUses, 1);
  const productId = await existingId(tx, checks, 'schoolProductId', schoolProducts, input.schoolProductId, schoolId);
  const after = { ...current, ...given(input) };
  if (after.validFrom && after.validUntil && after.validUntil <= after.validFrom) checks.add('validUntil', 'greater_than', 'must be after valid_from');
  const percent = after.discountPercent !== null && after.discountPercent !== undefined;
  const amount = after.discountAmount !== null && after.discountAmount !== undefined;
  if (percent && amount) checks.add('discountAmount', 'present', 'must be blank when discount_percent is given');
  if (!percent && !amount) checks.add('discountPercent', 'blank', "can't be blank when discount_amount is blank");
  checks.throwIfAny();
  const { schoolProductId, ...rest } = given(input);
  const values = rest as Partial<typeof coupons.$inferInsert>;
  if (schoolProductId !== undefined) values.schoolProductId = productId;
  if (typeof values.code === 'string') values.code = values.code.trim();
  if (values.active === null) delete values.active;
  return values;
}

/** A token of a coupon of the school: a token given, or a random one on create. */
async function couponTokenValues(tx: Queryable, schoolId: number, input: CouponTokenInput, current?: CouponTokenRow) {
  const checks = new Checks().present(!current, 'couponId', input.couponId);
  if (current) checks.notCleared('token', input.token);
  const couponId = await existingId(tx, checks, 'couponId', coupons, input.couponId, schoolId);
  if (!current && input.token !== undefined && input.token !== null && input.token.trim() === '') checks.add('token', 'blank');
  checks.throwIfAny();
  if (!current) return { couponId: couponId!, token: input.token?.trim() || randomBytes(9).toString('base64url').toUpperCase(), usedAt: input.usedAt ?? null };
  const values: Partial<typeof couponTokens.$inferInsert> = {};
  if (couponId) values.couponId = couponId;
  if (input.token) values.token = input.token.trim();
  if (input.usedAt !== undefined) values.usedAt = input.usedAt;
  return values;
}

@Resolver(() => CouponToken)
@RelationFields<CouponTokenRow>({
  coupon: { type: () => Coupon, loader: couponById, key: 'couponId', nullable: true },
})
export class CouponTokenResolver extends resourceResolver({
  type: CouponToken,
  byId: couponTokenById,
  columns: (tx, input: CouponTokenInput, { schoolId, current }) => couponTokenValues(tx, schoolId, input, current),
  listArgs: CouponTokensArgs,
  // A coupon of another school is a 404, as under /coupons/:id/tokens.
  listWhere: async (ctx, args: CouponTokensArgs) => {
    const used = args.used === true ? isNotNull(couponTokens.usedAt) : args.used === false ? isNull(couponTokens.usedAt) : undefined;
    return and(await rowMatch(ctx, couponTokens.couponId, couponById, args.couponId, 'Coupon'), used);
  },
  omit: ['delete'],
}) {
}

@Resolver(() => GatewayCredential)
export class GatewayCredentialResolver extends resourceResolver({
  type: GatewayCredential,
  byId: gatewayCredentialById,
  columns: (_tx, input: GatewayCredentialInput, { current }) => gatewayCredentialValues(input, !current),
  // The callbacks' signing secret, shown this once (GatewayCredential.signingSecret).
  created: async (tx, row) => ({ ...row, signingSecret: await createGatewaySigningSecret(tx, row) }),
  descriptions: { update: 'Updates a gateway account; a secretKey replaces the stored one, null removes it.' },
  omit: ['delete'],
}) {}

/** The columns of a gateway credential input: the secret key encrypted (src/auth/secrets.ts) and its hint. */
function gatewayCredentialValues(input: GatewayCredentialInput, creating: boolean) {
  const checks = new Checks().present(creating, 'gateway', input.gateway);
  if (!creating) checks.notCleared('environment', input.environment);
  if (input.secretKey !== undefined && input.secretKey !== null && input.secretKey.trim() === '') checks.add('secretKey', 'blank');
  checks.throwIfAny();
  const { secretKey, ...rest } = given(input);
  const values = rest as Partial<typeof gatewayCredentials.$inferInsert>;
  if (typeof values.gateway === 'string') values.gateway = values.gateway.trim();
  if (values.environment === null) delete values.environment;
  if (secretKey === null) Object.assign(values, { secretKeyCiphertext: null, secretKeyHint: null });
  else if (typeof secretKey === 'string') {
    const key = secretKey.trim();
    Object.assign(values, { secretKeyCiphertext: encryptSecret(key), secretKeyHint: secretHint(key) });
  }
  return values;
}
