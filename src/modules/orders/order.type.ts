import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { Payload } from '../../graphql/mutation.js';
import { connectionType } from '../../graphql/pagination.js';
import { invoiceStatus, orderStatus, paymentStatus } from './order.table.js';

export const OrderStatusEnum = graphqlEnum(
  'OrderStatus',
  orderStatus.enumValues,
  'initiated -> processing | no_wait_processing (a payment under way); unpaid -> confirmed (its first invoice paid, or nothing to pay: the student is enrolled) | canceled; confirmed -> canceled only by a full refund or chargeback (order.refunded); canceled is final. The table: README, Selling.',
);
export const InvoiceStatusEnum = graphqlEnum('InvoiceStatus', invoiceStatus.enumValues);
export const PaymentStatusEnum = graphqlEnum('PaymentStatus', paymentStatus.enumValues);

export const ORDER_KIND_DESCRIPTION = '0 common (a single purchase, paid at once or in card installments), 1 subscription, 2 installment plan, 3 free.';
export const ORDER_PERIOD_DESCRIPTION = 'How often a subscription or plan charges: 0 none (single purchase), 1 monthly, 2 quarterly, 3 semiannual, 4 annual.';
export const PAYMENT_KIND_DESCRIPTION = '0 credit card, 1 boleto, 2 pix, 3 external (paid outside the gateway, recorded by hand).';

// Money is integer cents throughout. The fields below are shared by the stored types (id: ID!) and
// the import's result types, whose ids are null on a dry run.

@ObjectType()
export abstract class OrderFields {
  @Field(() => ID) schoolId!: number;
  @Field(() => ID) studentId!: number;
  @Field(() => ID, { nullable: true, description: 'The gateway account the order is charged through.' }) gatewayCredentialId!: number | null;
  @Field(() => ID, { nullable: true }) couponId!: number | null;
  @Field(() => Int, { description: 'Price with discounts, in cents.' }) amountToPay!: number;
  @Field(() => Int, { description: 'Price without discounts, in cents.' }) total!: number;
  @Field(() => Int, { description: ORDER_KIND_DESCRIPTION }) kind!: number;
  @Field(() => Int, { description: ORDER_PERIOD_DESCRIPTION }) period!: number;
  @Field(() => OrderStatusEnum) status!: string;
  @Field(() => Date, { nullable: true, description: 'When the order became confirmed (set on confirmation unless given).' })
  confirmedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: "A recurring order's next invoice (a subscription's last: when it ends)." }) nextInvoiceAt!: Date | null;
  @Field(() => Int, { nullable: true, description: 'A recurring order: how many invoices it has in all; null: until canceled.' }) occurrences!: number | null;
  @Field(() => Date, { nullable: true, description: 'Set while an invoice of it is unpaid past the grace period: its enrollments are deactivated until it is paid.' })
  suspendedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the order was canceled (a subscription canceled by staff while paid up: when it will end).' })
  canceledAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'External identifier; unique in the school (imports are idempotent on it).' })
  uuid!: string | null;
  @Field(() => String, { nullable: true, description: 'Identifier of the order in the gateway.' }) gatewayReference!: string | null;
  @Field(() => String, { nullable: true, description: 'Gateway response.' }) response!: string | null;
  @Field(() => String, { nullable: true, description: 'Gateway message.' }) message!: string | null;
  @Field(() => Boolean, { description: 'Sandbox (true) or production.' }) test!: boolean;
  @Field(() => Boolean, { description: 'Gateway success.' }) success!: boolean;
  @Field(() => Boolean, { description: 'An import kept amounts that differ from the computed ones (history as it was).' }) priceOverridden!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType()
export abstract class OrderItemFields {
  @Field(() => ID) schoolId!: number;
  @Field(() => ID) paymentOptionId!: number;
  @Field(() => ID, { nullable: true, description: 'The coupon token used.' }) couponTokenId!: number | null;
  @Field(() => Int) quantity!: number;
  @Field(() => Int, { description: 'Price without discounts, in cents.' }) total!: number;
  @Field(() => Int, { nullable: true, description: 'Price with discounts, in cents.' }) amountToPay!: number | null;
  @Field(() => Int, { nullable: true }) amountToPayInCredits!: number | null;
  @Field(() => Int, { nullable: true }) totalInCredits!: number | null;
  @Field(() => Boolean, { description: 'An import kept amounts that differ from the computed ones.' }) priceOverridden!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType()
export abstract class InvoiceFields {
  @Field(() => ID) schoolId!: number;
  @Field(() => Int, { description: 'In cents.' }) amount!: number;
  @Field(() => Int, { description: "The invoice's place in the order's sequence of charges." }) occurrence!: number;
  @Field(() => InvoiceStatusEnum) status!: string;
  @Field(() => String, { nullable: true, description: 'External identifier; unique in the school.' }) uuid!: string | null;
  @Field(() => Date, { nullable: true }) nextChargeAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'A recurring invoice: past it unpaid it is overdue, past the grace period after it unpaid.' }) dueAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType()
