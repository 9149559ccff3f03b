import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { SchoolOwned } from '../../graphql/record.js';
import { PaymentStatusEnum } from './order.type.js';

@ObjectType({
  description:
    "A gateway's callback the service applied (receiveGatewayNotification), kept by the gateway's event id: a replay answers this same record and changes nothing.",
})
export class GatewayNotification extends SchoolOwned {
  @Field(() => ID) gatewayCredentialId!: number;
  @Field(() => String, { description: "The gateway's event id (the webhook-id header), unique per gateway credential." }) eventId!: string;
  @Field(() => Date, { description: 'When the gateway says it sent it (webhook-timestamp).' }) sentAt!: Date;
  @Field(() => String, { description: 'payment.status' }) type!: string;
  @Field(() => ID, { nullable: true }) paymentId!: number | null;
  @Field(() => PaymentStatusEnum, { description: 'The status the gateway reported, in the service’s words (chargeback is reversed, paid is confirmed).' })
  status!: string;
  @Field(() => Int, { nullable: true, description: 'Cents the gateway named: a refund’s part, or the amount confirmed.' }) amount!: number | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => PaymentStatusEnum, { description: "The payment's status after the first delivery." }) paymentStatus!: string;
  @Field(() => Int, { description: 'Cents refunded of the payment after the first delivery.' }) refundedAmount!: number;
  @Field(() => Date, { description: 'When the first delivery was applied.' }) createdAt!: Date;
}
