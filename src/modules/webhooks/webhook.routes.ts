import { param, pathParam, rows, type Route } from '../../rest/route-table.js';

const ofIntegration = { integrationId: pathParam('id') };

export const webhookRoutes: Route[] = [
  rows.list('/integrations/:id/deliveries', 'webhookDeliveries', { args: { ...ofIntegration, status: param('status'), since: param('since') } }),
  {
    method: 'POST',
    path: '/integrations/:id/deliveries/:webhook_delivery_id/redeliver',
    field: 'redeliverWebhook',
    args: { id: pathParam('webhook_delivery_id'), integrationId: pathParam('id') },
    reply: 'action',
  },
  { method: 'POST', path: '/integrations/:id/deliveries/redeliver', field: 'redeliverFailedWebhooks', args: { ...ofIntegration, since: param('since') }, reply: 'action' },
  rows.action('POST', '/integrations/:id/rotate_secret', 'rotateIntegrationSecret', { args: { overlapSeconds: param('overlap_seconds') } }),
];
