import { defineModule } from '../define-module.js';
import { userRules } from './user.access.js';
import { userRoutes } from './user.routes.js';
import { AdminResolver, CollaboratorResolver, StudentResolver } from './user.resolver.js';
import { InvitationResolver } from './invitation.resolver.js';
import { AddressResolver, PersonAddressResolvers } from './address.resolver.js';

export const usersModule = defineModule({
  name: 'users',
  resolvers: [StudentResolver, CollaboratorResolver, AdminResolver, InvitationResolver, AddressResolver, ...PersonAddressResolvers],
  routes: userRoutes,
  rules: userRules,
  errors: { name: 'Account', nodes: ['Address'], payloads: ['AdminPayload', 'StudentPayload', 'CollaboratorPayload', 'InvitationPayload'], codes: ['forbidden', 'too_short', 'erased'] },
});
