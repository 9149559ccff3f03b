import { afterAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { schools } from '../../src/db/school.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { sessions } from '../../src/modules/identity/session.table.js';
import { enrollmentGraphqlFixtures } from '../support/enrollments.fixtures.js';
import { type Person, person, REFRESH, secondInstance, SIGN_IN, SIGN_OUT } from '../support/identity.fixtures.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A student created by an admin signs in with e-mail and password (REST and GraphQL), reads their
// enrollments with the access token, refreshes, signs out: the old tokens answer 401 at once on
// another instance too.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Sign-in School', 'Sign-in Other', (w) => ({ service, school, other } = w));
const enrollments = enrollmentGraphqlFixtures(world);
let second: Awaited<ReturnType<typeof secondInstance>> | undefined;
afterAll(async () => {
  await second?.app.close();
});

/** Until `check` holds (a NOTIFY reaches the other instance when the change commits, a moment later). */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error('never held');
}

/** A student of the school with a password, registered and enrolled in a product. */
async function enrolledStudent(): Promise<Person & { enrollmentId: string }> {
  const student = await person(school);
  const registration = await school.admin.graphql('mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id } errors { code } } }', {
    input: { studentId: String(student.id) },
  });
  const productId = await enrollments.product(school);
  const enrollment = await enrollments.enroll({ studentId: String(student.id), registrationId: registration.data.createRegistration.registration.id, client: null as unknown as Client }, productId);
  return { ...student, enrollmentId: enrollment.id };
}

const ENROLLMENTS = '{ enrollments(first: 10) { nodes { id studentId } } }';

describe('signing in over REST', () => {
  it('answers the person and a student credential; the access token reads their enrollments; refresh and sign-out work', async () => {
    const student = await enrolledStudent();
    const res = await service.anonymous.post('/users/sign_in', { user: { email: student.email.toUpperCase(), password: student.password }, school_id: school.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ role: 'student', token_type: 'Bearer', user: { id: student.id, school_id: school.id, type: 'Student', email: student.email } });
    expect(res.body.access_token).toMatch(/^lp_student_/);
    expect(res.body.refresh_token).toMatch(/^lp_refresh_/);
    // Access tokens live minutes (15 by default); refresh tokens days.
    expect(new Date(res.body.access_token_expires_at).getTime() - service.clock.now().getTime()).toBe(15 * 60_000);
    expect(new Date(res.body.refresh_token_expires_at).getTime()).toBeGreaterThan(new Date(res.body.access_token_expires_at).getTime());

    const access = service.client(res.body.access_token);
    const list = await access.get('/enrollments');
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((e: { id: number }) => String(e.id))).toEqual([student.enrollmentId]);
    // The student's own: another school's objects stay out of reach.
    expect((await access.get(`/schools/${other.id}`)).status).toBe(404);

    const refreshed = await service.anonymous.post('/users/refresh_token', { refresh_token: res.body.refresh_token });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(res.body.refresh_token);
    expect(refreshed.body.access_token).not.toBe(res.body.access_token);
    const renewed = service.client(refreshed.body.access_token);
    expect((await renewed.get('/enrollments')).status).toBe(200);
    // Another instance (its own pool on PostgreSQL) serves and caches the new access token.
    const elsewhere = await secondInstance(service);
    try {
      expect((await elsewhere.client(refreshed.body.access_token).get('/enrollments')).status).toBe(200);

      const out = await renewed.delete('/users/sign_out');
      expect(out.status, out.text).toBe(204);
      for (const token of [res.body.access_token, refreshed.body.access_token]) {
        const refused = await service.client(token).get('/enrollments');
        expect(refused.status).toBe(401);
        // The other instance learns it from the NOTIFY the sign-out sends at commit, not from its cache's age (15 s).
        await eventually(async () => (await elsewhere.client(token).get('/enrollments')).status === 401);
      }
    } finally {
      await elsewhere.app.close();
    }
    // The refresh token of a closed session is refused too.
    expect((await service.anonymous.post('/users/refresh_token', { refresh_token: refreshed.body.refresh_token })).status).toBe(401);
  });

  it('takes form and multipart bodies, the school from X-School-Id or from the subdomain, and records user.signed_in', async () => {
    const student = await person(school);
    const form = await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: student.password }, school_id: school.id }, { encoding: 'form' });
    expect(form.status, form.text).toBe(200);
    const multipart = await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: student.password } }, { encoding: 'multipart', headers: { 'x-school-id': String(school.id) } });
    expect(multipart.status, multipart.text).toBe(200);
    const [row] = await service.db.select({ subdomain: schools.subdomain }).from(schools).where(eq(schools.id, school.id));
    const byHost = await service.anonymous.post('/v1/users/sign_in.json', { user: { email: student.email, password: student.password } }, { headers: { host: `${row.subdomain}.localhost:4000` } });
    expect(byHost.status, byHost.text).toBe(200);
    expect(byHost.body.user.id).toBe(student.id);
    // No school named at all: a 400 that says how to name it.
    const unnamed = await service.anonymous.post('/users/sign_in', { user: { email: student.email, password: student.password } });
    expect(unnamed.status).toBe(400);
    const events = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'user.signed_in'), eq(domainEvents.subjectId, student.id)));
    expect(events.length).toBe(3);
    expect(events[0].payload).toMatchObject({ userId: student.id, role: 'student', method: 'password' });
    expect(JSON.stringify(events)).not.toContain(student.password);
  });

  it('gives staff their role: a collaborator signs in as collaborator, an admin as admin', async () => {
    for (const kind of ['Collaborator', 'Admin'] as const) {
      const someone = await person(school, kind);
      const res = await service.anonymous.post('/users/sign_in', { user: { email: someone.email, password: someone.password }, school_id: school.id });
      expect(res.status, res.text).toBe(200);
      expect(res.body.role).toBe(kind.toLowerCase());
      expect(res.body.access_token).toMatch(new RegExp(`^lp_${kind.toLowerCase()}_`));
      expect((await service.client(res.body.access_token).get(`/schools/${school.id}`)).status).toBe(200);
    }
  });

  it('the same e-mail in another school is another person: the password of one does not open the other', async () => {
    const here = await person(school);
    const res = await service.anonymous.post('/users/sign_in', { user: { email: here.email, password: here.password }, school_id: other.id });
    expect(res.status).toBe(401);
  });
});

