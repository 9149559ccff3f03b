import { AUTHORS, MANAGERS, PLATFORM, resource } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { IntegrationSuggestionResolver } from './integration-suggestion.resolver.js';
import { IntegrationResolver } from './integration.resolver.js';
import { integrationRoutes } from './integration.routes.js';

export const integrationsModule = defineModule({
  name: 'integrations',
  resolvers: [IntegrationResolver, IntegrationSuggestionResolver],
  routes: integrationRoutes,
  rules: {
    operations: {
      // Their settings hold secrets; the school suggests new ones to the platform.
      integrations: {
        ...resource('integration', 'integrations', MANAGERS, MANAGERS),
        'Mutation.suggestIntegration': AUTHORS,
        'Query.integrationSuggestions': PLATFORM,
      },
    },
    fields: { 'Integration.signingSecret': 'secret' },
  },
  errors: { name: 'Integration', nodes: ['Integration', 'IntegrationSuggestion'], codes: [] },
});
