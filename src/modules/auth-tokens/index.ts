import { PLATFORM } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { ApiTokenResolver } from './api-token.resolver.js';

export const authTokensModule = defineModule({
  name: 'auth-tokens',
  resolvers: [ApiTokenResolver],
  rules: {
    // Credentials: made and revoked by the platform (the wizard hands out an admin's).
    operations: { schools: { 'Mutation.createApiToken': PLATFORM, 'Mutation.revokeApiToken': PLATFORM } },
    fields: { 'CreateApiTokenPayload.token': 'secret' },
  },
  errors: { name: 'ApiToken', nodes: ['ApiToken'], codes: ['present'] },
});
