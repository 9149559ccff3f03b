import { MANAGERS, PUBLIC } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { SsoSettingsResolver, SsoSignInResolver } from './sso.resolver.js';
import { ssoRoutes } from './sso.routes.js';

export const ssoModule = defineModule({
  name: 'sso',
  resolvers: [SsoSettingsResolver, SsoSignInResolver],
  routes: ssoRoutes,
  rules: {
    operations: {
      // Single sign-on: its settings hold secrets (the school's managers only); signing in needs no credential.
      people: {
        'Query.ssoSettings': MANAGERS,
        'Mutation.updateSsoSettings': MANAGERS,
        'Mutation.startOidcSignIn': PUBLIC,
        'Mutation.completeOidcSignIn': PUBLIC,
        'Mutation.signInWithJwt': PUBLIC,
      },
    },
  },
  errors: { name: 'Sso', nodes: ['SsoSettings', 'SsoSignIn', 'OidcAuthorization'], codes: ['too_long', 'too_short', 'foreign_host'] },
});
