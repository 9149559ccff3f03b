import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { hashPassword } from '../../auth/password.js';
import { config } from '../../config.js';
import type { Context } from '../../graphql/context.js';
import { AppError, rateLimited } from '../../graphql/errors.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { users } from '../users/user.table.js';
import { IdentityAck, Session, SignInInput } from './identity.type.js';
import { closeSession, type OpenedSession, openSession, refreshSession } from './session.js';
import { checkPassword, noSchoolNamed, schoolOfRequest } from './sign-in.js';
import { normalEmail } from '../users/user.email.js';
import { clearFailures, failureKeys, lockedFor, recordFailure } from './throttle.js';

export const SessionPayload = Payload(Session, 'session', 'SessionPayload');
const SignOutPayload = Payload(IdentityAck, 'signOut', 'SignOutPayload');

/** A session as GraphQL shows it. */
export const shown = (opened: OpenedSession) => ({ ...opened, tokenType: 'Bearer', credentials: opened.accessToken });

/** Sign-in with e-mail and password, refresh, sign-out. */
@Resolver()
export class SessionResolver {
  @Mutation(() => SessionPayload, {
    description:
      'Signs a person in with e-mail and password (anonymous): a short-lived access token for their role and a refresh token. ' +
      'A wrong e-mail or password answers INVALID_CREDENTIALS (401); too many failures, RATE_LIMITED (429) with extensions.retryAfter.',
  })
  async signIn(@Arg('input', () => SignInInput) input: SignInInput, @Ctx() ctx: Context) {
    const settings = ctx.identity ?? config.identity;
    const schoolId = await schoolOfRequest(ctx, input.schoolId);
    if (schoolId === null) throw noSchoolNamed();
    const email = normalEmail(input.email);
    const keys = failureKeys(schoolId, email, ctx.client?.address ?? 'unknown');
    const now = ctx.now();
    const wait = await lockedFor(ctx.db, keys, now, settings);
    if (wait !== null) throw rateLimited(`Too many failed sign-ins: retry in ${wait} second${wait === 1 ? '' : 's'}`, wait);
    const found = await checkPassword(ctx.db, schoolId, email, input.password ?? '');
    if (!found) {
      await recordFailure(ctx.db, keys, now);
      throw new AppError('invalid_credentials', 'Invalid e-mail or password');
    }
    const result = await mutate(ctx, 'session', async (tx) => {
      await clearFailures(tx, keys);
      // A hash weaker than today's policy (an older scrypt or argon2 setting) is replaced now that the password is at hand.
      if (found.rehash) await tx.update(users).set({ passwordHash: await hashPassword(input.password!) }).where(eq(users.id, found.user.id));
      return shown(await openSession(tx, { user: found.user, schoolId, method: 'password', now, settings }));
    });
    return result;
  }

  @Mutation(() => SessionPayload, {
    description: 'Exchanges a refresh token for a new access token and a new refresh token (anonymous). A refresh token used twice revokes its whole session.',
  })
  async refreshToken(@Arg('refreshToken', () => String) refreshToken: string, @Ctx() ctx: Context) {
    const settings = ctx.identity ?? config.identity;
    const opened = await refreshSession(ctx.db, refreshToken, ctx.now(), settings);
    return { session: shown(opened), errors: [] };
  }

  @Mutation(() => SignOutPayload, { description: "Signs out the calling credential's session: its access and refresh tokens stop working at once, on every instance." })
  signOut(@Ctx() ctx: Context) {
    return mutate(ctx, 'signOut', async (tx) => {
      const sessionId = ctx.credential?.sessionId;
      if (!sessionId) new Checks().add(null, 'invalid', 'This credential belongs to no session: revoke an API token with revokeApiToken').throwIfAny();
      await closeSession(ctx.db, tx, sessionId!, ctx.now());
      return { done: true, message: 'Signed out' };
    });
  }
}
