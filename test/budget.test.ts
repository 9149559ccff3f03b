import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { courses } from '../src/modules/courses/course.table.js';
import { type GraphqlLimits } from '../src/graphql/limits.js';
import { Client, type Service, startService, type TestSchool } from './support/service.js';

// The budget of a running operation (graphql/budget.ts): the issue-23 reproducer in small (courses
// that are all in the same paths, read round the cycle under many aliases) stays within the static
// cost limit, and is stopped while it runs by the count of objects, with a clear error, while the
// process keeps answering; text is counted too; a blocked read is answered at its deadline. With the
// database's statistics (graphql/list-bounds.ts) the same reproducer is refused before it runs.

const COURSES = 12;
const PATHS = 12;
let service: Service;
let school: TestSchool;
let courseId: number;
const apps: FastifyInstance[] = [];

/** A second app over the service's database with its own GraphQL limits. */
async function clientWith(limits: Partial<GraphqlLimits>, token: string, credentialCacheSeconds = 0, listBoundsSeconds = 0): Promise<Client> {
  const app = await createApp({
    database: service.database,
    now: service.clock.now,
    rateLimit: { enabled: false },
    graphqlLimits: limits,
    compileAfterRuns: 0,
    credentialCacheSeconds,
    listBoundsSeconds,
  });
  await app.ready();
  apps.push(app);
  return new Client(app, token);
}

/** `aliases` copies of the cycle course → paths → courses → paths: PATHS × COURSES × PATHS objects each. */
const cycle = (aliases: number) =>
  `query ($id: ID!) { ${Array.from({ length: aliases }, (_, i) => `a${i}: course(id: $id) { paths { courses { paths { id } } } }`).join(' ')} }`;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Budget School');
  const made = await service.db
    .insert(courses)
    .values(Array.from({ length: COURSES }, (_, i) => ({ schoolId: school.id, name: `Course ${i}`, description: 'x'.repeat(1000) })))
    .returning();
  courseId = made[0].id;
  for (let p = 0; p < PATHS; p++) {
    const res = await school.admin.graphql('mutation ($input: CreatePathInput!) { createPath(input: $input) { errors { message } } }', {
      input: { name: `Path ${p}`, description: `Path ${p}`, courseIds: made.map((c) => String(c.id)) },
    });
    expect(res.data.createPath.errors).toEqual([]);
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await service?.stop();
});

