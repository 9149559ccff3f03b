import { beforeAll, describe, expect, it } from 'vitest';
import { writeReportWorld } from '../support/reports.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Each report against the rows test/support/reports.fixtures.ts wrote, counted by hand (its comments):
// school A in America/Sao_Paulo, school B in UTC, the period 2026-03-01..2026-03-07.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let world: Awaited<ReturnType<typeof writeReportWorld>>;
twoSchools('Reports A', 'Reports B', (w) => ({ service, school, other } = w));
beforeAll(async () => {
  world = await writeReportWorld(service, school.id, other.id);
});

const PERIOD = { from: '2026-03-01', to: '2026-03-07' };
const days = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07'];

const REVENUE = `query ($from: String, $to: String, $interval: ReportInterval, $schoolId: ID) {
  revenueReport(from: $from, to: $to, interval: $interval, schoolId: $schoolId) {
    from to interval timeZone gross refunded net
    buckets { start gross refunded net payments products { schoolProductId gross refunded net } }
    products { schoolProductId gross refunded net schoolProduct { id title } }
  }
}`;

describe('revenueReport', () => {
  it("counts confirmed payments minus refunds by day in São Paulo: 01:00 UTC is the previous day, every day of the period present", async () => {
    const res = await school.admin.graphql(REVENUE, { ...PERIOD, interval: 'day' });
    expect(res.errors).toBeUndefined();
    const report = res.data.revenueReport;
    expect(report).toMatchObject({ from: '2026-03-01', to: '2026-03-07', interval: 'day', timeZone: 'America/Sao_Paulo', gross: 30000, refunded: 8000, net: 22000 });
    expect(report.buckets.map((b: { start: string }) => b.start)).toEqual(days);
    const byDay = Object.fromEntries(report.buckets.map((b: any) => [b.start, b]));
    // A1 (10000) and A2 (15000, 3000 refunded, paid at 01:00 UTC on 03-03); A5 at 01:00 UTC on 03-01 is 02-28.
    expect(byDay['2026-03-01']).toMatchObject({ gross: 0, refunded: 0, net: 0, payments: 0, products: [] });
    expect(byDay['2026-03-02']).toMatchObject({ gross: 25000, refunded: 3000, net: 22000, payments: 2 });
    expect(byDay['2026-03-03']).toMatchObject({ gross: 0, payments: 0 });
    // A3: 5000 taken and given back; A4's failed payment is not revenue.
    expect(byDay['2026-03-04']).toMatchObject({ gross: 5000, refunded: 5000, net: 0, payments: 1 });
    expect(byDay['2026-03-05']).toMatchObject({ gross: 0, payments: 0 });
    // A2's 15000 shared 10000 / 5000 by price, its 3000 refund 2000 / 1000.
    const [p1, p2] = [String(world.p1.id), String(world.p2.id)];
    expect(byDay['2026-03-02'].products).toEqual([
      { schoolProductId: p1, gross: 20000, refunded: 2000, net: 18000 },
      { schoolProductId: p2, gross: 5000, refunded: 1000, net: 4000 },
    ]);
    expect(report.products).toEqual([
      { schoolProductId: p1, gross: 20000, refunded: 2000, net: 18000, schoolProduct: { id: p1, title: expect.any(String) } },
      { schoolProductId: p2, gross: 10000, refunded: 6000, net: 4000, schoolProduct: { id: p2, title: expect.any(String) } },
    ]);
  });

  it('buckets weeks from Monday (the first one before the period counts only from it) and months', async () => {
    const weeks = (await school.admin.graphql(REVENUE, { ...PERIOD, interval: 'week' })).data.revenueReport;
    expect(weeks.buckets.map((b: any) => [b.start, b.gross, b.net])).toEqual([
      ['2026-02-23', 0, 0],
      ['2026-03-02', 30000, 22000],
    ]);
    const months = (await school.admin.graphql(REVENUE, { from: '2026-02-01', to: '2026-03-31', interval: 'month' })).data.revenueReport;
    // February holds A5 (02-28 in São Paulo).
    expect(months.buckets.map((b: any) => [b.start, b.gross, b.refunded])).toEqual([
      ['2026-02-01', 5000, 0],
      ['2026-03-01', 30000, 8000],
    ]);
  });

  it("the platform sees every school (each in its own zone) or the one it names; a school's admin never sees another's", async () => {
    const all = (await service.platform.graphql(REVENUE, PERIOD)).data.revenueReport;
    expect(all).toMatchObject({ timeZone: null, gross: 30000 + 99900, net: 22000 + 99900 });
    // B's payment at 01:00 UTC on 03-03 is 03-03 in UTC; A's at that time was 03-02 in São Paulo.
    expect(all.buckets.find((b: any) => b.start === '2026-03-03').gross).toBe(99900);
    const b = (await service.platform.graphql(REVENUE, { ...PERIOD, schoolId: String(other.id) })).data.revenueReport;
    expect(b).toMatchObject({ timeZone: 'UTC', gross: 99900 });
    const asHeader = (await service.platform.forSchool(school.id).graphql(REVENUE, PERIOD)).data.revenueReport;
    expect(asHeader).toMatchObject({ timeZone: 'America/Sao_Paulo', gross: 30000 });
    const foreign = await school.admin.graphql(REVENUE, { ...PERIOD, schoolId: String(other.id) });
    expect(foreign.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(foreign.data).toBeNull();
    expect((await other.admin.graphql(REVENUE, PERIOD)).data.revenueReport).toMatchObject({ gross: 99900, net: 99900 });
  });

  it('is priced in the query-cost model: 1,000 of its own plus its objects', async () => {
    const funnel = (await school.admin.graphql('{ funnelReport(from: "2026-03-01", to: "2026-03-07") { orders } }')) as any;
    expect(funnel.extensions.cost.requested).toBe(1000 + 1);
    const twice = (await school.admin.graphql('{ a: funnelReport(from: "2026-03-01", to: "2026-03-07") { orders } b: funnelReport(from: "2026-03-01", to: "2026-03-07") { paid } }')) as any;
    expect(twice.extensions.cost.requested).toBe(2 * (1000 + 1));
  });
});

describe('enrollmentsReport', () => {
  const QUERY = `query ($from: String, $to: String, $interval: ReportInterval) {
    enrollmentsReport(from: $from, to: $to, interval: $interval) {
      total buckets { start total pending active canceled expired deactivated products { schoolProductId total } }
      products { schoolProductId total pending active canceled }
    }
  }`;
  it('counts enrollments made by day (in São Paulo) and by product, by their status now', async () => {
    const report = (await school.admin.graphql(QUERY, { ...PERIOD, interval: 'day' })).data.enrollmentsReport;
    expect(report.total).toBe(5);
    const byDay = Object.fromEntries(report.buckets.map((b: any) => [b.start, b]));
    expect(report.buckets).toHaveLength(7);
    // E1, and E2 and E3 made at 01:00 UTC on 03-03; E6 (02-20) is before the period.
    expect(byDay['2026-03-02']).toMatchObject({ total: 3, active: 3, pending: 0, canceled: 0 });
    expect(byDay['2026-03-03']).toMatchObject({ total: 0, active: 0 });
    expect(byDay['2026-03-04']).toMatchObject({ total: 1, canceled: 1 });
    expect(byDay['2026-03-06']).toMatchObject({ total: 1, pending: 1 });
    const [p1, p2] = [String(world.p1.id), String(world.p2.id)];
    expect(byDay['2026-03-02'].products).toEqual([
      { schoolProductId: p1, total: 2 },
      { schoolProductId: p2, total: 1 },
    ]);
    expect(report.products).toEqual([
      { schoolProductId: p1, total: 3, pending: 1, active: 2, canceled: 0 },
      { schoolProductId: p2, total: 2, pending: 0, active: 1, canceled: 1 },
    ]);
  });
});

describe('completionReport', () => {
  it('gives the completion rate and average progress of the enrollments made in the period, per product and per course', async () => {
    const QUERY = `query ($from: String, $to: String) {
      completionReport(from: $from, to: $to) {
        products { schoolProductId lessons enrollments completed completionRate averageProgress }
        courses { courseId lessons enrollments completed completionRate averageProgress course { id } }
      }
    }`;
    const report = (await school.admin.graphql(QUERY, PERIOD)).data.completionReport;
    // P1: E1 100 %, E2 50 %, E5 0 %; P2: E3 100 %, E4 0 % (E6, made before the period, is not counted).
    expect(report.products).toEqual([
      { schoolProductId: String(world.p1.id), lessons: 2, enrollments: 3, completed: 1, completionRate: 33.33, averageProgress: 50 },
      { schoolProductId: String(world.p2.id), lessons: 1, enrollments: 2, completed: 1, completionRate: 50, averageProgress: 50 },
    ]);
    expect(report.courses).toEqual([
      { courseId: String(world.p1.courseId), lessons: 2, enrollments: 3, completed: 1, completionRate: 33.33, averageProgress: 50, course: { id: String(world.p1.courseId) } },
      { courseId: String(world.p2.courseId), lessons: 1, enrollments: 2, completed: 1, completionRate: 50, averageProgress: 50, course: { id: String(world.p2.courseId) } },
    ]);
  });
});

describe('activeStudentsReport', () => {
  it('counts students with a progress write or a sign-in, once per day and once in the period', async () => {
    const QUERY = `query ($from: String, $to: String) {
      activeStudentsReport(from: $from, to: $to) { students progressing signedIn buckets { start students progressing signedIn } }
    }`;
    const report = (await school.admin.graphql(QUERY, PERIOD)).data.activeStudentsReport;
    expect(report).toMatchObject({ students: 3, progressing: 2, signedIn: 3 });
    expect(report.buckets.map((b: any) => [b.start, b.students, b.progressing, b.signedIn])).toEqual([
      ['2026-03-01', 0, 0, 0],
      ['2026-03-02', 0, 0, 0],
      // s1 wrote progress and signed in (the collaborator's sign-in is not a student's).
      ['2026-03-03', 1, 1, 1],
      // s2's last progress write, 02:00 UTC on 03-05.
      ['2026-03-04', 1, 1, 0],
      ['2026-03-05', 0, 0, 0],
      ['2026-03-06', 1, 1, 0],
      // s3, and s2 at 01:00 UTC on 03-08.
      ['2026-03-07', 2, 0, 2],
    ]);
  });
});

describe('funnelReport', () => {
  it('follows the orders made in the period: paid, enrolled, completed', async () => {
    const QUERY = `query ($from: String, $to: String, $schoolId: ID) { funnelReport(from: $from, to: $to, schoolId: $schoolId) { orders paid enrolled completed } }`;
    // A1..A4 (A5 is 02-28 in São Paulo); A4 unpaid; A1 completed by E1, A2 by E3.
    expect((await school.admin.graphql(QUERY, PERIOD)).data.funnelReport).toEqual({ orders: 4, paid: 3, enrolled: 3, completed: 2 });
    expect((await service.platform.graphql(QUERY, { ...PERIOD, schoolId: String(other.id) })).data.funnelReport).toEqual({ orders: 1, paid: 1, enrolled: 1, completed: 1 });
  });
});
