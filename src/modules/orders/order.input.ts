import 'reflect-metadata';
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { PAYMENT_KINDS } from './order.state.js';
import {
  InvoiceStatusEnum,
  ORDER_KIND_DESCRIPTION,
  ORDER_PERIOD_DESCRIPTION,
  OrderStatusEnum,
  PAYMENT_KIND_DESCRIPTION,
  PaymentStatusEnum,
} from './order.type.js';
import type { OrderStatus } from './order.state.js';
import { RequiredFields } from '../../graphql/required-fields.js';

type InvoiceStatus = 'unsent' | 'open' | 'waiting_confirmation' | 'paid' | 'unpaid' | 'overdue';
type PaymentStatus = 'unsent' | 'failed' | 'initiated' | 'under_analysis' | 'waiting_boleto' | 'canceled' | 'authorized' | 'confirmed' | 'reversed' | 'refunded';

/** A whole number given as a number or a string ("2" and 2), or a payment kind's name. */
function paymentKindValue(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^-?\d{1,9}$/.test(text)) return Number(text);
    const named = (PAYMENT_KINDS as readonly string[]).indexOf(text);
    if (named >= 0) return named;
  }
  throw new GraphQLError(`PaymentKind is a whole number 0..3 (as a number or a string) or one of ${PAYMENT_KINDS.join(', ')}`);
}

/**
 * The spec types a payment's kind as a String holding 0..3: this scalar takes `2` and `"2"` alike
 * (and the names credit_card, boleto, pix, external). Any whole number passes the type; the range
 * is a validation rule (a UserError), as the spec's other ranges are.
 */
export const PaymentKindScalar = new GraphQLScalarType({
  name: 'PaymentKind',
  description: `A payment kind, as an Int or a String ("2" and 2 alike) or its name (${PAYMENT_KINDS.join(', ')}): ${PAYMENT_KIND_DESCRIPTION}`,
  serialize: (value) => paymentKindValue(value),
  parseValue: (value) => paymentKindValue(value),
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || ast.kind === Kind.STRING) return paymentKindValue(ast.kind === Kind.INT ? Number(ast.value) : ast.value);
    throw new GraphQLError('PaymentKind is an Int or a String');
  },
});

@InputType({ description: 'An item of a new order: what it buys. Its prices are computed (order.pricing.ts); a given one must agree.' })
export class OrderItemInput {
  @Field(() => ID, { nullable: true, description: 'Required: a payment option of the school (its price and product).' }) paymentOptionId?: string | null;
  @Field(() => Int, { nullable: true, description: '1 or more (default 1).' }) quantity?: number | null;
  @Field(() => ID, { nullable: true, description: 'A single-use coupon token of the school, by id (consumed by this order).' }) couponTokenId?: string | null;
  @Field(() => String, { nullable: true, description: 'The same, by its text (what a buyer types).' }) couponToken?: string | null;
  @Field(() => Int, { nullable: true, description: 'Computed; when given, must agree (else price_mismatch).' }) total?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed; when given, must agree (else price_mismatch).' }) amountToPay?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed; when given, must agree (else price_mismatch).' }) totalInCredits?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed; when given, must agree (else price_mismatch).' }) amountToPayInCredits?: number | null;
}

/**
 * Create and update take the same fields (the spec lists student_id: required on create). The
 * status moves the order along its lifecycle (see OrderStatus); canceledAt, createdAt and the
 * items, invoices and payments are not writable here (cancelOrder, importOrder).
 */
