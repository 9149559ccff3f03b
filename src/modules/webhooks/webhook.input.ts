import 'reflect-metadata';
import { ArgsType, Field, ID, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { WebhookDeliveryStatusEnum } from './webhook.type.js';
import type { WebhookDeliveryStatus } from './webhook.table.js';

@ArgsType()
export class DeliveriesArgs extends ConnectionArgs {
  @Field(() => WebhookDeliveryStatusEnum, { nullable: true }) status?: WebhookDeliveryStatus | null;
}

@ArgsType()
export class WebhookDeliveriesArgs extends DeliveriesArgs {
  @Field(() => ID) integrationId!: string;
  @Field(() => Date, { nullable: true, description: 'Only deliveries created at or after this time.' }) since?: Date | null;
}

@ArgsType()
export class RotateSecretArgs {
  @Field(() => ID) id!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'How long the secrets in force keep signing beside the new one, in seconds (default 86400, at most 604800; 0 ends them now).',
  })
  overlapSeconds?: number | null;
}
