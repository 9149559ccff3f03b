import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Credential } from '../src/auth/credential.js';
import { TenancyBreach } from '../src/auth/egress.js';
import { inSchoolScope, isOwn, NO_SCOPE, ownStudentId, scopeOf } from '../src/auth/tenancy.js';
import { acrossSchoolsContext } from '../src/graphql/context.js';
import { byIdLoader, findOr404 } from '../src/graphql/loaders.js';
import { contextFor } from '../src/graphql/request-context.js';
import { courseById } from '../src/modules/courses/course.loaders.js';
import { linkedIdsVariant } from '../src/graphql/linked-ids.js';
import { courses } from '../src/modules/courses/course.table.js';
import { api } from './support/courses.fixtures.js';
import { loggingApp, type Service, startTwoSchools, type TestSchool } from './support/service.js';

// The access layer (src/auth/tenancy.ts): one scope per request, computed once and never changed,
// and a by-id loader that a foreign row still reaches answers not found and logs the breach.

const SECRET_NAME = 'Foreign course Kx4-name';

let service: Service;
let school: TestSchool;
let other: TestSchool;
let app: FastifyInstance;
const lines: string[] = [];
let foreignId: number;
let ownId: number;

/** The course by-id loader as a bug would write it: its `visible` condition forgot the school. */
const misScoped = byIdLoader('course.byId', courses, () => undefined);

beforeAll(async () => {
  ({ service, school, other } = await startTwoSchools('Tenancy School', 'Other Tenancy School'));
  app = await loggingApp(service, lines);
  foreignId = (await api(other.admin).course({ name: SECRET_NAME })).id;
  ownId = (await api(school.admin).course({ name: 'Own course' })).id;
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await app?.close();
  await service?.stop();
});

const headers = (requestId: string) => ({ authorization: `Bearer ${school.admin.token}`, 'x-request-id': requestId, 'content-type': 'application/json' });
const errorsOf = (requestId: string) =>
  lines
    .map((l) => JSON.parse(l))
    .filter((l) => l.reqId === requestId && l.level >= 50);

/** The one error line of a request: the breach, in the output check's shape, and nothing of the row. */
function expectBreachLogged(requestId: string) {
  const errors = errorsOf(requestId);
  expect(errors).toHaveLength(1);
  expect(errors[0].msg).toBe('tenancy breach: rows of another school withheld');
  expect(errors[0].err.type).toBe('TenancyBreach');
  expect(errors[0].err.message).toBe(`course.byId returned rows of school ${other.id} to a request of school ${school.id}; they were withheld`);
  for (const line of lines) expect(line).not.toMatch(/Kx4/);
}

