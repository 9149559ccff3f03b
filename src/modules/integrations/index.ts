import { IntegrationSuggestionResolver } from './integration-suggestion.resolver.js';
import { IntegrationResolver } from './integration.resolver.js';
import { integrationRoutes } from './integration.routes.js';

export const integrationsModule = {
  resolvers: [IntegrationResolver, IntegrationSuggestionResolver] as Function[],
  routes: integrationRoutes,
};
