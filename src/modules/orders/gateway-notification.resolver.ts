/**
 * A payment gateway reports in (receiveGatewayNotification, REST `POST
 * /gateways/:gateway_credential_id/notifications`), and the signing secret it proves itself with
 * (GatewayCredential.signingSecret, rotateGatewaySigningSecret). What a callback does is
 * gateway-notification.ts'.
 */
import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Resolver, Root } from 'type-graphql';
import { inSchoolScope, inWriteSchool } from '../../auth/tenancy.js';
import { type Context, signedSchoolContext } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { GatewayCredential } from './billing.type.js';
import { adapterFor, applyNotice } from './gateway-notification.js';
import { GatewayNotification } from './gateway-notification.type.js';
import { gatewaySecretsInForce, MAX_SECRET_OVERLAP_SECONDS, rotateGatewaySigningSecret } from './gateway-signing.js';
import { gatewayCredentials } from './order.table.js';

const GatewayNotificationPayload = Payload(GatewayNotification, 'gatewayNotification');
const RotateGatewaySigningSecretPayload = Payload(GatewayCredential, 'gatewayCredential', 'RotateGatewaySigningSecretPayload');

@Resolver(() => GatewayNotification)
export class GatewayNotificationResolver {
  @Mutation(() => GatewayNotificationPayload, {
    description:
      "A payment gateway's status callback, anonymous but signed (Standard Webhooks) with a signing secret of the gateway credential: " +
      'webhookSignature over `<webhookId>.<webhookTimestamp>.<body>`, the body exactly as sent. A bad or missing signature, or a timestamp more than ' +
      "5 minutes from the service's clock, is a 401 (invalid_signature, stale_timestamp); an unknown credential, or a payment of another school, a 404. " +
      'The body: {"type": "payment.status", "data": {"payment_id" | "payment_uuid", "status", "amount"?, "reason"?}}; the payment moves as ' +
      'updatePaymentStatus (and a refunded part as refundPayment) moves it. Idempotent by webhookId: a replay answers the first outcome and changes nothing. ' +
      'REST: POST /gateways/:gateway_credential_id/notifications (the webhook-* headers and the raw body).',
  })
  async receiveGatewayNotification(
    @Arg('gatewayCredentialId', () => ID) gatewayCredentialId: string,
    @Arg('webhookId', () => String, { nullable: true, description: 'The webhook-id header: the gateway’s event id.' }) webhookId: string | null | undefined,
    @Arg('webhookTimestamp', () => String, { nullable: true, description: 'The webhook-timestamp header: Unix seconds.' }) webhookTimestamp: string | null | undefined,
    @Arg('webhookSignature', () => String, { nullable: true, description: 'The webhook-signature header: `v1,<base64>`, space-separated.' })
    webhookSignature: string | null | undefined,
    @Arg('body', () => String, { nullable: true, description: 'The body exactly as the gateway sent it (the signature covers its bytes).' })
    body: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    // Credential ids are not secret (they are in the URL the gateway is given); its signing secret is.
    // An unknown one is a 404, which tells a misconfigured URL from a wrong secret (401).
    const [credential] = await ctx.db.select().from(gatewayCredentials).where(eq(gatewayCredentials.id, parseId(gatewayCredentialId, 'GatewayCredential')));
    // Called with a credential (the GraphQL twin), the gateway credential must be of its school, as any row.
    if (!credential || (ctx.credential && !inSchoolScope(ctx, credential.schoolId))) throw notFound('GatewayCredential');
    const adapter = adapterFor(credential.gateway);
    const raw = body ?? '';
    const delivery = adapter.verify(
      { id: webhookId, timestamp: webhookTimestamp, signature: webhookSignature, body: raw },
      await gatewaySecretsInForce(ctx.db, credential.id),
      ctx.now(),
    );
    const school = signedSchoolContext(ctx, credential.schoolId);
    // A body the adapter cannot read is the payload's errors (422), before anything is written.
    return mutate(school, 'gatewayNotification', (tx) => applyNotice(tx, school, credential.id, delivery, adapter.parse(raw)));
  }

  @Mutation(() => RotateGatewaySigningSecretPayload, {
    description:
      'Makes a new signing secret for the gateway’s callbacks, shown once in gatewayCredential.signingSecret. The secrets in force keep verifying beside it for ' +
      'overlapSeconds (24 h by default, at most 7 days; 0 ends them now). REST: POST /gateway_credentials/:id/rotate_signing_secret.',
  })
  rotateGatewaySigningSecret(
    @Arg('id', () => ID) id: string,
    @Arg('overlapSeconds', () => Int, { nullable: true }) overlapSeconds: number | null | undefined,
    @Ctx() ctx: Context,
  ) {
    const credentialId = parseId(id, 'GatewayCredential');
    return mutate(ctx, 'gatewayCredential', async (tx) => {
      new Checks().range('overlapSeconds', overlapSeconds, 0, MAX_SECRET_OVERLAP_SECONDS).throwIfAny();
      const [credential] = await tx
        .select()
        .from(gatewayCredentials)
        .where(and(eq(gatewayCredentials.id, credentialId), inWriteSchool(ctx, gatewayCredentials.schoolId)))
        .for('update');
      if (!credential) throw notFound('GatewayCredential');
      return { ...credential, signingSecret: await rotateGatewaySigningSecret(tx, credential, overlapSeconds ?? undefined) };
    });
  }
}

@Resolver(() => GatewayCredential)
export class GatewayCredentialSigningResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The secret the gateway signs its callbacks with (whsec_..., Standard Webhooks), shown once: in the reply of createGatewayCredential and ' +
      'rotateGatewaySigningSecret; null everywhere else (it is stored encrypted).',
  })
  signingSecret(@Root() credential: typeof gatewayCredentials.$inferSelect & { signingSecret?: string }) {
    return credential.signingSecret ?? null;
  }
}