describe('a by-id loader that a row of another school reaches', () => {
  it('REST: 404 `not_found`, as for any foreign id, and the breach is logged', async () => {
    vi.spyOn(courseById, 'batch').mockImplementation(misScoped.batch);
    // The show route reads the course with its module ids in one statement (linked-ids.ts): that read forgets the filter too.
    vi.spyOn(linkedIdsVariant(courseById, ['courseModulesIds']), 'batch').mockImplementation(misScoped.batch);
    const res = await app.inject({ method: 'GET', url: `/courses/${foreignId}`, headers: headers('tenancy-rest-1') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ errors: { base: ['Course not found'] }, details: { base: [{ error: 'not_found' }] } });
    expect(res.body).not.toMatch(/Kx4/);
    expectBreachLogged('tenancy-rest-1');
  });

  it('GraphQL: NOT_FOUND, and the breach is logged', async () => {
    vi.spyOn(courseById, 'batch').mockImplementation(misScoped.batch);
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: headers('tenancy-graphql-1'),
      payload: JSON.stringify({ query: `{ course(id: "${foreignId}") { id name } }` }),
    });
    const body = res.json();
    expect(body.errors).toEqual([expect.objectContaining({ path: ['course'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })]);
    expect(res.body).not.toMatch(/Kx4/);
    expectBreachLogged('tenancy-graphql-1');
  });

  it("serves the school's own rows and logs nothing", async () => {
    vi.spyOn(courseById, 'batch').mockImplementation(misScoped.batch);
    // The show route reads the course with its module ids in one statement (linked-ids.ts): that read forgets the filter too.
    vi.spyOn(linkedIdsVariant(courseById, ['courseModulesIds']), 'batch').mockImplementation(misScoped.batch);
    const res = await app.inject({ method: 'GET', url: `/courses/${ownId}`, headers: headers('tenancy-own-1') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('Own course');
    expect(errorsOf('tenancy-own-1')).toEqual([]);
  });

  it('with no one to log it (a context built without `log`), the breach fails the read instead of passing unseen', async () => {
    const logged: unknown[] = [];
    const deps = { db: service.db, now: () => new Date() };
    const authorization = `Bearer ${school.admin.token}`;
    const withLog = await contextFor({ ...deps, log: (e) => logged.push(e) }, { authorization });
    await expect(findOr404(withLog, misScoped, foreignId, 'Course')).rejects.toMatchObject({ code: 'not_found' });
    expect(logged).toEqual([expect.any(TenancyBreach)]);
    expect(logged[0]).toMatchObject({ source: 'course.byId', schoolId: school.id, foreignSchoolIds: [other.id] });
    await expect(findOr404(await contextFor(deps, { authorization }), misScoped, foreignId, 'Course')).rejects.toThrow(TenancyBreach);
  });
});

describe('the scope of a request', () => {
  const credential = (role: Credential['role'], schoolId: number | null, userId: number | null = null): Credential => ({ tokenId: 1, role, schoolId, userId });

  it("is the credential's school, the platform's every school or the one it names, the student's own person; frozen", () => {
    expect(scopeOf(credential('admin', 3), undefined)).toEqual({ kind: 'school', id: 3, own: null });
    // Another role's X-School-Id names nothing.
    expect(scopeOf(credential('collaborator', 3), '4')).toEqual({ kind: 'school', id: 3, own: null });
    expect(scopeOf(credential('student', 3, 9), undefined)).toEqual({ kind: 'school', id: 3, own: 9 });
    expect(scopeOf(credential('student', 3), undefined)).toEqual({ kind: 'school', id: 3, own: 0 });
    expect(scopeOf(credential('platform', null), undefined)).toEqual({ kind: 'all', own: null });
    expect(scopeOf(credential('platform', null), ' 4 ')).toEqual({ kind: 'school', id: 4, own: null });
    for (const bad of ['0', 'x', '-1', '2147483648', '1.5']) expect(() => scopeOf(credential('platform', null), bad)).toThrow(/X-School-Id must be a school id/);
    expect(() => scopeOf(credential('admin', null), undefined)).toThrow(/not valid/);
    const scope = scopeOf(credential('admin', 3), undefined);
    expect(Object.isFrozen(scope) && Object.isFrozen(NO_SCOPE)).toBe(true);
  });

  it('decides every check from that one value: rows of its school, its person, nothing without a credential', () => {
    const student = { scope: scopeOf(credential('student', 3, 9), undefined) };
    expect([inSchoolScope(student, 3), inSchoolScope(student, 4), ownStudentId(student), isOwn(student, 9), isOwn(student, 10)]).toEqual([true, false, 9, true, false]);
    const platform = { scope: scopeOf(credential('platform', null), undefined) };
    expect([inSchoolScope(platform, 3), ownStudentId(platform), isOwn(platform, 10)]).toEqual([true, null, true]);
    expect(inSchoolScope({ scope: NO_SCOPE }, 3)).toBe(false);
  });

  it('an act that makes a school runs in a context derived for it; the request keeps its own scope and loaders', async () => {
    const deps = { db: service.db, now: () => new Date() };
    const acting = await contextFor(deps, { authorization: `Bearer ${service.platform.token}`, 'x-school-id': String(school.id) });
    const before = acting.scope;
    const across = acrossSchoolsContext(acting);
    expect(across).not.toBe(acting);
    expect(across.scope).toEqual({ kind: 'all', own: null });
    expect(across.loaders).not.toBe(acting.loaders);
    expect(acting.scope).toBe(before);
    expect(acting.scope).toEqual({ kind: 'school', id: school.id, own: null });
    // Its loaders read its own scope: the other school's course is found there, not in the request's.
    expect((await findOr404(across, courseById, foreignId, 'Course')).id).toBe(foreignId);
    await expect(findOr404(acting, courseById, foreignId, 'Course')).rejects.toMatchObject({ code: 'not_found' });
    // Any other credential keeps its context as it is.
    const admin = await contextFor(deps, { authorization: `Bearer ${school.admin.token}` });
    expect(acrossSchoolsContext(admin)).toBe(admin);
  });
});
