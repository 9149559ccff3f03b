import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkSchoolRows, TenancyBreach } from '../src/auth/egress.js';
import { NO_SCOPE } from '../src/auth/tenancy.js';
import { type Context, defineLoader } from '../src/graphql/context.js';
import { loadMany } from '../src/graphql/loaders.js';
import { contextFor } from '../src/graphql/request-context.js';
import { courseById } from '../src/modules/courses/course.loaders.js';
import { linkedIdsVariant } from '../src/graphql/linked-ids.js';
import { courses } from '../src/modules/courses/course.table.js';
import { api } from './support/courses.fixtures.js';
import { loggingApp, type Service, startTwoSchools, type TestSchool } from './support/service.js';

// The tenancy output check (src/auth/egress.ts) behind every loader and root field: a read that
// forgot its school filter must answer the 500 of an unexpected error, log the breach under the
// request, and show none of the foreign row, in the reply or in the log.

const SECRET_NAME = 'Foreign course Zq7-name';
const SECRET_DESCRIPTION = 'Foreign course Zq7-description';

let service: Service;
let school: TestSchool;
let other: TestSchool;
let app: FastifyInstance;
const lines: string[] = [];
let foreignId: number;
let ownId: number;

/** The course by-id read as a bug would write it: by id alone, no school condition. */
const unscopedCourses = async (ctx: Context, ids: readonly number[]) => {
  const rows = await ctx.db.select().from(courses).where(inArray(courses.id, [...ids]));
  return ids.map((id) => rows.find((r) => r.id === id) ?? null);
};

beforeAll(async () => {
  ({ service, school, other } = await startTwoSchools('Egress School', 'Other Egress School'));
  app = await loggingApp(service, lines);
  foreignId = (await api(other.admin).course({ name: SECRET_NAME, description: SECRET_DESCRIPTION })).id;
  ownId = (await api(school.admin).course({ name: 'Own course' })).id;
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await app?.close();
  await service?.stop();
});

const headers = (requestId: string) => ({ authorization: `Bearer ${school.admin.token}`, 'x-request-id': requestId, 'content-type': 'application/json' });
const logOf = (requestId: string) => lines.filter((l) => JSON.parse(l).reqId === requestId);

/** The one error line of a request: the breach, naming the loader and both schools, and nothing of the row. */
/** `loader`: the read that returned the row (the show route's reads the course with its module ids). */
function expectBreachLogged(requestId: string, loader = 'course.byId') {
  const logged = logOf(requestId);
  const errors = logged.map((l) => JSON.parse(l)).filter((l) => l.level >= 50);
  expect(errors).toHaveLength(1);
  expect(errors[0].msg).toBe('tenancy breach: rows of another school withheld');
  expect(errors[0].err.type).toBe('TenancyBreach');
  expect(errors[0].err.message).toBe(`${loader} returned rows of school ${other.id} to a request of school ${school.id}; they were withheld`);
  for (const line of logged) expect(line).not.toMatch(/Zq7/);
}

describe('a by-id loader that forgot its school filter', () => {
  it('GraphQL: the field answers INTERNAL_SERVER_ERROR, the breach is logged, the row is nowhere', async () => {
    vi.spyOn(courseById, 'batch').mockImplementation(unscopedCourses);
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: headers('egress-graphql-1'),
      payload: JSON.stringify({ query: `{ course(id: "${foreignId}") { id name description } }` }),
    });
    const body = res.json();
    expect(body.errors).toEqual([expect.objectContaining({ message: 'Internal server error', path: ['course'], extensions: { code: 'INTERNAL_SERVER_ERROR' } })]);
    expect(body.data?.course ?? null).toBeNull();
    expect(res.body).not.toMatch(/Zq7/);
    expectBreachLogged('egress-graphql-1');
  });

  it('REST: 500 `internal`, the breach is logged, the row is nowhere', async () => {
    vi.spyOn(courseById, 'batch').mockImplementation(unscopedCourses);
    // The show route reads the course with its module ids in one statement (linked-ids.ts): that read forgets the filter too.
    vi.spyOn(linkedIdsVariant(courseById, ['courseModulesIds']), 'batch').mockImplementation(unscopedCourses);
    const res = await app.inject({ method: 'GET', url: `/courses/${foreignId}`, headers: headers('egress-rest-1') });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ errors: { base: ['Internal server error'] }, details: { base: [{ error: 'internal' }] } });
    expect(res.body).not.toMatch(/Zq7/);
    expectBreachLogged('egress-rest-1', 'course.byId+courseModulesIds');
  });

  it("the same loader still serves the school's own rows (the check fires on foreign rows only)", async () => {
    vi.spyOn(courseById, 'batch').mockImplementation(unscopedCourses);
    // The show route reads the course with its module ids in one statement (linked-ids.ts): that read forgets the filter too.
    vi.spyOn(linkedIdsVariant(courseById, ['courseModulesIds']), 'batch').mockImplementation(unscopedCourses);
    const res = await app.inject({ method: 'GET', url: `/courses/${ownId}`, headers: headers('egress-own-1') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('Own course');
    expect(logOf('egress-own-1').map((l) => JSON.parse(l)).filter((l) => l.level >= 50)).toEqual([]);
  });

  it('without the bug, the foreign course is simply not found (the tenancy condition holds first)', async () => {
    const res = await app.inject({ method: 'GET', url: `/courses/${foreignId}`, headers: headers('egress-scoped-1') });
    expect(res.statusCode).toBe(404);
    expect(logOf('egress-scoped-1').map((l) => JSON.parse(l)).filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('the check on the real LoaderRegistry', () => {
  const misScoped = defineLoader<number, unknown>('test.misScoped', unscopedCourses);
  const context = () => contextFor({ db: service.db, now: () => new Date() }, { authorization: `Bearer ${school.admin.token}` });

  it('a batch holding a foreign row fails every key, and loadMany fails rather than skipping it', async () => {
    const ctx = await context();
    await expect(ctx.loaders.get(misScoped).load(foreignId)).rejects.toThrow(TenancyBreach);
    const again = await context();
    const failure = await loadMany(again, misScoped, [ownId, foreignId]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TenancyBreach);
    expect(failure).toMatchObject({ source: 'test.misScoped', schoolId: school.id, foreignSchoolIds: [other.id] });
    expect(await loadMany(await context(), misScoped, [ownId])).toMatchObject([{ id: ownId }]);
  });

  it('root results are checked in lists, connections and payloads; the platform and public reads pass', async () => {
    const ctx = await context();
    const [foreign] = await service.db.select().from(courses).where(inArray(courses.id, [foreignId]));
    const own = { id: ownId, schoolId: school.id };
    for (const value of [foreign, [own, foreign], { nodes: [own, foreign], totalCount: 2 }, { course: foreign, errors: [] }])
      expect(() => checkSchoolRows(ctx, value, 'Query.test')).toThrow(TenancyBreach);
    expect(checkSchoolRows(ctx, { nodes: [own], totalCount: 1 }, 'Query.test')).toEqual({ nodes: [own], totalCount: 1 });
    const platform = await contextFor({ db: service.db, now: () => new Date() }, { authorization: `Bearer ${service.platform.token}`, 'x-school-id': String(school.id) });
    expect(checkSchoolRows(platform, foreign, 'Query.test')).toBe(foreign);
    expect(checkSchoolRows({ ...ctx, scope: NO_SCOPE, credential: null }, foreign, 'Query.test')).toBe(foreign);
  });
});
