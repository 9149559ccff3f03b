import 'reflect-metadata';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from './webhook.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

export const WebhookDeliveryStatusEnum = graphqlEnum(
  'WebhookDeliveryStatus',
  WEBHOOK_DELIVERY_STATUSES,
  'pending (due or waiting for a retry), succeeded (a 2xx came back), failed (every attempt of the schedule failed; redeliverable).',
);

@ObjectType({ description: 'One attempt to deliver a webhook: when, how long, the response status or the error, and when the next is due.' })
export class WebhookAttempt {
  @Field(() => ID) id!: number;
  @Field(() => ID) deliveryId!: number;
  @Field(() => Date) startedAt!: Date;
  @Field(() => Int) durationMs!: number;
  @Field(() => Int, { nullable: true, description: 'The HTTP status the receiver answered; null when none came (refused, timed out, unreachable).' })
  responseStatus!: number | null;
  @Field(() => String, { nullable: true, description: 'Why it failed; null for a 2xx.' }) error!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the next attempt is due; null when this one succeeded or was the last.' })
  nextAttemptAt!: Date | null;
}

@Timestamped()
@ObjectType({
  description:
    'One event sent to one integration as a signed webhook (Standard Webhooks). Retried on a schedule (immediately, 5 s, 5 min, ' +
    '30 min, 2 h, 5 h, 10 h, 10 h, with ±20 % jitter), then failed; redeliverWebhook starts it again.',
})
export class WebhookDelivery extends SchoolRecord {
  @Field(() => ID) integrationId!: number;
  @Field(() => ID, { description: 'The event (also the webhook-id header and the body id, the same on every attempt).' }) eventId!: number;
  @Field(() => String) eventName!: string;
  @Field(() => WebhookDeliveryStatusEnum) status!: WebhookDeliveryStatus;
  @Field(() => Int, { description: 'Attempts of the current round (a redelivery starts a new one); every attempt is in attempts.' })
  attemptCount!: number;
  @Field(() => Date, { nullable: true }) nextAttemptAt!: Date | null;
  @Field(() => Int, { nullable: true }) lastResponseStatus!: number | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => Date, { nullable: true }) deliveredAt!: Date | null;
  @Extensions({ rest: 'embed' })
  @Field(() => [WebhookAttempt], { description: 'Every attempt, oldest first.' })
  attempts?: WebhookAttempt[];
}

export const WebhookDeliveryConnection = connectionType(WebhookDelivery);
