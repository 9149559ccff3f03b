import { afterEach, describe, expect, it } from 'vitest';
import { pathCourses, paths } from '../src/modules/paths/path.table.js';
import { schoolProductPaths } from '../src/modules/school-products/school-product-content.table.js';
import { Fixtures } from './support/activities.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// The scoped reads of Activity: GET /courses/:course_id/activities, /school_products/:id/activities,
// /enrollments/:id/activities and the scoped shows /school_products/:id/activities/:id and
// /enrollments/:id/activities/:id. The service clock stands at 2026-01-15T12:00:00Z; the fixture
// enrollments were activated on 2026-01-01.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let fx: Fixtures;

/** Activity ids by name. */
const a: Record<string, number> = {};
let courseA: { id: number };
let courseB: { id: number };
let productA: { id: number };
let productViaPath: { id: number };
let enrollment: { id: number; studentId: number };

twoSchools('Scoped School', 'Other School', async (w) => {
  ({ service, school, other } = w);
  fx = new Fixtures(service);

  // Course A: one module with a released lesson, one released later, one released 30 days after
  // the enrollment's activation, and an unavailable one. Course B: one lesson. And a draft lesson.
  courseA = await fx.course(school);
  courseB = await fx.course(school);
  const moduleA = await fx.module(school, courseA);
  const moduleB = await fx.module(school, courseB);
  const lessons = {
    released: await fx.lesson(school, { courseModuleId: moduleA.id }),
    later: await fx.lesson(school, { courseModuleId: moduleA.id, releaseAt: new Date('2026-02-01T00:00:00Z') }),
    drip: await fx.lesson(school, { courseModuleId: moduleA.id, releaseAfter: 30 }),
    unavailable: await fx.lesson(school, { courseModuleId: moduleA.id, available: false }),
    otherCourse: await fx.lesson(school, { courseModuleId: moduleB.id }),
    draft: await fx.lesson(school),
  };
  for (const [name, lesson] of Object.entries(lessons)) a[name] = (await fx.activity(school, lesson.id, { title: name })).id;
  // A second activity on the released lesson.
  a.released2 = (await fx.activity(school, lessons.released.id, { title: 'released 2' })).id;

  productA = await fx.product(school, courseA);
  productViaPath = await fx.product(school);
  const [path] = await service.db.insert(paths).values({ schoolId: school.id, name: 'Path' }).returning();
  await service.db.insert(pathCourses).values({ schoolId: school.id, pathId: path.id, courseId: courseB.id });
  await service.db.insert(schoolProductPaths).values({ schoolId: school.id, schoolProductId: productViaPath.id, pathId: path.id });
  enrollment = await fx.enrollment(school, productA);
});
afterEach(() => service.clock.set('2026-01-15T12:00:00Z'));

const ids = (body: any[]) => body.map((x) => x.id);