@InputType()
@RequiredFields('studentId')
export class OrderInput {
  @Field(() => ID, { nullable: true, description: 'A student of the school; required on create.' }) studentId?: string | null;
  @Field(() => OrderStatusEnum, { nullable: true, description: 'On create: initiated (default), processing, no_wait_processing, or confirmed when there is nothing to pay (else payment_required).' })
  status?: OrderStatus | null;
  @Field(() => Int, { nullable: true, description: ORDER_KIND_DESCRIPTION }) kind?: number | null;
  @Field(() => Int, { nullable: true, description: ORDER_PERIOD_DESCRIPTION }) period?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed from the items; when given, must agree (else price_mismatch).' }) amountToPay?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed from the items; when given, must agree (else price_mismatch).' }) total?: number | null;
  @Field(() => ID, { nullable: true }) gatewayCredentialId?: string | null;
  @Field(() => ID, { nullable: true }) couponId?: string | null;
  @Field(() => Date, { nullable: true, description: 'Defaults to the time of confirmation.' }) confirmedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'A recurring order (kind 1 or 2 with a period): its next charge; default one period after confirmation.' })
  nextInvoiceAt?: Date | null;
  @Field(() => Int, { nullable: true, description: 'A recurring order: how many invoices it has in all, the first included (1 or more); none: until canceled.' })
  occurrences?: number | null;
  @Field(() => String, { nullable: true }) uuid?: string | null;
  @Field(() => String, { nullable: true }) gatewayReference?: string | null;
  @Field(() => String, { nullable: true }) response?: string | null;
  @Field(() => String, { nullable: true }) message?: string | null;
  @Field(() => Boolean, { nullable: true }) test?: boolean | null;
  @Field(() => Boolean, { nullable: true }) success?: boolean | null;
  @Field(() => [OrderItemInput], { nullable: true, description: 'On create only: the items, priced by the service; their coupon tokens are consumed.' })
  itemsAttributes?: OrderItemInput[] | null;
}

@ArgsType()
export class OrdersArgs extends ConnectionArgs {
  @Field(() => OrderStatusEnum, { nullable: true }) status?: OrderStatus | null;
  @Field(() => ID, { nullable: true }) studentId?: string | null;
  @Field(() => Date, { nullable: true, description: 'Orders created at or after this time.' }) createdFrom?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Orders created before this time.' }) createdTo?: Date | null;
}

// The import body (spec: "Order import body"). Every field is nullable in GraphQL: the required
// ones are checked by the resolver, so a missing one is a UserError naming its nested path.

@InputType({ description: 'A payment of an imported invoice.' })
export class ImportPaymentInput {
  @Field(() => ID, { nullable: true, description: "Required: the credential's school." }) schoolId?: string | null;
  @Field(() => PaymentKindScalar, { nullable: true, description: `Required, 0..3: ${PAYMENT_KIND_DESCRIPTION}` }) kind?: number | null;
  @Field(() => PaymentStatusEnum, { nullable: true, description: 'Required.' }) status?: PaymentStatus | null;
  @Field(() => Int, { nullable: true }) amount?: number | null;
  @Field(() => String, { nullable: true }) uuid?: string | null;
  @Field(() => String, { nullable: true }) gatewayReference?: string | null;
  @Field(() => String, { nullable: true }) link?: string | null;
  @Field(() => String, { nullable: true }) boletoCode?: string | null;
  @Field(() => String, { nullable: true }) cardholder?: string | null;
  @Field(() => String, { nullable: true }) response?: string | null;
  @Field(() => String, { nullable: true }) message?: string | null;
  @Field(() => Boolean, { nullable: true }) success?: boolean | null;
  @Field(() => Boolean, { nullable: true }) test?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Required (1 or more) for a common order (kind 0) paid by credit card (kind 0).' })
  installments?: number | null;
  @Field(() => Int, { nullable: true }) gatewayFees?: number | null;
  @Field(() => Date, { nullable: true, description: "Kept as given; defaults to the order's createdAt." }) createdAt?: Date | null;
}

