import { IntegrationWebhooksResolver, WebhookDeliveryResolver } from './webhook.resolver.js';
import { webhookRoutes } from './webhook.routes.js';
// Subscribes the deliveries to the event outbox (events/events.ts knows no consumer).
import './webhook.fanout.js';

export { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions, DEFAULT_RETRY_SCHEDULE_MS } from './webhook.worker.js';

/** Signed webhook delivery (Standard Webhooks) of the outbox's events to the integrations that name them. */
export const webhooksModule = {
  resolvers: [WebhookDeliveryResolver, IntegrationWebhooksResolver] as Function[],
  routes: webhookRoutes,
};