describe('the static cost of plain lists, from the database statistics', () => {
  it('given statistics, when the cycle is priced, then a list costs its average size and a returning one its largest (at least a page): the reproducer is refused before it runs', async () => {
    // PostgreSQL's autovacuum analyzes on its own schedule; here the statistics are made now.
    await service.db.execute(sql`analyze path_courses`);
    const priced = await clientWith({}, school.admin.token!, 0, 3600);
    const plain = await clientWith({}, school.admin.token!);
    // Without statistics a course's paths count 2; with them, the 12 each course is in.
    const guessed: any = await plain.graphql(cycle(1), { id: courseId });
    expect(guessed.extensions.cost.requested).toBe(1 + 2 * (1 + 25 * (1 + 25)));
    const known: any = await priced.graphql(cycle(1), { id: courseId });
    expect(known.errors).toBeUndefined();
    expect(known.extensions.cost.requested).toBe(1 + PATHS * (1 + 25 * (1 + 25)));
    // The 19 aliases fit the constants (24,757) but not the data.
    expect(((await plain.graphql(cycle(19), { id: courseId })) as any).extensions.cost.requested).toBe(19 * (1 + 2 * (1 + 25 * (1 + 25))));
    const refused: any = await priced.graphql(cycle(19), { id: courseId });
    expect(refused.errors?.[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(refused.extensions.cost.requested).toBe(19 * (1 + PATHS * (1 + 25 * (1 + 25))));
    // A list with no statistics (modules: none exist) keeps the constant.
    const modules: any = await priced.graphql('query ($id: ID!) { course(id: $id) { modules { id } } }', { id: courseId });
    expect(modules.extensions.cost.requested).toBe(1 + 2 * 1);
  });
});

describe('the budget of a running operation', () => {
  it('given a cycle that fits the static cost but fans out over the data, when it runs, then it is stopped at the object limit with a 400 RESULT_TOO_LARGE and the count', async () => {
    const admin = await clientWith({ maxObjects: 5000 }, school.admin.token!);
    // One alias holds 1 + 12 + 144 + 1,728 objects: within the limit, and priced below the maximum cost.
    const one: any = await admin.graphql(cycle(1), { id: courseId });
    expect(one.errors).toBeUndefined();
    expect(one.data.a0.paths).toHaveLength(PATHS);
    expect(one.extensions.cost.objects).toBe(1 + PATHS + PATHS * COURSES + PATHS * COURSES * PATHS);
    expect(one.extensions.cost.maximumObjects).toBe(5000);

    const many: any = await admin.graphql(cycle(19), { id: courseId });
    expect(many.extensions.cost.requested).toBeLessThanOrEqual(25_000);
    expect(many.status).toBe(400);
    expect(many.data).toBeUndefined();
    expect(many.errors).toHaveLength(1);
    expect(many.errors![0].extensions).toMatchObject({ code: 'RESULT_TOO_LARGE' });
    expect(many.errors![0].extensions.objects).toBeGreaterThan(5000);
    // Stopped near the limit, not after every alias ran (19 × 1,885 objects).
    expect(many.errors![0].extensions.objects).toBeLessThan(5000 + 2 * PATHS * COURSES * PATHS);
    expect(many.errors![0].message).toMatch(/more than 5000 objects/);
    // The process answers the next request as usual.
    expect((await admin.get('/healthz')).status).toBe(200);
    // Four and eight at once: each stopped alone, with health answered while they run.
    for (const parallel of [4, 8]) {
      const [health, ...replies] = await Promise.all([admin.get('/healthz'), ...Array.from({ length: parallel }, () => admin.graphql(cycle(19), { id: courseId }))]);
      expect(health.status).toBe(200);
      expect(replies.map((r: any) => [r.status, r.errors?.[0].extensions.code])).toEqual(Array(parallel).fill([400, 'RESULT_TOO_LARGE']));
    }
    expect((await admin.graphql(cycle(1), { id: courseId })).errors).toBeUndefined();
  });

  it('given the same read over REST, when its reply would be too large, then REST answers 400 result_too_large', async () => {
    const admin = await clientWith({ maxObjects: 3 }, school.admin.token!);
    const res = await admin.get(`/courses/${courseId}`);
    // A course alone is within three objects; a list of courses is not.
    expect(res.status).toBe(200);
    const list = await admin.get('/courses?page=1&per_page=10');
    expect(list.status).toBe(400);
    expect(list.body.details.base).toEqual([{ error: 'result_too_large' }]);
  });

  it('given text, when a reply repeats it past the byte limit, then it is stopped with RESULT_TOO_LARGE', async () => {
    const admin = await clientWith({ maxResultBytes: 20_000 }, school.admin.token!);
    // Each course description is 1,000 characters: 12 fit, 144 do not.
    const few: any = await admin.graphql('query ($id: ID!) { course(id: $id) { paths { id } } courses(first: 12) { nodes { description } } }', { id: courseId });
    expect(few.errors).toBeUndefined();
    expect(few.extensions.cost.resultBytes).toBeGreaterThanOrEqual(12_000);
    const many = await admin.graphql('query ($id: ID!) { course(id: $id) { paths { courses { description } } } }', { id: courseId });
    expect(many.errors?.[0].extensions.code).toBe('RESULT_TOO_LARGE');
    expect(many.errors![0].message).toMatch(/bytes of text/);
  });

  it('given text leaves under aliases, fragments and @skip/@include, when a reply holds them, then resultBytes counts each asked value once per object', async () => {
    // Plain text leaves are charged by the field that resolves their objects (one charge for them all), as each leaf was.
    const query = `query ($out: Boolean!) { courses(first: 3) { nodes { id name d: description ... on Course { code } ...F gone: name @skip(if: true) alsoGone: name @include(if: $out) } } }
      fragment F on Course { imageUrl again: name }`;
    const res: any = await school.admin.graphql(query, { out: false });
    expect(res.errors).toBeUndefined();
    const text = (v: unknown) => (typeof v === 'string' ? v.length : 0);
    const nodes: any[] = res.data.courses.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.every((n) => !('gone' in n) && !('alsoGone' in n))).toBe(true);
    const expected = nodes.reduce((sum, n) => sum + text(n.name) + text(n.d) + text(n.code) + text(n.imageUrl) + text(n.again), 0);
    expect(res.extensions.cost.resultBytes).toBe(expected);
    const included: any = await school.admin.graphql(query, { out: true });
    expect(included.extensions.cost.resultBytes).toBe(expected + nodes.reduce((sum, n) => sum + text(n.name), 0));
  });

  it('given a read blocked in the database, when its deadline passes, then it is answered 503 QUERY_TIMEOUT at the deadline and the process keeps answering', async () => {
    // The credential is checked before the lock is taken (and kept): what waits is the operation's own read.
    const admin = await clientWith({ timeoutMs: 300 }, school.admin.token!, 60);
    expect((await admin.graphql('{ __typename }')).status).toBe(200);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction holds the courses table: the read waits on it.
    const blocker = service.db.transaction(async (tx) => {
      await tx.execute('lock table courses in access exclusive mode' as never);
      locked();
      await held;
    });
    await lockTaken;
    const started = Date.now();
    const res = await admin.graphql('query ($id: ID!) { course(id: $id) { id name } }', { id: courseId });
    const took = Date.now() - started;
    release();
    await blocker;
    expect(res.status).toBe(503);
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'QUERY_TIMEOUT' });
    expect(took).toBeLessThan(5000);
    expect((await admin.graphql('query ($id: ID!) { course(id: $id) { id } }', { id: courseId })).data.course.id).toBe(String(courseId));
  });

  it('given a query within every limit, when it answers, then extensions.cost reports what it used beside what it was priced', async () => {
    const res: any = await school.admin.graphql('{ courses(first: 5) { nodes { id name } } }');
    expect(res.extensions.cost).toMatchObject({ requested: 6, maximum: 25_000, objects: 6, maximumObjects: 50_000, timeoutMs: 10_000 });
    expect(res.extensions.cost.resultBytes).toBeGreaterThan(0);
    expect(res.extensions.cost.milliseconds).toBeGreaterThanOrEqual(0);
  });
});
