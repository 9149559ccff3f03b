import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { hash } from '@node-rs/argon2';
import { passwordResets } from '../../src/auth/password-reset.table.js';
import { mails as outbox } from '../../src/modules/mail/mail.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { CHANGE_PASSWORD, person, REQUEST_RESET, RESET, signIn } from '../support/identity.fixtures.js';
import { loggingApp, type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Passwords: a person changes their own (with the current one); a forgotten one is reset through a
// single-use, expiring link sent by e-mail. A new password has a minimum length and is no common one.

let service: Service;
let school: TestSchool;
twoSchools('Password School', 'Password Other', (w) => ({ service, school } = w));

const NEW_PASSWORD = 'marble-quokka-sundial-42';
const ME = (id: number) => `{ student(id: ${id}) { id } }`;
const works = async (token: string, id: number) => !(await service.client(token).graphql(ME(id))).errors;

describe('changePassword', () => {
  it("changes the person's own password, signs out their other sessions and keeps this one", async () => {
    const student = await person(school);
    const here = await signIn(service.anonymous, student);
    const elsewhere = await signIn(service.anonymous, student);
    const res = await service.client(here.accessToken).graphql(CHANGE_PASSWORD, { input: { currentPassword: student.password, password: NEW_PASSWORD } });
    expect(res.data.changePassword.errors).toEqual([]);
    expect(await works(here.accessToken, student.id)).toBe(true);
    expect(await works(elsewhere.accessToken, student.id)).toBe(false);
    // The old password no longer opens a session; the new one does.
    expect((await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: student.password }, school_id: school.id })).status).toBe(401);
    expect((await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: NEW_PASSWORD }, school_id: school.id })).status).toBe(200);
    const [changed] = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'user.password_changed'), eq(domainEvents.subjectId, student.id)));
    expect(changed.payload).toEqual({ userId: student.id, via: 'change' });
    expect(JSON.stringify(changed)).not.toContain(NEW_PASSWORD);
  });

  it('refuses a wrong current password, a short one and a common one, and changes nothing', async () => {
    const student = await person(school);
    const { accessToken } = await signIn(service.anonymous, student);
    const client = service.client(accessToken);
    const [before] = await service.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, student.id));
    const cases: [Record<string, string>, [string, string]][] = [
      [{ currentPassword: 'not-my-password', password: NEW_PASSWORD }, ['currentPassword', 'invalid']],
      [{ currentPassword: student.password, password: 'short' }, ['password', 'too_short']],
      [{ currentPassword: student.password, password: 'password123' }, ['password', 'too_common']],
      [{ currentPassword: student.password, password: 'qwertyuiop' }, ['password', 'too_common']],
      [{ currentPassword: student.password }, ['password', 'blank']],
    ];
    for (const [input, [field, code]] of cases) {
      const res = await client.graphql(CHANGE_PASSWORD, { input });
      expect(res.data.changePassword.errors.map((e: { field: string[]; code: string }) => [e.field.join('.'), e.code]), JSON.stringify(input)).toEqual([[field, code]]);
    }
    // REST: PUT or PATCH /users/change_password, 422 naming the field.
    const rest = await client.put('/users/change_password', { user: { current_password: student.password, password: 'iloveyou1' } });
    expect(rest.status).toBe(422);
    expect(rest.body.details).toEqual({ password: [{ error: 'too_common' }] });
    const [after] = await service.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, student.id));
    expect(after.hash).toBe(before.hash);
    const ok = await client.patch('/users/change_password', { user: { current_password: student.password, password: NEW_PASSWORD } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ done: true });
  });

  it('is the person’s own: an app or the platform, acting for no one, may not; no credential is a 401', async () => {
    expect((await (await service.token('app', school.id)).graphql(CHANGE_PASSWORD, { input: { currentPassword: 'x', password: NEW_PASSWORD } })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await service.platform.graphql(CHANGE_PASSWORD, { input: { currentPassword: 'x', password: NEW_PASSWORD } })).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await service.anonymous.put('/users/change_password', { user: { current_password: 'x', password: NEW_PASSWORD } })).status).toBe(401);
  });

  it('a sign-in upgrades a hash weaker than the policy', async () => {
    const student = await person(school);
    const weak = await hash(student.password, { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    await service.db.update(users).set({ passwordHash: weak }).where(eq(users.id, student.id));
    await signIn(service.anonymous, student);
    const [row] = await service.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, student.id));
    expect(row.hash).not.toBe(weak);
    expect(row.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('password reset', () => {
  /** The person's reset mails in the outbox (kept: no SMTP server here), each with the link its text carries. */
  const mailsOf = async (userId: number) =>
    (await service.db.select().from(outbox).where(and(eq(outbox.userId, userId), eq(outbox.kind, 'password_reset')))).map((mail) => ({
      ...mail,
      link: /https?:\/\/\S+reset_password_token=[\w-]+/.exec(mail.text)![0],
    }));
  const tokenOf = (link: string) => new URL(link).searchParams.get('reset_password_token')!;

  it('answers the same for a known and an unknown e-mail; the link goes to the mail only', async () => {
    const student = await person(school);
    const known = await service.anonymous.post('/users/password', { user: { email: student.email }, school_id: school.id });
    const unknown = await service.anonymous.post('/users/password', { user: { email: `x${student.email}` }, school_id: school.id });
    expect(known.status, known.text).toBe(200);
    expect(unknown.text).toBe(known.text);
    expect((await service.anonymous.post('/users/password', { user: { email: ' ' }, school_id: school.id })).status).toBe(422);
    expect((await service.anonymous.post('/users/password', { user: { email: student.email } })).status).toBe(400);
    const mails = await mailsOf(student.id);
    expect(mails.length).toBe(1);
    expect(mails[0].recipient).toBe(student.email);
    const token = tokenOf(mails[0].link);
    expect(token.length).toBeGreaterThan(30);
    // Never in a reply, an event, or stored in the clear beside the mail.
    expect(known.text).not.toContain(token);
    const events = await service.db.select().from(domainEvents).where(eq(domainEvents.schoolId, school.id));
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(await service.db.select().from(passwordResets))).not.toContain(token);
  });

  it('sets the password once with the token and revokes every session of the person', async () => {
    const student = await person(school);
    const session = await signIn(service.anonymous, student);
    await service.anonymous.graphql(REQUEST_RESET, { input: { email: student.email, schoolId: String(school.id) } });
    const token = tokenOf((await mailsOf(student.id))[0].link);
    const common = await service.anonymous.graphql(RESET, { input: { resetPasswordToken: token, password: 'password1' } });
    expect(common.data.resetPassword.errors).toEqual([expect.objectContaining({ field: ['password'], code: 'too_common' })]);
    const res = await service.anonymous.put('/users/password', { user: { reset_password_token: token, password: NEW_PASSWORD } });
    expect(res.status, res.text).toBe(200);
    expect(await works(session.accessToken, student.id)).toBe(false);
    expect((await service.anonymous.post('/users/refresh_token', { refresh_token: session.refreshToken })).status).toBe(401);
    await signIn(service.anonymous, { ...student, password: NEW_PASSWORD });
    // Single use.
    const again = await service.anonymous.graphql(RESET, { input: { resetPasswordToken: token, password: 'another-fine-passphrase' } });
    expect(again.data.resetPassword.errors).toEqual([expect.objectContaining({ field: ['resetPasswordToken'], code: 'invalid' })]);
    const [changed] = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'user.password_changed'), eq(domainEvents.subjectId, student.id)));
    expect(changed.payload).toEqual({ userId: student.id, via: 'reset' });
  });

  it('no log line shows the link, its token or the passwords', async () => {
    const lines: string[] = [];
    const app = await loggingApp(service, lines);
    try {
      const student = await person(school);
      const send = (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) =>
        app.inject({ method, url, headers: body ? { 'content-type': 'application/json' } : {}, payload: body ? JSON.stringify(body) : undefined });
      await send('POST', '/users/password', { user: { email: student.email }, school_id: school.id });
      const link = (await mailsOf(student.id))[0].link;
      const token = tokenOf(link);
      // A client opening the link itself: its query is masked in the request log.
      await send('GET', new URL(link).pathname + new URL(link).search);
      await send('PUT', '/users/password', { user: { reset_password_token: token, password: NEW_PASSWORD } });
      await send('POST', '/users/sign_in', { user: { email: student.email, password: 'wrong-guess-here' }, school_id: school.id });
      expect(lines.length).toBeGreaterThan(3);
      const logged = lines.join('\n');
      for (const secret of [token, encodeURIComponent(token), NEW_PASSWORD, 'wrong-guess-here']) expect(logged).not.toContain(secret);
    } finally {
      await app.close();
    }
  });

  it('a link expires (an hour by default); a made-up token is invalid', async () => {
    const student = await person(school);
    await service.anonymous.graphql(REQUEST_RESET, { input: { email: student.email, schoolId: String(school.id) } });
    const token = tokenOf((await mailsOf(student.id))[0].link);
    service.clock.set(new Date(service.clock.now().getTime() + 3601_000));
    const expired = await service.anonymous.graphql(RESET, { input: { resetPasswordToken: token, password: NEW_PASSWORD } });
    expect(expired.data.resetPassword.errors).toEqual([expect.objectContaining({ field: ['resetPasswordToken'], code: 'invalid' })]);
    const madeUp = await service.anonymous.put('/users/password', { user: { reset_password_token: 'made-up', password: NEW_PASSWORD } });
    expect(madeUp.status).toBe(422);
    await signIn(service.anonymous, student);
  });
});
