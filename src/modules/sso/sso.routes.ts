import { param, resource, type Route } from '../../rest/route-table.js';

/**
 * The settings (a school's one row, no id in the path) and the anonymous sign-ins. The OpenID
 * routes answer JSON, not redirects: `start` gives `{authorization_url, state, expires_at}` for the
 * client to send the browser to, `callback` the credential (`{token, user, return_to, created}`).
 */
export const ssoRoutes: Route[] = [
  { method: 'GET', path: '/sso_settings', field: 'ssoSettings', reply: 'show' },
  { method: ['PUT', 'PATCH'], path: '/sso_settings', field: 'updateSsoSettings', reply: 'update', args: { input: resource('sso_settings') } },
  {
    method: ['GET', 'POST'],
    path: '/users/sso/oidc/start',
    field: 'startOidcSignIn',
    reply: 'action',
    public: true,
    args: { schoolId: param('school_id'), returnTo: param('return_to') },
  },
  {
    method: 'GET',
    path: '/users/sso/oidc/callback',
    field: 'completeOidcSignIn',
    reply: 'action',
    public: true,
    args: { authorizationCode: param('code'), state: param('state'), iss: param('iss'), error: param('error'), errorDescription: param('error_description') },
  },
  { method: 'POST', path: '/users/sso/jwt', field: 'signInWithJwt', reply: 'action', public: true, args: { schoolId: param('school_id'), jwt: param('jwt') } },
];