describe('GET /courses/:course_id/activities', () => {
  it("given a course, then the activities of its lessons (every lesson: no release rules), in id order, with the list headers", async () => {
    const res = await school.admin.get(`/courses/${courseA.id}/activities`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([a.released, a.later, a.drip, a.unavailable, a.released2]);
    expect(res.body[0]).toMatchObject({ id: a.released, title: 'released', school_id: school.id, type: 'exam' });
    expect(res.headers['x-total-count']).toBe('5');
    expect(ids((await school.admin.get(`/courses/${courseB.id}/activities`)).body)).toEqual([a.otherCourse]);
  });

  it('given a module shared by two courses, then both courses list its activities', async () => {
    const shared = await fx.course(school);
    const mod = await fx.module(school, shared);
    const lesson = await fx.lesson(school, { courseModuleId: mod.id });
    const activity = await fx.activity(school, lesson.id);
    const again = await fx.course(school);
    await service.db.insert((await import('../src/modules/courses/course.table.js')).courseModuleLinks).values({ schoolId: school.id, courseId: again.id, courseModuleId: mod.id });
    expect(ids((await school.admin.get(`/courses/${shared.id}/activities`)).body)).toEqual([activity.id]);
    expect(ids((await school.admin.get(`/courses/${again.id}/activities`)).body)).toEqual([activity.id]);
  });

  it('given page and per_page, then one page with the paging headers', async () => {
    const res = await school.admin.get(`/courses/${courseA.id}/activities?page=2&per_page=2`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([a.drip, a.unavailable]);
    expect(res.headers).toMatchObject({ 'x-total-count': '5', 'x-page': '2', 'x-per-page': '2' });
    expect(res.headers.link).toMatch(/rel="next"/);
  });

  it("given another school's course, an unknown id or no credential, then 404, 404, 401", async () => {
    const foreign = await fx.course(other);
    expectErrorBody(await school.admin.get(`/courses/${foreign.id}/activities`), 404);
    expectErrorBody(await school.admin.get('/courses/99999999/activities'), 404);
    expectErrorBody(await school.admin.get('/courses/abc/activities'), 404);
    expectErrorBody(await service.anonymous.get(`/courses/${courseA.id}/activities`), 401);
  });
});

describe('GET /school_products/:school_product_id/activities', () => {
  it("given a product, then the activities of its courses' lessons; through a path too", async () => {
    const res = await school.admin.get(`/school_products/${productA.id}/activities`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([a.released, a.later, a.drip, a.unavailable, a.released2]);
    expect(ids((await school.admin.get(`/school_products/${productViaPath.id}/activities`)).body)).toEqual([a.otherCourse]);
    const empty = await fx.product(school);
    expect((await school.admin.get(`/school_products/${empty.id}/activities`)).body).toEqual([]);
  });

  it("given another school's product or an unknown one, then 404", async () => {
    const foreign = await fx.product(other);
    expectErrorBody(await school.admin.get(`/school_products/${foreign.id}/activities`), 404);
    expectErrorBody(await school.admin.get('/school_products/99999999/activities'), 404);
  });
});

describe('GET /enrollments/:enrollment_id/activities', () => {
  it('given an active enrollment, then only the activities of released, available lessons of its product', async () => {
    const res = await school.admin.get(`/enrollments/${enrollment.id}/activities`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual([a.released, a.released2]);
  });

  it('given time passing, then lessons released by date and by days after activation appear', async () => {
    service.clock.set('2026-02-05T00:00:00Z');
    expect(ids((await school.admin.get(`/enrollments/${enrollment.id}/activities`)).body)).toEqual([a.released, a.later, a.drip, a.released2]);
  });

  it('given the enrollment\'s own student credential, then the same list; another student gets 404', async () => {
    const own = await service.token('student', school.id, enrollment.studentId);
    expect(ids((await own.get(`/enrollments/${enrollment.id}/activities`)).body)).toEqual([a.released, a.released2]);
    const stranger = await fx.studentClient(school);
    expectErrorBody(await stranger.client.get(`/enrollments/${enrollment.id}/activities`), 404);
    expectErrorBody(await stranger.client.get(`/enrollments/${enrollment.id}/activities/${a.released}`), 404);
    expect((await own.get(`/enrollments/${enrollment.id}/activities/${a.released}`)).status).toBe(200);
    // Outside its enrollments a student reads no activity list: 403.
    expectErrorBody(await own.get(`/school_products/${productA.id}/activities`), 403);
    expectErrorBody(await own.get(`/courses/${courseA.id}/activities`), 403);
    expectErrorBody(await own.get(`/school_products/${productA.id}/activities/${a.released}`), 403);
  });

  it.each([
    ['pending', { status: 'pending' as const }],
    ['canceled', { status: 'canceled' as const }],
    ['past its available_until', { unlimited: false, availableUntil: new Date('2026-01-10T00:00:00Z') }],
  ])('given an enrollment that is %s, then an empty list', async (_label, fields) => {
    const inactive = await fx.enrollment(school, productA, fields);
    const res = await school.admin.get(`/enrollments/${inactive.id}/activities`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it("given another school's enrollment or an unknown one, then 404", async () => {
    const foreign = await fx.enrollment(other, await fx.product(other));
    expectErrorBody(await school.admin.get(`/enrollments/${foreign.id}/activities`), 404);
    expectErrorBody(await school.admin.get('/enrollments/99999999/activities'), 404);
  });
});

describe('scoped shows', () => {
  it('given /school_products/:id/activities/:id, then 200 inside the product and 404 outside it', async () => {
    const inside = await school.admin.get(`/school_products/${productA.id}/activities/${a.later}`);
    expect(inside.status, inside.text).toBe(200);
    expect(inside.body).toMatchObject({ id: a.later, title: 'later' });
    expectErrorBody(await school.admin.get(`/school_products/${productA.id}/activities/${a.otherCourse}`), 404);
    expectErrorBody(await school.admin.get(`/school_products/${productA.id}/activities/${a.draft}`), 404);
    expect((await school.admin.get(`/school_products/${productViaPath.id}/activities/${a.otherCourse}`)).status).toBe(200);
    const foreign = await fx.product(other);
    expectErrorBody(await school.admin.get(`/school_products/${foreign.id}/activities/${a.released}`), 404);
  });

  it('given /enrollments/:id/activities/:id, then 200 for a released lesson and 404 otherwise', async () => {
    const ok = await school.admin.get(`/enrollments/${enrollment.id}/activities/${a.released}`);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.id).toBe(a.released);
    for (const name of ['later', 'drip', 'unavailable', 'otherCourse', 'draft'])
      expectErrorBody(await school.admin.get(`/enrollments/${enrollment.id}/activities/${a[name]}`), 404);
    service.clock.set('2026-02-05T00:00:00Z');
    expect((await school.admin.get(`/enrollments/${enrollment.id}/activities/${a.later}`)).status).toBe(200);
  });

  it('given an inactive enrollment, then even a released activity is 404', async () => {
    const pending = await fx.enrollment(school, productA, { status: 'pending' });
    expectErrorBody(await school.admin.get(`/enrollments/${pending.id}/activities/${a.released}`), 404);
  });

  it('given no credential, then 401', async () => {
    expectErrorBody(await service.anonymous.get(`/school_products/${productA.id}/activities/${a.released}`), 401);
    expectErrorBody(await service.anonymous.get(`/enrollments/${enrollment.id}/activities/${a.released}`), 401);
  });
});
