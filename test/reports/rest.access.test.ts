import { beforeAll, describe, expect, it } from 'vitest';
import { writeReportWorld } from '../support/reports.fixtures.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The reports' REST twins (GET /reports/*, run on the GraphQL fields), who may read them (admins and
// the platform; not collaborators, apps or students), whose figures each school sees, and a period refused as a 422.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let world: Awaited<ReturnType<typeof writeReportWorld>>;
twoSchools('Reports REST A', 'Reports REST B', (w) => ({ service, school, other } = w));
beforeAll(async () => {
  world = await writeReportWorld(service, school.id, other.id);
});

const PERIOD = 'from=2026-03-01&to=2026-03-07';
const PATHS = ['revenue', 'enrollments', 'completion', 'active_students', 'funnel'];

describe('GET /reports/*', () => {
  it('answers the same figures as GraphQL, snake_case, ids as numbers, buckets included', async () => {
    const revenue = await school.admin.get(`/reports/revenue?${PERIOD}&interval=day`);
    expect(revenue.status).toBe(200);
    expect(revenue.body).toMatchObject({ from: '2026-03-01', to: '2026-03-07', interval: 'day', time_zone: 'America/Sao_Paulo', gross: 30000, refunded: 8000, net: 22000 });
    expect(revenue.body.buckets).toHaveLength(7);
    expect(revenue.body.buckets[1]).toEqual({
      start: '2026-03-02',
      gross: 25000,
      refunded: 3000,
      net: 22000,
      payments: 2,
      products: [
        { school_product_id: world.p1.id, gross: 20000, refunded: 2000, net: 18000 },
        { school_product_id: world.p2.id, gross: 5000, refunded: 1000, net: 4000 },
      ],
    });
    const weeks = await school.admin.get(`/reports/revenue?${PERIOD}&interval=week`);
    expect(weeks.body.buckets.map((b: any) => b.start)).toEqual(['2026-02-23', '2026-03-02']);
    expect((await school.admin.get(`/reports/enrollments?${PERIOD}`)).body).toMatchObject({ interval: 'day', total: 5 });
    expect((await school.admin.get(`/reports/completion?${PERIOD}`)).body.products).toEqual([
      { school_product_id: world.p1.id, lessons: 2, enrollments: 3, completed: 1, completion_rate: 33.33, average_progress: 50 },
      { school_product_id: world.p2.id, lessons: 1, enrollments: 2, completed: 1, completion_rate: 50, average_progress: 50 },
    ]);
    expect((await school.admin.get(`/reports/active_students?${PERIOD}&interval=month`)).body).toMatchObject({
      students: 3,
      progressing: 2,
      signed_in: 3,
      buckets: [{ start: '2026-03-01', students: 3, progressing: 2, signed_in: 3 }],
    });
    expect((await school.admin.get(`/reports/funnel?${PERIOD}`)).body).toMatchObject({ orders: 4, paid: 3, enrolled: 3, completed: 2 });
  });

  it('a collaborator, an app and a student get 403; without a credential 401', async () => {
    const collaborator = await service.token('collaborator', school.id, world.staff);
    const app = await service.token('app', school.id);
    const student = await service.token('student', school.id, world.students.s1);
    for (const path of PATHS) {
      for (const client of [collaborator, app, student]) expect((await client.get(`/reports/${path}?${PERIOD}`)).status, `${path} ${client.token}`).toBe(403);
      expect((await service.anonymous.get(`/reports/${path}?${PERIOD}`)).status).toBe(401);
    }
    const graphql = await student.graphql(`{ funnelReport(from: "2026-03-01", to: "2026-03-07") { orders } }`);
    expect(graphql.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it("school A's admin never sees school B's figures: its own only, B named is a 404; the platform chooses", async () => {
    for (const path of PATHS) {
      expect((await school.admin.get(`/reports/${path}?${PERIOD}&school_id=${other.id}`)).status, path).toBe(404);
      expect((await school.admin.get(`/reports/${path}?${PERIOD}&school_id=${school.id}`)).status, path).toBe(200);
    }
    // Another school's id is a 404 before the period is even read.
    expect((await school.admin.get(`/reports/funnel?school_id=${other.id}`)).status).toBe(404);
    expect((await school.admin.get(`/reports/revenue?${PERIOD}`)).body.gross).toBe(30000);
    expect((await other.admin.get(`/reports/revenue?${PERIOD}`)).body).toMatchObject({ gross: 99900, time_zone: 'UTC' });
    expect((await other.admin.get(`/reports/funnel?${PERIOD}`)).body).toMatchObject({ orders: 1, paid: 1, enrolled: 1, completed: 1 });
    expect((await other.admin.get(`/reports/enrollments?${PERIOD}`)).body.products).toEqual([expect.objectContaining({ school_product_id: world.bProduct.id, total: 1 })]);
    expect((await service.platform.get(`/reports/revenue?${PERIOD}&school_id=${other.id}`)).body.gross).toBe(99900);
    expect((await service.platform.get(`/reports/revenue?${PERIOD}`)).body).toMatchObject({ gross: 129900, time_zone: null });
    expect((await service.platform.get(`/reports/revenue?${PERIOD}&school_id=999999`)).status).toBe(404);
  });
});

describe('the period', () => {
  const problems = async (client: Client, query: string) => {
    const res = await client.get(`/reports/revenue?${query}`);
    return { status: res.status, fields: Object.keys(res.body.errors ?? {}).sort(), details: res.body.details };
  };

  it('is required and a real day: a 422 naming every bad argument at once', async () => {
    expect(await problems(school.admin, '')).toMatchObject({ status: 422, fields: ['from', 'to'] });
    expect((await problems(school.admin, 'from=2026-02-30&to=yesterday')).details).toEqual({ from: [{ error: 'invalid' }], to: [{ error: 'invalid' }] });
    expect(await problems(school.admin, 'from=2026-03-07&to=2026-03-01')).toMatchObject({ status: 422, fields: ['to'] });
    const graphql = await school.admin.graphql(`{ revenueReport(from: "2026-13-01") { net } }`);
    expect(graphql.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      problems: [
        { field: ['from'], code: 'invalid' },
        { field: ['to'], code: 'blank' },
      ],
    });
  });

  it('is bounded by its buckets: 366 days by day, more by week or month', async () => {
    expect(await problems(school.admin, 'from=2025-01-01&to=2026-01-02&interval=day')).toMatchObject({ status: 422, fields: ['to'] });
    expect((await school.admin.get('/reports/revenue?from=2025-01-01&to=2026-01-01&interval=day')).body.buckets).toHaveLength(366);
    expect((await school.admin.get('/reports/revenue?from=2025-01-01&to=2026-01-02&interval=week')).status).toBe(200);
    expect((await school.admin.get('/reports/revenue?from=2025-01-01&to=2025-12-31&interval=day')).body.buckets).toHaveLength(365);
    expect(await problems(school.admin, 'from=2020-01-01&to=2026-01-01&interval=month')).toMatchObject({ status: 422, fields: ['to'] });
    expect((await school.admin.get('/reports/funnel?from=2020-01-01&to=2026-01-01')).status).toBe(422);
  });

  it('Portuguese messages for the refusal', async () => {
    const res = await school.admin.get('/reports/funnel', { headers: { 'accept-language': 'pt-BR' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.from).toEqual(['não pode ficar em branco']);
  });
});

describe('one statement each', () => {
  it("a report is one statement (a school's admin reads the school's row too, for its time zone)", async () => {
    const baseline = await service.countStatements(() => service.platform.graphql('{ __typename }'));
    for (const path of PATHS) {
      const across = await service.countStatements(() => service.platform.get(`/reports/${path}?${PERIOD}`));
      expect(across - baseline, path).toBe(1);
      const ownSchool = await service.countStatements(() => school.admin.get(`/reports/${path}?${PERIOD}`));
      expect(ownSchool - baseline, path).toBe(2);
    }
  });
});

describe("the school's time zone", () => {
  it('is an IANA zone the admin sets (PUT /schools/:id time_zone); the days follow it', async () => {
    const bad = await school.admin.put(`/schools/${school.id}`, { school: { time_zone: 'Mars/Olympus_Mons' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['time_zone']);
    expect((await school.admin.put(`/schools/${school.id}`, { school: { time_zone: '-03:00' } })).status).toBe(422);
    const set = await school.admin.put(`/schools/${school.id}`, { school: { time_zone: 'UTC' } });
    expect(set.status).toBe(200);
    expect(set.body.time_zone).toBe('UTC');
    // In UTC, A5's payment at 01:00 on 03-01 is on 03-01 (in the period now), A2's at 01:00 on 03-03 on 03-03.
    const buckets = (await school.admin.get(`/reports/revenue?${PERIOD}`)).body.buckets;
    expect(buckets.filter((b: any) => b.gross > 0).map((b: any) => [b.start, b.gross])).toEqual([
      ['2026-03-01', 5000],
      ['2026-03-02', 10000],
      ['2026-03-03', 15000],
      ['2026-03-04', 5000],
    ]);
    expect((await school.admin.put(`/schools/${school.id}`, { school: { time_zone: 'America/Sao_Paulo' } })).status).toBe(200);
  });
});
