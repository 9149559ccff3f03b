import { type Adapt, beyondSpec, param, resource, type Route } from '../../rest/route-table.js';

/** Edools v1's sign-in names the school as a realm beside the user (`realm[id]`, `realm[type]=School`); a school_id given wins. */
const realm: Adapt = {
  fields: { realm: { type: 'object', properties: { id: { type: 'integer' }, type: { type: 'string', enum: ['School'] } }, description: 'The school (Edools v1): school_id, if given, wins.' } },
  apply: ({ realm: given, ...hash }) => {
    const id = given && typeof given === 'object' ? (given as Record<string, unknown>).id : undefined;
    return { hash: hash.school_id === undefined && id !== undefined && id !== '' ? { ...hash, school_id: id } : hash };
  },
};

/** The paths Devise-style clients call (`/users/sign_in`, `/users/password`), each running one mutation. */
export const identityRoutes: Route[] = [
  // The reply is Edools v1's too: the person's fields (id, email, full_name...) at its top with `credentials`, beside the session's.
  ...beyondSpec(
    "the v1 sign-in (`user[email]`, `user[password]`, `realm[id]` the school): the person's fields and `credentials` (the access token) at the top of the reply, beside the session's",
    [
      {
        method: 'POST',
        path: '/users/sign_in',
        field: 'signIn',
        reply: 'action',
        public: true,
        lift: 'user',
        args: { input: resource('user', { extra: ['school_id', 'realm'], adapt: realm }) },
      },
    ],
  ),
  { method: 'POST', path: '/users/refresh_token', field: 'refreshToken', reply: 'action', public: true, args: { refreshToken: param('refresh_token') } },
  { method: ['DELETE', 'POST'], path: '/users/sign_out', field: 'signOut', reply: 'destroy' },
  { method: ['PUT', 'PATCH'], path: '/users/change_password', field: 'changePassword', reply: 'action', args: { input: resource('user') } },
  { method: 'POST', path: '/users/password', field: 'requestPasswordReset', reply: 'action', public: true, args: { input: resource('user', { extra: ['school_id'] }) } },
  { method: ['PUT', 'PATCH'], path: '/users/password', field: 'resetPassword', reply: 'action', public: true, args: { input: resource('user') } },
];