export abstract class PaymentFields {
  @Field(() => ID) schoolId!: number;
  @Field(() => Int, { description: PAYMENT_KIND_DESCRIPTION }) kind!: number;
  @Field(() => PaymentStatusEnum) status!: string;
  @Field(() => Int, { nullable: true, description: 'In cents.' }) amount!: number | null;
  @Field(() => String, { nullable: true, description: 'External identifier; unique in the school.' }) uuid!: string | null;
  @Field(() => String, { nullable: true }) gatewayReference!: string | null;
  @Field(() => String, { nullable: true }) link!: string | null;
  @Field(() => String, { nullable: true }) boletoCode!: string | null;
  @Field(() => String, { nullable: true }) cardholder!: string | null;
  @Field(() => String, { nullable: true }) response!: string | null;
  @Field(() => String, { nullable: true }) message!: string | null;
  @Field(() => Boolean) success!: boolean;
  @Field(() => Boolean) test!: boolean;
  @Field(() => Int, { nullable: true, description: 'Credit-card installments (1 or more).' }) installments!: number | null;
  @Field(() => Int, { nullable: true, description: 'In cents.' }) gatewayFees!: number | null;
  @Field(() => Int, { description: 'Cents given back so far (refundPayment); equal to the amount once refunded.' }) refundedAmount!: number;
  @Field(() => String, { nullable: true, description: 'Why it was refunded.' }) refundReason!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType({ description: "A student's purchase: items (what), invoices (when and how much) and their payments (attempts to pay)." })
export class Order extends OrderFields {
  @Field(() => ID) id!: number;
}

@ObjectType({ description: 'One thing an order buys, through a payment option.' })
export class OrderItem extends OrderItemFields {
  @Field(() => ID) id!: number;
  @Field(() => ID) orderId!: number;
}

@ObjectType({ description: 'One charge of an order.' })
export class Invoice extends InvoiceFields {
  @Field(() => ID) id!: number;
  @Field(() => ID) orderId!: number;
}

@ObjectType({ description: 'One attempt to pay an invoice.' })
export class Payment extends PaymentFields {
  @Field(() => ID) id!: number;
  @Field(() => ID) invoiceId!: number;
}

export const OrderConnection = connectionType(Order);

// The import's result: the order it created or found, or on a dry run the order as it would be.

@ObjectType({
  description:
    'The order importOrder created (created: true) or found by its uuid (created: false, nothing written), or on a dry run the order as it would be (ids null).',
})
export class ImportedOrder extends OrderFields {
  @Field(() => ID, { nullable: true, description: 'Null on a dry run that would create the order.' }) id!: number | null;
  @Field(() => Boolean, { description: 'True when this call created the order.' }) created!: boolean;
  @Field(() => Boolean, { description: 'True when nothing was written because dryRun was asked.' }) dryRun!: boolean;
}

@ObjectType({ description: 'An item of an imported order (id null on a dry run).' })
export class ImportedOrderItem extends OrderItemFields {
  @Field(() => ID, { nullable: true }) id!: number | null;
  @Field(() => ID, { nullable: true }) orderId!: number | null;
}

@ObjectType({ description: 'An invoice of an imported order (id null on a dry run).' })
export class ImportedInvoice extends InvoiceFields {
  @Field(() => ID, { nullable: true }) id!: number | null;
  @Field(() => ID, { nullable: true }) orderId!: number | null;
}

@ObjectType({ description: 'A payment of an imported invoice (id null on a dry run).' })
export class ImportedPayment extends PaymentFields {
  @Field(() => ID, { nullable: true }) id!: number | null;
  @Field(() => ID, { nullable: true }) invoiceId!: number | null;
}

/** The reply of the mutations that write an order (order.resolver.ts, subscription.resolver.ts). */
export const OrderPayload = Payload(Order, 'order');
