import { MANAGERS } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { IntegrationWebhooksResolver, WebhookDeliveryResolver } from './webhook.resolver.js';
import { webhookRoutes } from './webhook.routes.js';
// Subscribes the deliveries to the event outbox (events/events.ts knows no consumer).
import './webhook.fanout.js';

export { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions, DEFAULT_RETRY_SCHEDULE_MS } from './webhook.worker.js';

/** Signed webhook delivery (Standard Webhooks) of the outbox's events to the integrations that name them. */
export const webhooksModule = defineModule({
  name: 'webhooks',
  resolvers: [WebhookDeliveryResolver, IntegrationWebhooksResolver],
  routes: webhookRoutes,
  rules: {
    operations: {
      // Webhook deliveries: an integration's settings, so the managers'.
      events: {
        'Query.webhookDeliveries': MANAGERS,
        'Mutation.redeliverWebhook': MANAGERS,
        'Mutation.redeliverFailedWebhooks': MANAGERS,
        'Mutation.rotateIntegrationSecret': MANAGERS,
      },
    },
  },
  errors: { name: 'Webhook', nodes: ['WebhookDelivery'], payloads: ['RotateIntegrationSecretPayload', 'RedeliverWebhooksPayload'], codes: [] },
});
