import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { encryptSecret, secretHint } from '../../auth/secrets.js';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { AppError } from '../../graphql/errors.js';
import { given, idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { CouponInput, CouponTokenInput, CouponTokensArgs, GatewayCredentialInput, PaymentOptionInput, PaymentOptionsArgs } from './billing.input.js';
import {
  Coupon,
  CouponConnection,
  CouponToken,
  CouponTokenConnection,
  GatewayCredential,
  GatewayCredentialConnection,
  PaymentOption,
  PaymentOptionConnection,
} from './billing.type.js';
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

export const PaymentOptionPayload = Payload(PaymentOption, 'paymentOption');
export const CouponPayload = Payload(Coupon, 'coupon');
export const CouponTokenPayload = Payload(CouponToken, 'couponToken');
export const GatewayCredentialPayload = Payload(GatewayCredential, 'gatewayCredential');
uniqueConstraintField('coupons_school_id_code_key', 'code');
uniqueConstraintField('coupon_tokens_school_id_token_key', 'token');

/** A filter argument that must hold an id: anything else is a malformed request. */
export function filterId(value: string | null | undefined, field: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const id = idOrNull(value);
  if (id === null) throw new AppError('bad_request', `${field} is not an id`, [field]);
  return id;
}

@Resolver(() => PaymentOption)
export class PaymentOptionResolver {
  @Query(() => PaymentOption)
  paymentOption(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, paymentOptionById, parseId(id, 'PaymentOption'), 'PaymentOption');
  }

  @Query(() => PaymentOptionConnection)
  paymentOptions(@Args(() => PaymentOptionsArgs) args: PaymentOptionsArgs, @Ctx() ctx: Context) {
    const productId = filterId(args.schoolProductId, 'schoolProductId');
    const byProduct = productId === undefined ? undefined : eq(paymentOptions.schoolProductId, productId);
    return paginate(ctx, paymentOptions, and(inSchool(ctx, paymentOptions.schoolId), byProduct), args);
  }

  @Mutation(() => PaymentOptionPayload)
  createPaymentOption(@Arg('input', () => PaymentOptionInput) input: PaymentOptionInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'paymentOption', async (tx) => {
      const values = await paymentOptionValues(tx, schoolId, input, true);
      const [row] = await tx
        .insert(paymentOptions)
        .values({ ...values, name: values.name!, price: values.price!, schoolId })
        .returning();
      return row;
    });
  }

  @Mutation(() => PaymentOptionPayload)
  updatePaymentOption(@Arg('id', () => ID) id: string, @Arg('input', () => PaymentOptionInput) input: PaymentOptionInput, @Ctx() ctx: Context) {
    const optionId = parseId(id, 'PaymentOption');
    return mutate(ctx, 'paymentOption', async (tx) => {
      const current = await lockOwned(tx, ctx, paymentOptions, optionId, 'PaymentOption');
      const values = await paymentOptionValues(tx, current.schoolId, input, false);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(paymentOptions).set(values).where(eq(paymentOptions.id, optionId)).returning();
      return row;
    });
  }

  @FieldResolver(() => SchoolProduct, { nullable: true })
  schoolProduct(@Root() option: PaymentOptionRow, @Ctx() ctx: Context) {
    return option.schoolProductId ? ctx.loaders.get(schoolProductById).load(option.schoolProductId) : null;
  }
}

async function paymentOptionValues(tx: Queryable, schoolId: number, input: PaymentOptionInput, creating: boolean) {
  const checks = new Checks();
  if (creating) checks.required('name', input.name).required('price', input.price);
  else checks.notCleared('name', input.name).notCleared('price', input.price);
  checks.range('price', input.price, 0).range('installmentsMax', input.installmentsMax, 1);
  const productId = await existingId(tx, checks, 'schoolProductId', schoolProducts, input.schoolProductId, schoolId);
  checks.throwIfAny();
  const { schoolProductId, ...rest } = given(input);
  const values = rest as Partial<typeof paymentOptions.$inferInsert>;
  if (schoolProductId !== undefined) values.schoolProductId = productId;
  if (typeof values.name === 'string') values.name = values.name.trim();
  return values;
}

@Resolver(() => Coupon)
export class CouponResolver {
  @Query(() => Coupon)
  coupon(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, couponById, parseId(id, 'Coupon'), 'Coupon');
  }

  @Query(() => CouponConnection)
  coupons(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, coupons, inSchool(ctx, coupons.schoolId), args);
  }

  @Mutation(() => CouponPayload)
  createCoupon(@Arg('input', () => CouponInput) input: CouponInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'coupon', async (tx) => {
      const values = couponValues(input);
      const [row] = await tx.insert(coupons).values({ ...values, code: values.code!, schoolId }).returning();
      return row;
    });
  }

  @Mutation(() => CouponPayload)
  updateCoupon(@Arg('id', () => ID) id: string, @Arg('input', () => CouponInput) input: CouponInput, @Ctx() ctx: Context) {
    const couponId = parseId(id, 'Coupon');
    return mutate(ctx, 'coupon', async (tx) => {
      const current = await lockOwned(tx, ctx, coupons, couponId, 'Coupon');
      const values = couponValues(input, current);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(coupons).set(values).where(eq(coupons.id, couponId)).returning();
      return row;
    });
  }
}

