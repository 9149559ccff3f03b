import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { GatewayEnvironmentEnum } from './billing.type.js';
import { RequiredFields } from '../../graphql/required-fields.js';

/** Create and update take the same fields; name and price are required on create. */
@InputType()
@RequiredFields('name', 'price')
export class PaymentOptionInput {
  @Field(() => ID, { nullable: true, description: 'The school product it sells.' }) schoolProductId?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Int, { nullable: true, description: 'In cents, 0 or more.' }) price?: number | null;
  @Field(() => Int, { nullable: true, description: 'In credits, 0 or more (none: not payable in credits).' }) priceInCredits?: number | null;
  @Field(() => Int, { nullable: true, description: '1 or more.' }) installmentsMax?: number | null;
}

@InputType({ description: 'code is required on create; a coupon gives discountPercent or discountAmount, not both.' })
@RequiredFields('code')
export class CouponInput {
  @Field(() => String, { nullable: true }) code?: string | null;
  @Field(() => Int, { nullable: true, description: '0..100.' }) discountPercent?: number | null;
  @Field(() => Int, { nullable: true, description: 'Cents, 0 or more.' }) discountAmount?: number | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
  @Field(() => Date, { nullable: true }) validFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Excluded; after validFrom.' }) validUntil?: Date | null;
  @Field(() => Int, { nullable: true, description: '1 or more (none: unlimited).' }) maxUses?: number | null;
  @Field(() => ID, { nullable: true, description: 'A school product of the school: the coupon discounts only its items.' }) schoolProductId?: string | null;
}

@InputType()
@RequiredFields('couponId')
export class CouponTokenInput {
  @Field(() => ID, { nullable: true, description: 'Required on create: a coupon of the school.' }) couponId?: string | null;
  @Field(() => String, { nullable: true, description: 'Generated when omitted on create.' }) token?: string | null;
  @Field(() => Date, { nullable: true }) usedAt?: Date | null;
}

@InputType({ description: 'gateway is required on create. secretKey is write-only: stored encrypted, never returned; null removes it.' })
@RequiredFields('gateway')
export class GatewayCredentialInput {
  @Field(() => String, { nullable: true }) gateway?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => GatewayEnvironmentEnum, { nullable: true, description: 'Default sandbox.' }) environment?: 'sandbox' | 'production' | null;
  @Field(() => String, { nullable: true }) publicKey?: string | null;
  @Field(() => String, { nullable: true }) secretKey?: string | null;
}

@ArgsType()
export class PaymentOptionsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) schoolProductId?: string | null;
}

@ArgsType()
export class CouponsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "Only this school product's coupons (404 for a product of another school)." }) schoolProductId?: string | null;
}

@ArgsType()
export class CouponTokensArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) couponId?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true: used tokens only; false: unused only.' }) used?: boolean | null;
}
