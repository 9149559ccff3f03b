import { z } from 'zod';
import { event, id, nullableId } from '../events/catalog.js';

/** Sign-in and credentials: who signed in, whose password changed, which tokens stopped working. */
export const identityEventCatalog = {
  'user.signed_in': event({
    version: 1,
    subject: 'User',
    emittedBy: ['signIn'],
    description: 'A person signed in and a session was opened for them.',
    payload: z.object({ userId: id, role: z.string(), method: z.string().describe('password, oidc or jwt'), sessionId: id }),
  }),
  'user.password_changed': event({
    version: 1,
    subject: 'User',
    emittedBy: ['changePassword', 'resetPassword'],
    description: "A person's password was changed (by the person, or through a reset link); their other sessions were revoked.",
    payload: z.object({ userId: id, via: z.enum(['change', 'reset']) }),
  }),
  'token.revoked': event({
    version: 1,
    subject: 'ApiToken',
    emittedBy: ['revokeApiToken', 'signOut', 'refreshToken', 'changePassword', 'resetPassword'],
    description: 'Credentials stopped working: a token revoked by hand, or the tokens of sessions closed (sign-out, a reused refresh token, a password change).',
    payload: z.object({
      tokenIds: z.array(id).describe('the revoked tokens (never their secrets)'),
      sessionId: nullableId.describe('the session closed, if any'),
      userId: nullableId,
      reason: z.enum(['revoked', 'signed_out', 'refresh_token_reused', 'password_changed', 'password_reset']),
    }),
  }),
};

type IdentityEventCatalog = typeof identityEventCatalog;
declare module '../events/catalog.js' {
  interface EventCatalog extends IdentityEventCatalog {}
}