/** A coupon as it will be (`current` + `input`) gives a percentage or an amount, not both. */
function couponValues(input: CouponInput, current?: CouponRow) {
  const checks = new Checks();
  if (current) checks.notCleared('code', input.code);
  else checks.required('code', input.code);
  checks.range('discountPercent', input.discountPercent, 0, 100).range('discountAmount', input.discountAmount, 0);
  const after = { ...current, ...given(input) };
  const percent = after.discountPercent !== null && after.discountPercent !== undefined;
  const amount = after.discountAmount !== null && after.discountAmount !== undefined;
  if (percent && amount) checks.add('discountAmount', 'present', 'must be blank when discount_percent is given');
  if (!percent && !amount) checks.add('discountPercent', 'blank', "can't be blank when discount_amount is blank");
  checks.throwIfAny();
  const values = given(input) as Partial<typeof coupons.$inferInsert>;
  if (typeof values.code === 'string') values.code = values.code.trim();
  if (values.active === null) delete values.active;
  return values;
}

@Resolver(() => CouponToken)
export class CouponTokenResolver {
  @Query(() => CouponToken)
  couponToken(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, couponTokenById, parseId(id, 'CouponToken'), 'CouponToken');
  }

  @Query(() => CouponTokenConnection)
  couponTokens(@Args(() => CouponTokensArgs) args: CouponTokensArgs, @Ctx() ctx: Context) {
    const couponId = filterId(args.couponId, 'couponId');
    const used = args.used === true ? isNotNull(couponTokens.usedAt) : args.used === false ? isNull(couponTokens.usedAt) : undefined;
    return paginate(
      ctx,
      couponTokens,
      and(inSchool(ctx, couponTokens.schoolId), couponId === undefined ? undefined : eq(couponTokens.couponId, couponId), used),
      args,
    );
  }

  @Mutation(() => CouponTokenPayload)
  createCouponToken(@Arg('input', () => CouponTokenInput) input: CouponTokenInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'couponToken', async (tx) => {
      const checks = new Checks().required('couponId', input.couponId);
      const couponId = await existingId(tx, checks, 'couponId', coupons, input.couponId, schoolId);
      if (input.token !== undefined && input.token !== null && input.token.trim() === '') checks.add('token', 'blank');
      checks.throwIfAny();
      const token = input.token?.trim() || randomBytes(9).toString('base64url').toUpperCase();
      const [row] = await tx
        .insert(couponTokens)
        .values({ schoolId, couponId: couponId!, token, usedAt: input.usedAt ?? null })
        .returning();
      return row;
    });
  }

  @Mutation(() => CouponTokenPayload)
  updateCouponToken(@Arg('id', () => ID) id: string, @Arg('input', () => CouponTokenInput) input: CouponTokenInput, @Ctx() ctx: Context) {
    const tokenId = parseId(id, 'CouponToken');
    return mutate(ctx, 'couponToken', async (tx) => {
      const current = await lockOwned(tx, ctx, couponTokens, tokenId, 'CouponToken');
      const checks = new Checks().notCleared('couponId', input.couponId).notCleared('token', input.token);
      const couponId = await existingId(tx, checks, 'couponId', coupons, input.couponId, current.schoolId);
      checks.throwIfAny();
      const values: Partial<typeof couponTokens.$inferInsert> = {};
      if (couponId) values.couponId = couponId;
      if (input.token) values.token = input.token.trim();
      if (input.usedAt !== undefined) values.usedAt = input.usedAt;
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(couponTokens).set(values).where(eq(couponTokens.id, tokenId)).returning();
      return row;
    });
  }

  @FieldResolver(() => Coupon, { nullable: true })
  coupon(@Root() token: CouponTokenRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(couponById).load(token.couponId);
  }
}

@Resolver(() => GatewayCredential)
export class GatewayCredentialResolver {
  @Query(() => GatewayCredential)
  gatewayCredential(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, gatewayCredentialById, parseId(id, 'GatewayCredential'), 'GatewayCredential');
  }

  @Query(() => GatewayCredentialConnection)
  gatewayCredentials(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, gatewayCredentials, inSchool(ctx, gatewayCredentials.schoolId), args);
  }

  @Mutation(() => GatewayCredentialPayload)
  createGatewayCredential(@Arg('input', () => GatewayCredentialInput) input: GatewayCredentialInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'gatewayCredential', async (tx) => {
      const values = gatewayCredentialValues(input, true);
      const [row] = await tx
        .insert(gatewayCredentials)
        .values({ ...values, gateway: values.gateway!, schoolId })
        .returning();
      return row;
    });
  }

  @Mutation(() => GatewayCredentialPayload, { description: 'Updates a gateway account; a secretKey replaces the stored one, null removes it.' })
  updateGatewayCredential(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => GatewayCredentialInput) input: GatewayCredentialInput,
    @Ctx() ctx: Context,
  ) {
    const credentialId = parseId(id, 'GatewayCredential');
    return mutate(ctx, 'gatewayCredential', async (tx) => {
      const current = await lockOwned(tx, ctx, gatewayCredentials, credentialId, 'GatewayCredential');
      const values = gatewayCredentialValues(input, false);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(gatewayCredentials).set(values).where(eq(gatewayCredentials.id, credentialId)).returning();
      return row;
    });
  }
}

/** The columns of a gateway credential input: the secret key encrypted (src/auth/secrets.ts) and its hint. */
function gatewayCredentialValues(input: GatewayCredentialInput, creating: boolean) {
  const checks = new Checks();
  if (creating) checks.required('gateway', input.gateway);
  else checks.notCleared('gateway', input.gateway).notCleared('environment', input.environment);
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