@InputType({ description: 'An invoice of an imported order.' })
export class ImportInvoiceInput {
  @Field(() => ID, { nullable: true, description: "Required: the credential's school." }) schoolId?: string | null;
  @Field(() => Int, { nullable: true, description: 'Required, in cents.' }) amount?: number | null;
  @Field(() => Int, { nullable: true, description: 'Required: its place in the sequence of charges (0 or more).' }) occurrence?: number | null;
  @Field(() => InvoiceStatusEnum, { nullable: true, description: 'Required.' }) status?: InvoiceStatus | null;
  @Field(() => String, { nullable: true }) uuid?: string | null;
  @Field(() => Date, { nullable: true }) nextChargeAt?: Date | null;
  @Field(() => Date, { nullable: true, description: "Kept as given; defaults to the order's createdAt." }) createdAt?: Date | null;
  @Field(() => [ImportPaymentInput], { nullable: true }) paymentsAttributes?: ImportPaymentInput[] | null;
}

@InputType({ description: 'An item of an imported order.' })
export class ImportOrderItemInput {
  @Field(() => ID, { nullable: true, description: "Required: the credential's school." }) schoolId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Required.' }) paymentOptionId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Required: the coupon token used (an unused one: a used token is refused, coupon_used).' }) couponTokenId?: string | null;
  @Field(() => Int, { nullable: true, description: 'Required, 1 or more.' }) quantity?: number | null;
  @Field(() => Int, { nullable: true, description: 'Required: price without discounts, in cents. One that differs from the computed price is kept, flagged priceOverridden.' })
  total?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed when omitted; one that differs is kept, flagged priceOverridden.' }) amountToPay?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed when omitted; one that differs is kept, flagged priceOverridden.' }) amountToPayInCredits?: number | null;
  @Field(() => Int, { nullable: true, description: 'Computed when omitted; one that differs is kept, flagged priceOverridden.' }) totalInCredits?: number | null;
  @Field(() => Date, { nullable: true, description: "Kept as given; defaults to the order's createdAt." }) createdAt?: Date | null;
}

@InputType({
  description:
    'An order with its items, invoices and payments, created in one transaction (all or nothing). Idempotent on uuid. With createdAt given, the original times are kept and no event is emitted.',
})
@RequiredFields('schoolId', 'studentId')
export class ImportOrderInput {
  @Field(() => ID, { nullable: true, description: 'Required: a student of the school.' }) studentId?: string | null;
  @Field(() => ID, { nullable: true, description: "Required: the credential's school." }) schoolId?: string | null;
  @Field(() => ID, { nullable: true }) gatewayCredentialId?: string | null;
  @Field(() => ID, { nullable: true }) couponId?: string | null;
  @Field(() => Int, { nullable: true, description: "The items' sum when omitted; one that differs is kept, flagged priceOverridden." }) amountToPay?: number | null;
  @Field(() => Int, { nullable: true, description: "The items' sum when omitted; one that differs is kept, flagged priceOverridden." }) total?: number | null;
  @Field(() => Int, { nullable: true, description: `0..3 (default 0): ${ORDER_KIND_DESCRIPTION}` }) kind?: number | null;
  @Field(() => Int, { nullable: true, description: `0..4 (default 0): ${ORDER_PERIOD_DESCRIPTION}` }) period?: number | null;
  @Field(() => Date, { nullable: true, description: 'Defaults to createdAt (or now) for a confirmed order.' }) confirmedAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Kept as given; when given, no event is emitted (callbacks skipped).' }) createdAt?: Date | null;
  @Field(() => Date, { nullable: true }) nextInvoiceAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'External identifier: importing the same uuid again returns the first order.' })
  uuid?: string | null;
  @Field(() => OrderStatusEnum, { nullable: true, description: 'Any status (default initiated).' }) status?: OrderStatus | null;
  @Field(() => String, { nullable: true }) gatewayReference?: string | null;
  @Field(() => String, { nullable: true }) response?: string | null;
  @Field(() => String, { nullable: true }) message?: string | null;
  @Field(() => Boolean, { nullable: true }) test?: boolean | null;
  @Field(() => Boolean, { nullable: true }) success?: boolean | null;
  @Field(() => [ImportOrderItemInput], { nullable: true }) itemsAttributes?: ImportOrderItemInput[] | null;
  @Field(() => [ImportInvoiceInput], { nullable: true }) invoicesAttributes?: ImportInvoiceInput[] | null;
}