describe('signing in over GraphQL', () => {
  it('signIn, refreshToken and signOut; the old tokens are refused at once on a second instance', async () => {
    second = await secondInstance(service);
    const student = await enrolledStudent();
    const signed = await service.anonymous.graphql(SIGN_IN, { input: { email: student.email, password: student.password, schoolId: String(school.id) } });
    expect(signed.errors).toBeUndefined();
    const session = signed.data.signIn.session;
    expect(session).toMatchObject({ role: 'student', tokenType: 'Bearer', user: { id: String(student.id), type: 'Student' } });
    // Both instances serve the token (the second caches it).
    const read = async (client: Client) => (await client.graphql(ENROLLMENTS)).data?.enrollments?.nodes?.map((n: { id: string }) => n.id);
    expect(await read(service.client(session.accessToken))).toEqual([student.enrollmentId]);
    expect(await read(second.client(session.accessToken))).toEqual([student.enrollmentId]);

    // Refreshing on the second instance rotates; both instances take the new access token.
    const refreshed = await second.client(null).graphql(REFRESH, { token: session.refreshToken });
    expect(refreshed.errors).toBeUndefined();
    const next = refreshed.data.refreshToken.session;
    expect(await read(second.client(next.accessToken))).toEqual([student.enrollmentId]);
    expect(await read(service.client(next.accessToken))).toEqual([student.enrollmentId]);

    const out = await service.client(next.accessToken).graphql(SIGN_OUT);
    expect(out.data.signOut).toEqual({ signOut: { done: true, message: 'Signed out' }, errors: [] });
    const [row] = await service.db.select().from(sessions).where(eq(sessions.userId, student.id));
    expect(row.revokedAt).not.toBeNull();
    const tokens = await service.db.select().from(apiTokens).where(eq(apiTokens.sessionId, row.id));
    expect(tokens.length).toBe(2);
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    for (const token of [session.accessToken, next.accessToken]) {
      expect((await service.client(token).graphql(ENROLLMENTS)).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      await eventually(async () => (await second!.client(token).graphql(ENROLLMENTS)).errors?.[0]?.extensions.code === 'UNAUTHENTICATED');
    }
    const revoked = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'token.revoked'), eq(domainEvents.schoolId, school.id)));
    expect(revoked.at(-1)!.payload).toMatchObject({ sessionId: row.id, userId: student.id, reason: 'signed_out' });
  });

  it('signOut with an API token (no session) changes nothing and says why', async () => {
    const res = await school.admin.graphql(SIGN_OUT);
    expect(res.data.signOut.errors[0]).toMatchObject({ code: 'invalid' });
    expect((await school.admin.get(`/schools/${school.id}`)).status).toBe(200);
    expect((await school.admin.delete('/users/sign_out')).status).toBe(422);
    expect((await service.anonymous.delete('/users/sign_out')).status).toBe(401);
  });
});
