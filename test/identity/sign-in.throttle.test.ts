import { afterAll, describe, expect, it } from 'vitest';
import { person, secondInstance, SIGN_IN } from '../support/identity.fixtures.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Failed sign-ins are counted in PostgreSQL per account and per client address, shared by every
// instance: the 11th failure within the window answers 429 with Retry-After, whichever instance it reaches.

let service: Service;
let school: TestSchool;
twoSchools('Throttle School', 'Throttle Other', (w) => ({ service, school } = w));
const apps: Awaited<ReturnType<typeof secondInstance>>[] = [];
afterAll(async () => {
  for (const app of apps) await app.app.close();
});

const body = (email: string, password: string, schoolId: number) => ({ user: { email, password }, school_id: schoolId });

describe('the lock-out', () => {
  it('the 11th failure within the window answers 429 with Retry-After, on either of two instances; the window lifts it', async () => {
    const second = await secondInstance(service);
    apps.push(second);
    const student = await person(school);
    const instances: Client[] = [service.anonymous, second.client(null)];
    for (let i = 0; i < 10; i++) {
      const res = await instances[i % 2].post('/users/sign_in', body(student.email, 'wrong-password', school.id));
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    const locked = await instances[0].post('/users/sign_in', body(student.email, 'wrong-password', school.id));
    expect(locked.status).toBe(429);
    expect(locked.body.details.base[0].error).toBe('rate_limited');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Locked means locked: the right password waits too, on the other instance and over GraphQL.
    expect((await instances[1].post('/users/sign_in', body(student.email, student.password, school.id))).status).toBe(429);
    const graphql = await instances[1].graphql(SIGN_IN, { input: { email: student.email, password: student.password, schoolId: String(school.id) } });
    expect(graphql.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(graphql.errors?.[0].extensions.retryAfter).toBeGreaterThan(0);

    // Past the window, the person signs in, and their failures are forgotten.
    service.clock.set(new Date(service.clock.now().getTime() + (retryAfter + 1) * 1000));
    const signed = await instances[1].post('/users/sign_in', body(student.email, student.password, school.id));
    expect(signed.status, signed.text).toBe(200);
    for (let i = 0; i < 9; i++) expect((await instances[0].post('/users/sign_in', body(student.email, 'wrong-password', school.id))).status).toBe(401);
  });

  it('an unknown e-mail is locked like a known one (the lock tells nothing either)', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++) expect((await service.anonymous.post('/users/sign_in', body(email, 'whatever-it-is', school.id))).status).toBe(401);
    const locked = await service.anonymous.post('/users/sign_in', body(email, 'whatever-it-is', school.id));
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
  });

  it('a client address that fails on many accounts is locked out too (SIGN_IN_MAX_FAILURES_PER_ADDRESS)', async () => {
    const strict = await secondInstance(service, { identity: { maxFailuresPerAddress: 3 } });
    apps.push(strict);
    // A later moment: the earlier tests' failures from this address have left the window.
    service.clock.set(new Date(service.clock.now().getTime() + 3600_000));
    const client = strict.client(null);
    const people = [await person(school), await person(school), await person(school), await person(school)];
    for (const someone of people.slice(0, 3)) expect((await client.post('/users/sign_in', body(someone.email, 'wrong-password', school.id))).status).toBe(401);
    const locked = await client.post('/users/sign_in', body(people[3].email, people[3].password, school.id));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
