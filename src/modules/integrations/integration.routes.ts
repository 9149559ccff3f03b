import { resource, rows, type Route } from '../../rest/route-table.js';

const show = '/integrations/:id';

export const integrationRoutes: Route[] = [
  ...rows.resource('/integrations', show, 'integration', 'integrations'),
  // The spec gives no payload: the fields come in a `suggestion` hash or at the top level. 201, no Location (no show route).
  {
    method: 'POST',
    path: '/integrations/suggestions',
    field: 'suggestIntegration',
    args: { input: resource('suggestion', { optional: true, extra: ['name', 'description', 'url'] }) },
    reply: 'create',
  },
  // The REST twin of the suggestions GraphQL lists.
  rows.list('/integrations/suggestions', 'integrationSuggestions'),
];
