import { defineModule } from '../define-module.js';
import { userRules } from './user.access.js';
import { userRoutes } from './user.routes.js';
import { AdminResolver, CollaboratorResolver, StudentResolver } from './user.resolver.js';

export const usersModule = defineModule({
  name: 'users',
  resolvers: [StudentResolver, CollaboratorResolver, AdminResolver],
  routes: userRoutes,
  rules: userRules,
  errors: { name: 'Account', nodes: [], payloads: ['AdminPayload', 'StudentPayload', 'CollaboratorPayload'], codes: ['forbidden', 'too_short', 'erased'] },
});
