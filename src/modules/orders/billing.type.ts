import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { gatewayEnvironment } from './order.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

export const GatewayEnvironmentEnum = graphqlEnum('GatewayEnvironment', gatewayEnvironment.enumValues, 'sandbox: test charges; production: real ones.');

@Timestamped()
@ObjectType({ description: 'A way to buy a school product: a price (integer cents) and how many installments it may be split into.' })
export class PaymentOption extends SchoolRecord {
  @Field(() => ID, { nullable: true }) schoolProductId!: number | null;
  @Field(() => String) name!: string;
  @Field(() => Int, { description: 'Price in cents.' }) price!: number;
  @Field(() => Int, { nullable: true, description: "Price in the school's credits (none: not payable in credits)." }) priceInCredits!: number | null;
  @Field(() => Int, { nullable: true, description: 'At most this many credit-card installments (1 or more).' }) installmentsMax!: number | null;
}

@Timestamped()
@ObjectType({ description: 'A discount: a percentage or an amount in cents (one of the two). Its code is unique in the school.' })
export class Coupon extends SchoolRecord {
  @Field(() => String) code!: string;
  @Field(() => Int, { nullable: true, description: '0..100.' }) discountPercent!: number | null;
  @Field(() => Int, { nullable: true, description: 'Cents off.' }) discountAmount!: number | null;
  @Field(() => Boolean) active!: boolean;
  @Field(() => Date, { nullable: true, description: 'Valid from this time (none: already).' }) validFrom!: Date | null;
  @Field(() => Date, { nullable: true, description: 'Valid until this time, excluded (none: forever).' }) validUntil!: Date | null;
  @Field(() => Int, { nullable: true, description: 'How many orders may use it (none: unlimited).' }) maxUses!: number | null;
  @Field(() => Int, { description: 'How many orders used it (an order, or a coupon token, counts one).' }) usesCount!: number;
  @Field(() => ID, { nullable: true, description: 'Only items of this school product take the discount (none: every product).' }) schoolProductId!: number | null;
}

@Timestamped()
@ObjectType({ description: 'A single-use token of a coupon, unique in the school; usedAt is set when an order item uses it.' })
export class CouponToken extends SchoolRecord {
  @Field(() => ID) couponId!: number;
  @Field(() => String) token!: string;
  @Field(() => Date, { nullable: true }) usedAt!: Date | null;
}

@Timestamped()
@ObjectType({
  description:
    "A school's account at a payment gateway. The secret key is write-only: stored encrypted (AES-256-GCM), never returned; secretKeyHint shows its last characters.",
})
export class GatewayCredential extends SchoolRecord {
  @Field(() => String, { description: 'The gateway (pagarme, stripe, ...).' }) gateway!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => GatewayEnvironmentEnum) environment!: string;
  @Field(() => String, { nullable: true }) publicKey!: string | null;
  @Field(() => String, { nullable: true, description: 'The secret key masked (`****abcd`), null when none is stored.' })
  secretKeyHint!: string | null;
}

export const PaymentOptionConnection = connectionType(PaymentOption);
export const CouponConnection = connectionType(Coupon);
export const CouponTokenConnection = connectionType(CouponToken);
export const GatewayCredentialConnection = connectionType(GatewayCredential);
