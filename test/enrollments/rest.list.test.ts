import { beforeAll, describe, expect, it } from 'vitest';
import { enrollmentRestFixtures, type Person } from '../support/enrollments.fixtures.js';
import type { Reply, Service, TestSchool } from '../support/service.js';
import { expectErrorBody, expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of Enrollments: the four lists (/enrollments and under a student, a course class and a
// school product), their scopes, pages and statements. Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let other: TestSchool;
const world = twoSchools('Enrolling School', 'Other School', (w) => ({ service, other } = w));
const { student, product, course, courseClass, catalogue, body } = enrollmentRestFixtures(world);

describe('the lists: /enrollments, /students/:id, /course_classes/:id and /school_products/:id enrollments', () => {
  // A school of its own so the counts are exact.
  let s: TestSchool;
  let p: Person;
  let q: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let secondProduct: number;
  const made: Record<string, any> = {};
  beforeAll(async () => {
    s = await service.school('Listing School');
    p = await student(s);
    q = await student(s);
    cat = await catalogue(s);
    secondProduct = await product(s);
    const mk = async (key: string, who: Person, productId: number, fields: Record<string, unknown> = {}) => {
      const res = await s.admin.post('/enrollments', { enrollment: body(who, productId, fields) });
      expect(res.status, res.text).toBe(201);
      made[key] = res.body;
    };
    await mk('p1', p, cat.productId, { course_class_ids: [cat.classIds[0]], status: 'active' });
    await mk('p2', p, secondProduct);
    await mk('q1', q, cat.productId, { course_class_ids: cat.classIds });
    await mk('q2', q, secondProduct, { status: 'active' });
    await mk('q3', q, cat.productId, { course_class_ids: [cat.classIds[1]] });
    // Noise in another school.
    const o = await student(other);
    await other.admin.post('/enrollments', { enrollment: body(o, await product(other)) });
  });
  const ids = (res: Reply) => res.body.map((e: any) => e.id);

  it('given a staff credential, when listing /enrollments, then every enrollment of the school in id order with list headers', async () => {
    const res = await s.admin.get('/enrollments');
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual(['p1', 'p2', 'q1', 'q2', 'q3'].map((k) => made[k].id));
    expect(res.body[0]).toEqual(made.p1);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers.link).toMatch(/rel="first"/);
  });

  it('given each scope, when listing, then only the enrollments in it', async () => {
    const expectIds = async (url: string, keys: string[]) => {
      const res = await s.admin.get(url);
      expect(res.status, `${url}: ${res.text}`).toBe(200);
      expect(ids(res), url).toEqual(keys.map((k) => made[k].id));
      expect(res.headers['x-total-count'], url).toBe(String(keys.length));
    };
    await expectIds(`/students/${p.studentId}/enrollments`, ['p1', 'p2']);
    await expectIds(`/students/${q.studentId}/enrollments`, ['q1', 'q2', 'q3']);
    await expectIds(`/course_classes/${cat.classIds[0]}/enrollments`, ['p1', 'q1']);
    await expectIds(`/course_classes/${cat.classIds[1]}/enrollments`, ['q1', 'q3']);
    await expectIds(`/course_classes/${cat.strayClassId}/enrollments`, []);
    await expectIds(`/school_products/${cat.productId}/enrollments`, ['p1', 'q1', 'q3']);
    await expectIds(`/school_products/${secondProduct}/enrollments`, ['p2', 'q2']);
    await expectIds('/enrollments?status=active', ['p1', 'q2']);
    await expectIds(`/students/${q.studentId}/enrollments?status=active`, ['q2']);
    await expectIds(`/v1/school_products/${cat.productId}/enrollments.json`, ['p1', 'q1', 'q3']);
  });

  it('given page and per_page, when listing, then one page with X-Total-Count, X-Page, X-Per-Page and Link', async () => {
    const first = await s.admin.get('/enrollments?page=1&per_page=2');
    expect(first.status).toBe(200);
    expect(ids(first)).toEqual([made.p1.id, made.p2.id]);
    expect(first.headers['x-total-count']).toBe('5');
    expect(first.headers['x-page']).toBe('1');
    expect(first.headers['x-per-page']).toBe('2');
    expect(first.headers.link).toMatch(/page=2&per_page=2>; rel="next"/);
    expect(first.headers.link).toMatch(/page=3&per_page=2>; rel="last"/);
    const last = await s.admin.get('/enrollments?page=3&per_page=2');
    expect(ids(last)).toEqual([made.q3.id]);
    expect(last.headers.link).toMatch(/rel="prev"/);
    expect(last.headers.link).not.toMatch(/rel="next"/);
    const scoped = await s.admin.get(`/students/${q.studentId}/enrollments?page=2&per_page=2`);
    expect(ids(scoped)).toEqual([made.q3.id]);
    expect(scoped.headers['x-total-count']).toBe('3');
  });

  it('given page without per_page, when listing, then 10 a page; per_page without page is ignored (whole list)', async () => {
    const paged = await s.admin.get('/enrollments?page=1');
    expect(paged.headers['x-per-page']).toBe('10');
    expect(paged.body).toHaveLength(5);
    const whole = await s.admin.get('/enrollments?per_page=1');
    expect(whole.body).toHaveLength(5);
  });

  it.each(['page=0', 'page=x', 'page=1&per_page=101', 'page=1&per_page=0', 'status=paused'])('given %s, when listing, then 400', async (query) => {
    expectErrorBody(await s.admin.get(`/enrollments?${query}`), 400);
  });

  it("given another school's student, class or product (or none such), when listing its scope, then 404", async () => {
    const foreignStudent = await student(other);
    const foreignClass = await courseClass(other, await course(other));
    const foreignProduct = await product(other);
    for (const url of [
      `/students/${foreignStudent.studentId}/enrollments`,
      `/course_classes/${foreignClass}/enrollments`,
      `/school_products/${foreignProduct}/enrollments`,
      '/students/999999/enrollments',
      '/course_classes/abc/enrollments',
    ])
      expectFieldError(await s.admin.get(url), 404, 'base', 'not_found');
  });

  it("given a student credential, when listing, then only its own enrollments; another student's scope is 404", async () => {
    const all = await p.client.get('/enrollments');
    expect(all.status, all.text).toBe(200);
    expect(ids(all)).toEqual([made.p1.id, made.p2.id]);
    expect(all.headers['x-total-count']).toBe('2');
    expect(ids(await p.client.get(`/students/${p.studentId}/enrollments`))).toEqual([made.p1.id, made.p2.id]);
    expect(ids(await p.client.get(`/school_products/${cat.productId}/enrollments`))).toEqual([made.p1.id]);
    expect(ids(await p.client.get(`/course_classes/${cat.classIds[1]}/enrollments`))).toEqual([]);
    expectFieldError(await p.client.get(`/students/${q.studentId}/enrollments`), 404, 'base', 'not_found');
  });

  it('given another school, when listing /enrollments, then none of these', async () => {
    const res = await other.admin.get('/enrollments');
    expect(res.status).toBe(200);
    expect(ids(res)).not.toContain(made.p1.id);
  });

  it('given no credential, when listing, then 401', async () => {
    expectFieldError(await service.anonymous.get('/enrollments'), 401, 'base', 'unauthenticated');
  });

  it("given a product's page, when listing, then its count and the product's check ride in the page statement", async () => {
    // credential, page (with the product's check and the count), class ids, progress, certificates
    let res!: Reply;
    const statements = await service.countStatements(async () => {
      res = await s.admin.get(`/school_products/${cat.productId}/enrollments?page=2&per_page=2`);
    });
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual([made.q3.id]);
    expect(res.headers['x-total-count']).toBe('3');
    expect(statements).toBe(5);
    // An empty product is an empty list, a product of another school (or none) is 404: one statement after the credential.
    const empty = await product(s);
    let none!: Reply;
    expect(await service.countStatements(async () => (none = await s.admin.get(`/school_products/${empty}/enrollments?page=1`)))).toBe(2);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    expect(none.headers['x-total-count']).toBe('0');
    let missing!: Reply;
    expect(await service.countStatements(async () => (missing = await s.admin.get('/school_products/999999/enrollments?page=1')))).toBe(2);
    expectFieldError(missing, 404, 'base', 'not_found');
    // Past the end the page is empty and the count is a statement of its own.
    const past = await s.admin.get(`/school_products/${cat.productId}/enrollments?page=9&per_page=2`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
  });

  it('given more enrollments than a GraphQL page holds, when listing without page, then the whole list streams', async () => {
    const r = await student(s);
    const items = Array.from({ length: 120 }, () => body(r, secondProduct));
    const created = await s.admin.post('/enrollments/batch', { enrollments: items });
    expect(created.status, created.text).toBe(201);
    const res = await s.admin.get(`/students/${r.studentId}/enrollments`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(120);
    expect(res.headers['x-total-count']).toBe('120');
    expect(ids(res)).toEqual(created.body.map((e: any) => e.id));
  });
});
