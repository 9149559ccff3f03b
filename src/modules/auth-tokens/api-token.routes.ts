import { rows, type Route } from '../../rest/route-table.js';

/** Credentials over REST: the list (never the secrets), a new one (its token shown once), a revocation. */
export const apiTokenRoutes: Route[] = [
  rows.list('/api_tokens', 'apiTokens'),
  rows.create('/api_tokens', 'createApiToken', 'api_token', '/api_tokens/:id'),
  rows.destroy('/api_tokens/:id', 'revokeApiToken'),
];
