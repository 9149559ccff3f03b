import { param, resource, type Route } from '../../rest/route-table.js';

/** The paths Devise-style clients call (`/users/sign_in`, `/users/password`), each running one mutation. */
export const identityRoutes: Route[] = [
  { method: 'POST', path: '/users/sign_in', field: 'signIn', reply: 'action', public: true, args: { input: resource('user', { extra: ['school_id'] }) } },
  { method: 'POST', path: '/users/refresh_token', field: 'refreshToken', reply: 'action', public: true, args: { refreshToken: param('refresh_token') } },
  { method: ['DELETE', 'POST'], path: '/users/sign_out', field: 'signOut', reply: 'destroy' },
  { method: ['PUT', 'PATCH'], path: '/users/change_password', field: 'changePassword', reply: 'action', args: { input: resource('user') } },
  { method: 'POST', path: '/users/password', field: 'requestPasswordReset', reply: 'action', public: true, args: { input: resource('user', { extra: ['school_id'] }) } },
  { method: ['PUT', 'PATCH'], path: '/users/password', field: 'resetPassword', reply: 'action', public: true, args: { input: resource('user') } },
];
