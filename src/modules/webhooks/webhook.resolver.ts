import 'reflect-metadata';
import { and, eq, gte, sql } from 'drizzle-orm';
import { Arg, Args, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { inSchool, inWriteSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { domainErrorType, notFound, type UserError } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { byIdLoader, childrenLoader, findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { owned } from './webhook.owned.js';
import { childConnectionLoaders, paginate } from '../../graphql/pagination.js';
import { RelationFields } from '../../graphql/relations.js';
import { Checks } from '../../graphql/validation.js';
import { type IntegrationRow, integrations } from '../integrations/integration.table.js';
import { Integration } from '../integrations/integration.type.js';
import { DeliveriesArgs, RotateSecretArgs, WebhookDeliveriesArgs } from './webhook.input.js';
import { rotateSigningSecret } from './webhook.secrets.js';
import { WEBHOOK_DELIVERY_STATUSES, webhookAttempts, webhookDeliveries, type WebhookDeliveryRow } from './webhook.table.js';
import { WebhookAttempt, WebhookDelivery, WebhookDeliveryConnection } from './webhook.type.js';

const WebhookDeliveryPayload = Payload(WebhookDelivery, 'webhookDelivery');
const RotateIntegrationSecretPayload = Payload(Integration, 'integration', 'RotateIntegrationSecretPayload');

@ObjectType({ description: 'The failed deliveries made pending again.' })
class RedeliverWebhooksPayload {
  @Field(() => Integration, { nullable: true }) integration!: IntegrationRow | null;
  @Field(() => Int, { nullable: true, description: 'How many deliveries were made pending again.' }) redelivered!: number | null;
  @Field(() => [domainErrorType('Webhook')]) errors!: UserError[];
}

const integrationById = byIdLoader('webhooks.integration', integrations);
const attemptsOf = childrenLoader('webhooks.attempts', webhookAttempts, webhookAttempts.deliveryId);
/** Integration.deliveries: one pair of loaders per status filter (and one for all). */
const deliveriesOf = new Map(
  [null, ...WEBHOOK_DELIVERY_STATUSES].map((status) => [
    status,
    childConnectionLoaders(`webhooks.deliveries.${status ?? 'all'}`, webhookDeliveries, webhookDeliveries.integrationId, (ctx) =>
      and(inSchool(ctx, webhookDeliveries.schoolId), status ? eq(webhookDeliveries.status, status) : undefined),
    ),
  ]),
);

/** Due now, a new round of the schedule. */
const redelivery = { status: 'pending' as const, attemptCount: 0, nextAttemptAt: sql`now()`, lockedUntil: null };
const MAX_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

@Resolver(() => WebhookDelivery)
@RelationFields<WebhookDeliveryRow>({
  attempts: { type: () => [WebhookAttempt], loader: attemptsOf, key: 'id' },
})
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryConnection, {
    description: "An integration's webhook deliveries, oldest first, narrowed by status and creation time. REST: GET /integrations/:id/deliveries.",
  })
  async webhookDeliveries(@Args(() => WebhookDeliveriesArgs) args: WebhookDeliveriesArgs, @Ctx() ctx: Context) {
    const integration = await findOr404(ctx, integrationById, parseId(args.integrationId, 'Integration'), 'Integration');
    return paginate(
      ctx,
      webhookDeliveries,
      and(
        inSchool(ctx, webhookDeliveries.schoolId),
        eq(webhookDeliveries.integrationId, integration.id),
        args.status ? eq(webhookDeliveries.status, args.status) : undefined,
        args.since ? gte(webhookDeliveries.createdAt, args.since) : undefined,
      ),
      args,
    );
  }

  @Mutation(() => WebhookDeliveryPayload, {
    description:
      'Sends a delivery again (any status): pending, due now, with a new round of attempts. It goes out once its integration is active. ' +
      'REST: POST /integrations/:id/deliveries/:webhook_delivery_id/redeliver.',
  })
  redeliverWebhook(@Arg('id', () => ID) id: string, @Ctx() ctx: Context, @Arg('integrationId', () => ID, { nullable: true }) integrationId?: string) {
    const deliveryId = parseId(id, 'WebhookDelivery');
    const ofIntegration = integrationId != null ? parseId(integrationId, 'Integration') : null;
    return mutate(ctx, 'webhookDelivery', async (tx) => {
      const [row] = await tx
        .update(webhookDeliveries)
        .set(redelivery)
        .where(
          and(
            eq(webhookDeliveries.id, deliveryId),
            inWriteSchool(ctx, webhookDeliveries.schoolId),
            ofIntegration !== null ? eq(webhookDeliveries.integrationId, ofIntegration) : undefined,
          ),
        )
        .returning();
      if (!row) throw notFound('WebhookDelivery');
      return row;
    });
  }

  @Mutation(() => RedeliverWebhooksPayload, {
    description:
      "Sends again every failed delivery of an integration created at or after `since` (all failed ones without it). REST: POST /integrations/:id/deliveries/redeliver (since=).",
  })
  async redeliverFailedWebhooks(
    @Arg('integrationId', () => ID) integrationId: string,
    @Arg('since', () => Date, { nullable: true }) since: Date | null,
    @Ctx() ctx: Context,
  ) {
    const id = parseId(integrationId, 'Integration');
    const result = await mutate(ctx, 'integration', async (tx) => {
      const integration = await owned(tx, ctx, id);
      const rows = await tx
        .update(webhookDeliveries)
        .set(redelivery)
        .where(
          and(
            eq(webhookDeliveries.integrationId, integration.id),
            eq(webhookDeliveries.status, 'failed'),
            since ? gte(webhookDeliveries.createdAt, since) : undefined,
          ),
        )
        .returning({ id: webhookDeliveries.id });
      return { integration, redelivered: rows.length };
    });
    const done = result.integration as { integration: IntegrationRow; redelivered: number } | null;
    return { integration: done?.integration ?? null, redelivered: done?.redelivered ?? null, errors: result.errors };
  }

  @Mutation(() => RotateIntegrationSecretPayload, {
    description:
      'Makes a new signing secret, shown once in integration.signingSecret. The secrets in force keep signing beside it for overlapSeconds ' +
      '(24 h by default): every webhook meanwhile carries a signature of each. REST: POST /integrations/:id/rotate_secret.',
  })
  rotateIntegrationSecret(@Args(() => RotateSecretArgs) args: RotateSecretArgs, @Ctx() ctx: Context) {
    const id = parseId(args.id, 'Integration');
    return mutate(ctx, 'integration', async (tx) => {
      const checks = new Checks();
      const overlap = args.overlapSeconds;
      if (overlap != null && (overlap < 0 || overlap > MAX_OVERLAP_SECONDS))
        checks.add('overlapSeconds', 'invalid', `must be between 0 and ${MAX_OVERLAP_SECONDS}`);
      checks.throwIfAny();
      const integration = await owned(tx, ctx, id);
      const signingSecret = await rotateSigningSecret(tx, integration, overlap ?? undefined);
      return { ...integration, signingSecret };
    });
  }
}

@Resolver(() => Integration)
export class IntegrationWebhooksResolver {
  @FieldResolver(() => WebhookDeliveryConnection, { description: "The integration's webhook deliveries, oldest first (see webhookDeliveries)." })
  deliveries(@Root() integration: IntegrationRow, @Args(() => DeliveriesArgs) args: DeliveriesArgs, @Ctx() ctx: Context) {
    return deliveriesOf.get(args.status ?? null)!(ctx, integration.id, args);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The webhook signing secret (whsec_...), shown once: in the reply of createIntegration and rotateIntegrationSecret; null everywhere else. ' +
      'Receivers verify with it (Standard Webhooks).',
  })
  signingSecret(@Root() integration: IntegrationRow & { signingSecret?: string }) {
    return integration.signingSecret ?? null;
  }
}
