import { MANAGERS } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ApiTokenResolver } from './api-token.resolver.js';
import { apiTokenRoutes } from './api-token.routes.js';

export const authTokensModule = defineModule({
  name: 'auth-tokens',
  resolvers: [ApiTokenResolver],
  routes: apiTokenRoutes,
  rules: {
    // Credentials: listed, made and revoked by the platform (any school's) and by a school's admin (its own
    // school's, never a platform token: api-token.rules.ts). The wizard hands out an admin's.
    operations: { schools: { 'Query.apiTokens': MANAGERS, 'Mutation.createApiToken': MANAGERS, 'Mutation.revokeApiToken': MANAGERS } },
    fields: { 'CreateApiTokenPayload.token': 'secret' },
  },
  errors: { name: 'ApiToken', nodes: ['ApiToken'], codes: ['present', 'forbidden', 'erased'] },
});
