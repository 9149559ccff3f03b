import { CATALOGUE, PUBLIC } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { identityEventCatalog } from './identity.events.js';
import { identityRoutes } from './identity.routes.js';
import { PasswordResolver } from './password.resolver.js';
import { SessionResolver } from './session.resolver.js';

export const identityModule = defineModule({
  name: 'identity',
  resolvers: [SessionResolver, PasswordResolver],
  routes: identityRoutes,
  rules: {
    operations: {
      // Signing in, refreshing and resetting a password need no credential (the secret they carry is one);
      // signing out and changing a password act on the caller's own session and person.
      people: {
        'Mutation.signIn': PUBLIC,
        'Mutation.refreshToken': PUBLIC,
        'Mutation.requestPasswordReset': PUBLIC,
        'Mutation.resetPassword': PUBLIC,
        // Signing out writes only the caller's own credentials: a school that may only read may still sign out.
        'Mutation.signOut': { ...CATALOGUE, gate: 'reads' },
        'Mutation.changePassword': { admin: 'own', collaborator: 'own', student: 'own' },
      },
    },
  },
  errors: {
    name: 'Identity',
    nodes: ['Session', 'IdentityAck'],
    codes: ['too_short', 'too_long', 'too_common'],
  },
  events: identityEventCatalog,
});
