import 'reflect-metadata';
import { and, eq, isNull } from 'drizzle-orm';
import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { digestToken } from '../../auth/credential.js';
import { issuePasswordLink } from '../../auth/password-link.js';
import { passwordResets } from '../../auth/password-reset.table.js';
import { hashPassword, verifyPassword } from '../../auth/password.js';
import { config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { emitEvent } from '../events/events.js';
import { enqueueMail } from '../mail/mail.enqueue.js';
import { type UserRow, users } from '../users/user.table.js';
import { ChangePasswordInput, IdentityAck, PasswordResetRequestInput, ResetPasswordInput } from './identity.type.js';
import { checkNewPassword } from './password-policy.js';
import { revokeSessions, sessionsOf } from './revocation.js';
import { noSchoolNamed, personByEmail, schoolOfRequest } from './sign-in.js';
import { normalEmail } from '../users/user.email.js';

const ChangePasswordPayload = Payload(IdentityAck, 'changePassword', 'ChangePasswordPayload');
const PasswordResetRequestPayload = Payload(IdentityAck, 'passwordReset', 'PasswordResetRequestPayload');
const ResetPasswordPayload = Payload(IdentityAck, 'resetPassword', 'ResetPasswordPayload');

/** The one answer to a reset request, whether or not the e-mail is known. */
const RESET_REQUESTED = { done: true, message: 'If the e-mail belongs to a person of the school, a reset link is on its way' };

/** Sets a person's password and says so (`user.password_changed`). */
async function setPassword(tx: Queryable, user: UserRow, password: string, via: 'change' | 'reset'): Promise<void> {
  await tx.update(users).set({ passwordHash: await hashPassword(password) }).where(eq(users.id, user.id));
  await emitEvent(tx, { schoolId: user.schoolId, name: 'user.password_changed', subjectType: 'User', subjectId: user.id, payload: { userId: user.id, via } });
}

/** A person's own password: changed with the current one, or reset through a link sent by e-mail. */
@Resolver()
export class PasswordResolver {
  @Mutation(() => ChangePasswordPayload, {
    description: "Changes the signed-in person's own password (the current one is required). Their other sessions are revoked; this one goes on.",
  })
  changePassword(@Arg('input', () => ChangePasswordInput) input: ChangePasswordInput, @Ctx() ctx: Context) {
    return mutate(ctx, 'changePassword', async (tx) => {
      const credential = ctx.credential!;
      const checks = new Checks().required('currentPassword', input.currentPassword);
      const [person] = credential.userId ? await tx.select().from(users).where(eq(users.id, credential.userId)) : [];
      if (!person) checks.add(null, 'invalid', 'This credential acts for no person: only a person changes their own password');
      checks.throwIfAny();
      const user = person!;
      const current = await verifyPassword(input.currentPassword!, user.passwordHash ?? '');
      if (!current.valid) checks.add('currentPassword', 'invalid', 'is not the current password').throwIfAny();
      (await checkNewPassword(checks, 'password', input.password, [user.email, user.fullName])).throwIfAny();
      await setPassword(tx, user, input.password!, 'change');
      // Whoever else holds a session of theirs is signed out; the caller's own session, and an API token it uses, go on.
      await revokeSessions(ctx.db, tx, sessionsOf(user.id, credential.sessionId), ctx.now(), 'password_changed');
      return { done: true, message: 'Password changed; your other sessions were signed out' };
    });
  }

  @Mutation(() => PasswordResetRequestPayload, {
    description: 'Sends a single-use, expiring reset link to the e-mail if it is a person of the school (anonymous). The answer is the same either way.',
  })
  async requestPasswordReset(@Arg('input', () => PasswordResetRequestInput) input: PasswordResetRequestInput, @Ctx() ctx: Context) {
    const settings = ctx.identity ?? config.identity;
    const schoolId = await schoolOfRequest(ctx, input.schoolId);
    if (schoolId === null) throw noSchoolNamed();
    const email = normalEmail(input.email);
    return mutate(ctx, 'passwordReset', async (tx) => {
      new Checks().required('email', email).throwIfAny();
      const user = await personByEmail(tx, schoolId, email);
      if (!user) return RESET_REQUESTED;
      const link = await issuePasswordLink(tx, { schoolId, userId: user.id }, ctx.now(), settings.passwordResetSeconds);
      await enqueueMail(tx, { schoolId, userId: user.id, kind: 'password_reset', data: { link } });
      return RESET_REQUESTED;
    });
  }

  @Mutation(() => ResetPasswordPayload, {
    description: "Sets a new password with a reset link's token (anonymous): the token works once, before it expires; every session of the person is revoked.",
  })
  resetPassword(@Arg('input', () => ResetPasswordInput) input: ResetPasswordInput, @Ctx() ctx: Context) {
    return mutate(ctx, 'resetPassword', async (tx) => {
      const now = ctx.now();
      const checks = new Checks().required('resetPasswordToken', input.resetPasswordToken);
      checks.throwIfAny();
      const [found] = await tx
        .select()
        .from(passwordResets)
        .where(and(eq(passwordResets.tokenDigest, digestToken(input.resetPasswordToken!)), isNull(passwordResets.usedAt)))
        .for('update');
      if (!found || found.expiresAt.getTime() <= now.getTime())
        checks.add('resetPasswordToken', 'invalid', 'is invalid or has expired: ask for a new link').throwIfAny();
      const reset = found!;
      const [user] = await tx.select().from(users).where(eq(users.id, reset.userId));
      (await checkNewPassword(checks, 'password', input.password, [user.email, user.fullName])).throwIfAny();
      await tx.update(passwordResets).set({ usedAt: now }).where(eq(passwordResets.id, reset.id));
      await setPassword(tx, user, input.password!, 'reset');
      // Whoever held the old password may hold a session or a token of theirs: all stop.
      await revokeSessions(ctx.db, tx, sessionsOf(user.id), now, 'password_reset');
      return { done: true, message: 'Password set: sign in with it' };
    });
  }
}
