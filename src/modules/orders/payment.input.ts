import 'reflect-metadata';
import { Field, InputType, Int } from 'type-graphql';
import { PaymentKindScalar } from './order.input.js';
import type { PaymentStatus } from './order.state.js';
import { PAYMENT_KIND_DESCRIPTION, PaymentStatusEnum } from './order.type.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: 'A payment attempt on an invoice (createPayment). Charging is the gateway adapter’s; this records it.' })
@RequiredFields('kind')
export class PaymentInput {
  @Field(() => PaymentKindScalar, { nullable: true, description: `Required, 0..3: ${PAYMENT_KIND_DESCRIPTION}` }) kind?: number | null;
  @Field(() => Int, { nullable: true, description: "In cents; the invoice's amount when omitted (it must be that amount: no partial payments)." })
  amount?: number | null;
  @Field(() => Int, { nullable: true, description: 'Credit-card installments: required (1 or more) for a common order paid by card.' }) installments?: number | null;
  @Field(() => String, { nullable: true, description: 'External identifier, unique in the school.' }) uuid?: string | null;
  @Field(() => String, { nullable: true }) gatewayReference?: string | null;
  @Field(() => String, { nullable: true }) link?: string | null;
  @Field(() => String, { nullable: true }) boletoCode?: string | null;
  @Field(() => String, { nullable: true }) cardholder?: string | null;
  @Field(() => Boolean, { nullable: true }) test?: boolean | null;
}

@InputType({ description: 'A status the gateway reported for a payment (updatePaymentStatus): the moves of the state machine only.' })
export class PaymentStatusInput {
  @Field(() => PaymentStatusEnum, { nullable: true, description: 'Required.' }) status?: PaymentStatus | null;
  @Field(() => String, { nullable: true, description: "The gateway's message." }) message?: string | null;
  @Field(() => String, { nullable: true, description: 'For refunded or reversed (a chargeback): why.' }) reason?: string | null;
}

@InputType({ description: 'A refund (refundPayment): all that is left of the payment, or a part of it.' })
export class RefundInput {
  @Field(() => Int, { nullable: true, description: 'Cents, 1 or more, at most what is left; everything left when omitted (a full refund).' })
  amount?: number | null;
  @Field(() => String, { nullable: true, description: 'Required: why the money is given back.' }) reason?: string | null;
}

