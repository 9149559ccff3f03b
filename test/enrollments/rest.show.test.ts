import { beforeAll, describe, expect, it } from 'vitest';
import { enrollmentRestFixtures, LATER, NOW, type Person } from '../support/enrollments.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of Enrollments: show by id and by code, the student-status action, and the routes that
// do not exist. Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Enrolling School', 'Other School', (w) => ({ service, school, other } = w));
const { student, product, catalogue, body, enroll } = enrollmentRestFixtures(world);

describe('GET /enrollments/:id and /enrollments/:code?find_by=code', () => {
  let p: Person;
  let q: Person;
  let mine: any;
  let theirs: any;
  let foreign: any;
  beforeAll(async () => {
    const cat = await catalogue(school);
    p = await student(school);
    q = await student(school);
    mine = await enroll(p, cat.productId, { code: 'SHOW-MINE', course_class_ids: [cat.classIds[0]] });
    theirs = await enroll(q, cat.productId, { code: 'SHOW-THEIRS' });
    const o = await student(other);
    const res = await other.admin.post('/enrollments', { enrollment: body(o, await product(other), { code: 'SHOW-FOREIGN' }) });
    foreign = res.body;
  });

  it('given staff credentials, when showing by id, then 200 with the enrollment', async () => {
    for (const client of [school.admin, await service.token('collaborator', school.id), await service.token('app', school.id)]) {
      const res = await client.get(`/enrollments/${mine.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(mine);
    }
  });

  it('given a code and find_by=code, when showing, then 200 with that enrollment (also with .json and /v1)', async () => {
    for (const url of ['/enrollments/SHOW-MINE?find_by=code', '/v1/enrollments/SHOW-MINE.json?find_by=code']) {
      const res = await school.admin.get(url);
      expect(res.status, `${url}: ${res.text}`).toBe(200);
      expect(res.body.id).toBe(mine.id);
    }
  });

  it('given an unknown code, or another school\'s code, when showing by code, then 404', async () => {
    expectFieldError(await school.admin.get('/enrollments/NO-SUCH-CODE?find_by=code'), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get('/enrollments/SHOW-FOREIGN?find_by=code'), 404, 'base', 'not_found');
  });

  it("given another school's enrollment, when showing by id, then 404", async () => {
    expectFieldError(await school.admin.get(`/enrollments/${foreign.id}`), 404, 'base', 'not_found');
  });

  it.each(['abc', '0', '99999999999', '999999'])('given the id %s, when showing, then 404', async (id) => {
    expectFieldError(await school.admin.get(`/enrollments/${id}`), 404, 'base', 'not_found');
  });

  it("given a student credential, when showing its own enrollment, then 200; another student's, then 404 (by id and by code)", async () => {
    const own = await p.client.get(`/enrollments/${mine.id}`);
    expect(own.status, own.text).toBe(200);
    expect(own.body.id).toBe(mine.id);
    expectFieldError(await p.client.get(`/enrollments/${theirs.id}`), 404, 'base', 'not_found');
    expectFieldError(await p.client.get('/enrollments/SHOW-THEIRS?find_by=code'), 404, 'base', 'not_found');
    expect((await p.client.get('/enrollments/SHOW-MINE?find_by=code')).status).toBe(200);
  });

  it('given no credential, when showing, then 401', async () => {
    expectFieldError(await service.anonymous.get(`/enrollments/${mine.id}`), 401, 'base', 'unauthenticated');
  });
});

describe('GET /students/:student_id/enrollments/:id (status)', () => {
  let p: Person;
  let q: Person;
  let productId: number;
  beforeAll(async () => {
    productId = await product(school);
    p = await student(school);
    q = await student(school);
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ['active and not ended', { status: 'active', available_until: LATER }, true],
    ['active and unlimited', { status: 'active', unlimited: true, available_until: null }, true],
    ['active but ended yesterday', { status: 'active', available_until: '2026-01-14T12:00:00Z' }, false],
    ['pending', { status: 'pending' }, false],
    ['canceled', { status: 'canceled' }, false],
  ])('given an enrollment %s, when asking its status, then active is %s', async (_what, fields, active) => {
    const e = await enroll(p, productId, fields);
    const res = await school.admin.get(`/students/${p.studentId}/enrollments/${e.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: e.id, student_id: p.studentId, status: e.status, active });
    const own = await p.client.get(`/students/${p.studentId}/enrollments/${e.id}`);
    expect(own.body.active).toBe(active);
  });

  it('given the clock moving past available_until, when asking again, then the enrollment is no longer active', async () => {
    const e = await enroll(p, productId, { status: 'active', available_until: '2026-02-01T00:00:00Z' });
    expect((await school.admin.get(`/students/${p.studentId}/enrollments/${e.id}`)).body.active).toBe(true);
    service.clock.set('2026-02-02T00:00:00Z');
    try {
      expect((await school.admin.get(`/students/${p.studentId}/enrollments/${e.id}`)).body.active).toBe(false);
    } finally {
      service.clock.set(NOW);
    }
  });

  it("given an enrollment that is not that student's, when asking, then 404", async () => {
    const e = await enroll(q, productId, { status: 'active' });
    expectFieldError(await school.admin.get(`/students/${p.studentId}/enrollments/${e.id}`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get(`/students/999999/enrollments/${e.id}`), 404, 'base', 'not_found');
    // A student asking about another student.
    expectFieldError(await p.client.get(`/students/${q.studentId}/enrollments/${e.id}`), 404, 'base', 'not_found');
    // Another school.
    expectFieldError(await other.admin.get(`/students/${q.studentId}/enrollments/${e.id}`), 404, 'base', 'not_found');
  });
});

describe('routing', () => {
  it('given GET /enrollments/batch, then 405 naming POST', async () => {
    const res = await school.admin.get('/enrollments/batch');
    expect(res.status).toBe(405);
    expect(String(res.headers.allow)).toBe('POST');
  });

  it('given DELETE /enrollments/:id (no such route), then 405', async () => {
    const res = await school.admin.delete('/enrollments/1');
    expect(res.status).toBe(405);
    expect(String(res.headers.allow).split(', ').sort()).toEqual(['GET', 'PATCH', 'PUT']);
  });
});
