import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp, executors } from '../src/app.js';
import { startCourses } from './support/courses.fixtures.js';
import type { Service, TestSchool } from './support/service.js';

// Production runs an operation once on graphql-js, then compiled by graphql-jit (graphql/executor.ts);
// the rest of the suite runs every operation compiled from its first run. Both paths must answer
// alike, byte for byte: data, errors (messages, paths, locations) and HTTP status.

let service: Service;
let school: TestSchool;
let other: TestSchool;
/** An app as production runs it: compiles an operation on its second run. */
let app: FastifyInstance;
let courseId: number;

beforeAll(async () => {
  const started = await startCourses('Executor School', 'Executor Other');
  ({ service, school, other } = started);
  const course = await started.make.course({ description: 'Both paths' });
  courseId = course.id;
  for (let m = 0; m < 2; m++) {
    const module = await started.make.module(course.id);
    for (let l = 0; l < 3; l++) await started.make.lesson({ course_module_id: module.id });
  }
  app = await createApp({ database: service.database, rateLimit: { enabled: false }, credentialCacheSeconds: 0 });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await service?.stop();
});

const post = (token: string, body: object) =>
  app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: body });

describe('the compiled executor', () => {
  const cases: [string, () => object][] = [
    [
      'nested lists with fragments, aliases, variables and directives',
      () => ({
        query: `query Tree($id: ID!, $withLessons: Boolean!, $skipName: Boolean = false) {
          course(id: $id) { ...C again: id }
          courses(first: 5) { totalCount nodes { id name @skip(if: $skipName) } pageInfo { hasNextPage } }
        }
        fragment C on Course { id name createdAt __typename modules { id name lessons @include(if: $withLessons) { id title type position } } }`,
        variables: { id: String(courseId), withLessons: true },
      }),
    ],
    ['a row of another school: NOT_FOUND with its path, beside data', () => ({ query: `{ a: course(id: "${courseId}") { id } b: school(id: "${other.id}") { id } }` })],
    ['a variable that does not coerce', () => ({ query: 'query ($id: ID!) { course(id: $id) { id } }', variables: { id: { not: 'an id' } } })],
    ['a missing required variable', () => ({ query: 'query ($id: ID!) { course(id: $id) { id } }' })],
    ['a mutation with a payload error', () => ({ query: 'mutation { createCourse(input: { name: "" }) { course { id } errors { field code message } } }' })],
    ['introspection', () => ({ query: '{ __type(name: "Course") { name fields { name type { kind name ofType { name } } } } }' })],
  ];

  it.each(cases)('%s: the first run (graphql-js) and the later ones (compiled) answer the same', async (_, body) => {
    const executor = executors.get(app)!;
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(school.admin.token!, body());
      // What a run used (time, and objects a failed sibling left unresolved) is a measure, not the answer.
      runs.push({ status: res.statusCode, body: res.body.replace(/,"objects":\d+,/, ',').replace(/,"resultBytes":\d+,/, ',').replace(/,"milliseconds":\d+,/, ',') });
    }
    expect(runs[0].body).not.toBe('');
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(executor.compiledOperations()).toBeGreaterThan(0);
  });

  it('compiles an operation once, on its second run, and keeps it', async () => {
    const executor = executors.get(app)!;
    const query = `{ course(id: "${courseId}") { id name } }`;
    const before = executor.compiledOperations();
    await post(school.admin.token!, { query });
    expect(executor.compiledOperations()).toBe(before);
    await post(school.admin.token!, { query });
    expect(executor.compiledOperations()).toBe(before + 1);
    await post(school.admin.token!, { query });
    expect(executor.compiledOperations()).toBe(before + 1);
  });

  it('REST routes run compiled too, with the same reply each time', async () => {
    const replies = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: `/courses/${courseId}`, headers: { authorization: `Bearer ${school.admin.token}` } });
      replies.push({ status: res.statusCode, body: res.body });
    }
    expect(replies[0].status).toBe(200);
    expect(replies[1]).toEqual(replies[0]);
    expect(replies[2]).toEqual(replies[0]);
  });
});
