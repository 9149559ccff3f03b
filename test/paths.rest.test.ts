import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { courses } from '../src/modules/courses/course.table.js';
import { pathCourses, paths } from '../src/modules/paths/path.table.js';
import { schoolProductPaths } from '../src/modules/school-products/school-product-content.table.js';
import { next } from './support/courses.fixtures.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { type Client, type Reply, type Service, type TestSchool } from './support/service.js';
import { expectFieldError } from './support/rest-assertions.js';
import { pathFixtures, type RestPath } from './support/paths.fixtures.js';
import { twoSchools } from './support/world.js';

// REST face of Path: the lists and shows (top level, under a school product, under an enrollment),
// create, update (name and description only), add_course / remove_course, destroy.

let service: Service;
let school: TestSchool;
let other: TestSchool;

twoSchools('Paths School', 'Paths Other', (w) => ({ service, school, other } = w));

// ---------------------------------------------------------------------------------------------
// Fixtures (test/support/paths.fixtures.ts) and paths made through the API.

const { course, product, student, enrollment: enroll } = pathFixtures(() => service);
/** An enrollment's id (what the REST routes name). */
const enrollment = async (...args: Parameters<typeof enroll>) => (await enroll(...args)).id;

/** A path made through the API. */
async function createPath(fields: Record<string, unknown> = {}, s: TestSchool = school): Promise<RestPath> {
  const res = await s.admin.post('/paths', { path: { name: `Path ${next()}`, description: 'A path', ...fields } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// Database and reply helpers.

async function pathRow(id: number) {
  const [row] = await service.db.select().from(paths).where(eq(paths.id, id));
  return row;
}
async function coursesOf(id: number) {
  const rows = await service.db.select().from(pathCourses).where(eq(pathCourses.pathId, id)).orderBy(asc(pathCourses.position));
  return rows.map((r) => r.courseId);
}
const snapshot = fingerprint(() => service, { paths, links: pathCourses });
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);
const ids = (res: Reply) => (res.body as { id: number }[]).map((p) => p.id);

// =============================================================================================

describe('POST /paths', () => {
  it('given every field as JSON, then 201 with the path, a Location, and its courses in the given order', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const res = await school.admin.post('/paths', {
      path: { name: '  Data track ', description: 'From zero', image_url: 'https://cdn.example.com/p.png', code: 'DATA-1', course_ids: [c3, c1, c2] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/paths/${res.body.id}`);
    expect(res.body).toMatchObject({
      school_id: school.id,
      name: 'Data track',
      description: 'From zero',
      image_url: 'https://cdn.example.com/p.png',
      code: 'DATA-1',
      course_ids: [c3, c1, c2],
    });
    expect(typeof res.body.created_at).toBe('string');
    expect(await pathRow(res.body.id)).toMatchObject({ schoolId: school.id, name: 'Data track', code: 'DATA-1' });
    const links = await service.db.select().from(pathCourses).where(eq(pathCourses.pathId, res.body.id)).orderBy(asc(pathCourses.position));
    expect(links.map((l) => [l.courseId, l.position])).toEqual([[c3, 0], [c1, 1], [c2, 2]]);
  });

  it('given a form-urlencoded body with bracket names, then 201 with the courses in order', async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const res = await school.admin.post('/paths', { path: { name: 'Form', description: 'd', course_ids: [c2, c1] } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.course_ids).toEqual([c2, c1]);
    expect(await coursesOf(res.body.id)).toEqual([c2, c1]);
  });

  it('given a multipart body, then 201', async () => {
    const c1 = await course(school);
    const res = await school.admin.post('/paths', { path: { name: 'Multi', description: 'd', course_ids: [c1] } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Multi', course_ids: [c1] });
  });

  it('given only the required fields, then the optional ones are null and the course list empty', async () => {
    const body = await createPath({ name: 'Bare' });
    expect(body).toMatchObject({ name: 'Bare', image_url: null, code: null, course_ids: [] });
  });

  it('given repeated course ids, then each course is in the path once, at its first place', async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const body = await createPath({ course_ids: [c1, c2, c1] });
    expect(body.course_ids).toEqual([c1, c2]);
  });

  it('given no name and no description, then 422 for each and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.post('/paths', { path: { image_url: 'x', name: '  ' } }));
    expectFieldError(res, 422, 'name', 'blank');
    expectFieldError(res, 422, 'description', 'blank');
  });

  it("given another school's course or an unknown one, then 422 on course_ids and nothing written", async () => {
    const mine = await course(school);
    const foreign = await course(other);
    const res = await expectNoWrite(() => school.admin.post('/paths', { path: { name: 'x', description: 'd', course_ids: [mine, foreign, 999999] } }));
    expectFieldError(res, 422, 'course_ids', 'not_found');
    expect(res.body.errors.course_ids[0]).toContain(String(foreign));
  });

  it('given a code the school already uses, then 409 on code; another school may use it', async () => {
    await createPath({ code: 'SHARED' });
    const res = await expectNoWrite(() => school.admin.post('/paths', { path: { name: 'x', description: 'd', code: 'SHARED' } }));
    expectFieldError(res, 409, 'code', 'taken');
    expect((await createPath({ code: 'SHARED' }, other)).code).toBe('SHARED');
  });

  it('given blank codes, then they mean no code and never collide', async () => {
    expect((await createPath({ code: '  ' })).code).toBeNull();
    expect((await createPath({ code: '' })).code).toBeNull();
  });

  it('given a missing resource key, malformed JSON or a wrong type, then 400 and nothing written', async () => {
    expectFieldError(await expectNoWrite(() => school.admin.post('/paths', { name: 'x', description: 'd' })), 400, 'path');
    expectFieldError(await expectNoWrite(() => school.admin.post('/paths', undefined, { raw: '{"path": {', headers: { 'content-type': 'application/json' } })), 400, 'base');
    expectFieldError(await expectNoWrite(() => school.admin.post('/paths', { path: { name: { a: 1 }, description: 'd' } })), 400, 'name');
    expectFieldError(await expectNoWrite(() => school.admin.post('/paths', { path: 'name' })), 400, 'path');
  });

  it('given no credential, then 401; given a student credential, then 403; nothing written', async () => {
    expectFieldError(await expectNoWrite(() => service.anonymous.post('/paths', { path: { name: 'x', description: 'd' } })), 401, 'base');
    const { client } = await student(school);
    expectFieldError(await expectNoWrite(() => client.post('/paths', { path: { name: 'x', description: 'd' } })), 403, 'base');
  });
});

describe('GET /paths and GET /paths/:id', () => {
  it("lists the school's paths only, whole or by page with the paging headers", async () => {
    const mine = [await createPath(), await createPath(), await createPath()].map((p) => p.id);
    const theirs = (await createPath({}, other)).id;
    const res = await school.admin.get('/paths');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expect.arrayContaining(mine));
    expect(ids(res)).not.toContain(theirs);
    expect(res.body.every((p: RestPath) => p.school_id === school.id)).toBe(true);
    expect(res.headers['x-total-count']).toBe(String(res.body.length));

    const page = await school.admin.get('/paths?page=2&per_page=2');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(2);
    expect(page.headers['x-page']).toBe('2');
    expect(page.headers['x-per-page']).toBe('2');
    expect(ids(page)).toEqual(ids(res).slice(2, 4));
  });

  it('shows a path with its course ids in order, also under /v1 and with .json', async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const created = await createPath({ course_ids: [c2, c1] });
    for (const url of [`/paths/${created.id}`, `/v1/paths/${created.id}`, `/paths/${created.id}.json`]) {
      const res = await school.admin.get(url);
      expect(res.status, url).toBe(200);
      expect(res.body).toEqual(created);
      expect(res.body.course_ids).toEqual([c2, c1]);
    }
  });

  it("given another school's path or an unknown id, then 404", async () => {
    const theirs = await createPath({}, other);
    expectFieldError(await school.admin.get(`/paths/${theirs.id}`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get('/paths/999999'), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get('/paths/abc'), 404, 'base', 'not_found');
  });

  it('given a student credential, then the catalogue reads; without a credential 401', async () => {
    const created = await createPath();
    const { client } = await student(school);
    expect((await client.get(`/paths/${created.id}`)).status).toBe(200);
    expectFieldError(await service.anonymous.get('/paths'), 401, 'base');
  });
});

describe('the scoped lists and shows', () => {
  it("/school_products/:id/paths lists the product's paths; its show is 404 for a path outside the product", async () => {
    const [p1, p2, outside] = [await createPath(), await createPath(), await createPath()];
    const productId = await product(school, [p2.id, p1.id]);
    const list = await school.admin.get(`/school_products/${productId}/paths`);
    expect(list.status).toBe(200);
    // In the product's order, not in id order.
    expect(ids(list)).toEqual([p2.id, p1.id]);
    expect(list.headers['x-total-count']).toBe('2');
    const page = await school.admin.get(`/school_products/${productId}/paths?page=2&per_page=1`);
    expect(ids(page)).toEqual([p1.id]);
    expect(page.headers['x-total-count']).toBe('2');
    expect((await school.admin.get(`/school_products/${productId}/paths/${p1.id}`)).body.id).toBe(p1.id);
    expectFieldError(await school.admin.get(`/school_products/${productId}/paths/${outside.id}`), 404, 'base', 'not_found');
    expect(await school.admin.get(`/school_products/${await product(school)}/paths`)).toMatchObject({ status: 200, body: [] });
  });

  it("streams a product's whole list past the GraphQL page limit, in the product's order", async () => {
    const made = await service.db
      .insert(paths)
      .values(Array.from({ length: 130 }, (_, i) => ({ schoolId: school.id, name: `Bulk ${i}`, description: 'd' })))
      .returning();
    const order = made.map((p) => p.id).reverse();
    const productId = await product(school, order);
    const res = await school.admin.get(`/school_products/${productId}/paths`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(order);
    expect(res.headers['x-total-count']).toBe('130');
  });

  it("given another school's product, then 404 for its list and its shows", async () => {
    const theirs = await createPath({}, other);
    const theirProduct = await product(other, [theirs.id]);
    expectFieldError(await school.admin.get(`/school_products/${theirProduct}/paths`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get(`/school_products/${theirProduct}/paths/${theirs.id}`), 404, 'base', 'not_found');
    // A product of this school does not reach another school's path either.
    const mine = await product(school);
    // Its foreign key carries the school (sharding by school): no such link can even be written.
    await expect(service.db.insert(schoolProductPaths).values({ schoolId: school.id, schoolProductId: mine, pathId: theirs.id })).rejects.toThrow();
    expect(await school.admin.get(`/school_products/${mine}/paths`)).toMatchObject({ status: 200, body: [] });
    expectFieldError(await school.admin.get(`/school_products/${mine}/paths/${theirs.id}`), 404, 'base', 'not_found');
  });

  it("/enrollments/:id/paths lists the enrolled product's paths while the enrollment is active", async () => {
    const [p1, p2, outside] = [await createPath(), await createPath(), await createPath()];
    const productId = await product(school, [p2.id, p1.id]);
    const active = await enrollment(school, productId);
    const list = await school.admin.get(`/enrollments/${active}/paths`);
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([p2.id, p1.id]);
    expect((await school.admin.get(`/enrollments/${active}/paths/${p2.id}`)).body.id).toBe(p2.id);
    expectFieldError(await school.admin.get(`/enrollments/${active}/paths/${outside.id}`), 404, 'base', 'not_found');
  });

  it('given an enrollment that is not active (pending, canceled, or run out), then an empty list and 404 shows', async () => {
    const p1 = await createPath();
    const productId = await product(school, [p1.id]);
    const inactive = [
      await enrollment(school, productId, { status: 'pending' }),
      await enrollment(school, productId, { status: 'canceled' }),
      await enrollment(school, productId, { status: 'active', unlimited: false, availableUntil: new Date('2020-01-01T00:00:00Z') }),
    ];
    for (const id of inactive) {
      expect(await school.admin.get(`/enrollments/${id}/paths`)).toMatchObject({ status: 200, body: [] });
      expectFieldError(await school.admin.get(`/enrollments/${id}/paths/${p1.id}`), 404, 'base', 'not_found');
    }
  });

  it("given another school's enrollment or an unknown one, then 404", async () => {
    const theirs = await createPath({}, other);
    const theirEnrollment = await enrollment(other, await product(other, [theirs.id]));
    expectFieldError(await school.admin.get(`/enrollments/${theirEnrollment}/paths`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get(`/enrollments/${theirEnrollment}/paths/${theirs.id}`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get('/enrollments/999999/paths'), 404, 'base', 'not_found');
  });

  it("given a student credential, then its own enrollment's paths, and 404 for another student's enrollment", async () => {
    const p1 = await createPath();
    const productId = await product(school, [p1.id]);
    const me = await student(school);
    const mine = await enrollment(school, productId, { studentId: me.id });
    const someoneElses = await enrollment(school, productId);
    expect(ids(await me.client.get(`/enrollments/${mine}/paths`))).toEqual([p1.id]);
    expect((await me.client.get(`/enrollments/${mine}/paths/${p1.id}`)).status).toBe(200);
    expectFieldError(await me.client.get(`/enrollments/${someoneElses}/paths`), 404, 'base', 'not_found');
    expectFieldError(await me.client.get(`/enrollments/${someoneElses}/paths/${p1.id}`), 404, 'base', 'not_found');
  });
});

describe('PUT and PATCH /paths/:id', () => {
  it('changes the name and the description: 200 with the path and a Location', async () => {
    const created = await createPath();
    for (const method of ['put', 'patch'] as const) {
      const res = await school.admin[method](`/paths/${created.id}`, { path: { name: `Renamed ${method}`, description: `New ${method}` } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.location).toBe(`/paths/${created.id}`);
      expect(res.body).toMatchObject({ id: created.id, name: `Renamed ${method}`, description: `New ${method}` });
      expect(await pathRow(created.id)).toMatchObject({ name: `Renamed ${method}`, description: `New ${method}` });
    }
  });

  it('ignores the fields an update may not write (image_url, code, course_ids, id, timestamps), as a whole fetched object sent back', async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const created = await createPath({ code: 'KEEP', image_url: 'https://a.example.com/1.png', course_ids: [c1] });
    const sentBack = { ...created, name: 'Only the name changes', image_url: 'https://b.example.com/2.png', code: 'OTHER', course_ids: [c2], id: 1, school_id: other.id, created_at: '2000-01-01T00:00:00Z' };
    const res = await school.admin.put(`/paths/${created.id}`, { path: sentBack });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, school_id: school.id, name: 'Only the name changes', image_url: 'https://a.example.com/1.png', code: 'KEEP', course_ids: [c1], created_at: created.created_at });
    expect(await pathRow(created.id)).toMatchObject({ name: 'Only the name changes', imageUrl: 'https://a.example.com/1.png', code: 'KEEP', schoolId: school.id });
    expect(await coursesOf(created.id)).toEqual([c1]);
  });

  it('given a form-urlencoded body, then 200', async () => {
    const created = await createPath();
    const res = await school.admin.patch(`/paths/${created.id}`, { path: { description: 'By form' } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: created.name, description: 'By form' });
  });

  it('given a cleared name or description, then 422 and nothing written', async () => {
    const created = await createPath();
    const res = await expectNoWrite(() => school.admin.put(`/paths/${created.id}`, { path: { name: '', description: null } }));
    expectFieldError(res, 422, 'name', 'blank');
    expectFieldError(res, 422, 'description', 'blank');
  });

  it('given an empty or missing resource, then 400', async () => {
    const created = await createPath();
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${created.id}`, { path: {} })), 400, 'path');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/paths/${created.id}`, { name: 'x' })), 400, 'path');
  });

  it("given another school's path, then 404 and it is untouched; a student is 403", async () => {
    const theirs = await createPath({}, other);
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${theirs.id}`, { path: { name: 'Hijacked' } })), 404, 'base', 'not_found');
    const { client } = await student(school);
    const mine = await createPath();
    expectFieldError(await expectNoWrite(() => client.patch(`/paths/${mine.id}`, { path: { name: 'x' } })), 403, 'base');
  });
});

describe('PUT and PATCH /paths/:id/add_course and remove_course', () => {
  it('adds a course at the end, from {"path": {"course_id"}} (PUT) and from {"course_id"} (PATCH): 200 with the path', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const created = await createPath({ course_ids: [c1] });
    const put = await school.admin.put(`/paths/${created.id}/add_course`, { path: { course_id: c2 } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id: created.id, course_ids: [c1, c2] });
    const patch = await school.admin.patch(`/paths/${created.id}/add_course`, { course_id: c3 });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.course_ids).toEqual([c1, c2, c3]);
    expect(await coursesOf(created.id)).toEqual([c1, c2, c3]);
  });

  it('given concurrent adds of different courses, then every course is in the path at a place of its own', async () => {
    const cs = [await course(school), await course(school), await course(school), await course(school), await course(school)];
    const created = await createPath();
    const replies = await Promise.all(cs.map((c) => school.admin.put(`/paths/${created.id}/add_course`, { course_id: c })));
    expect(replies.map((r) => r.status)).toEqual(Array(cs.length).fill(200));
    const links = await service.db.select().from(pathCourses).where(eq(pathCourses.pathId, created.id));
    expect(links.map((l) => l.courseId).sort((a, b) => a - b)).toEqual([...cs].sort((a, b) => a - b));
    expect(new Set(links.map((l) => l.position)).size).toBe(cs.length);
  });

  it('accepts both shapes as form-urlencoded and multipart bodies', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const created = await createPath();
    expect((await school.admin.put(`/paths/${created.id}/add_course`, { path: { course_id: c1 } }, { encoding: 'form' })).body.course_ids).toEqual([c1]);
    expect((await school.admin.patch(`/paths/${created.id}/add_course`, { course_id: c2 }, { encoding: 'form' })).body.course_ids).toEqual([c1, c2]);
    expect((await school.admin.put(`/paths/${created.id}/add_course`, { course_id: c3 }, { encoding: 'multipart' })).body.course_ids).toEqual([c1, c2, c3]);
    expect((await school.admin.put(`/paths/${created.id}/remove_course`, { path: { course_id: c2 } }, { encoding: 'form' })).body.course_ids).toEqual([c1, c3]);
  });

  it('given a course the path already has, then 200 and nothing changes (adding is idempotent)', async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const created = await createPath({ course_ids: [c1, c2] });
    const res = await expectNoWrite(() => school.admin.put(`/paths/${created.id}/add_course`, { path: { course_id: c1 } }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.course_ids).toEqual([c1, c2]);
  });

  it("given no course, another school's course or an unknown one, then 422 on course_id and nothing written", async () => {
    const created = await createPath();
    const foreign = await course(other);
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${created.id}/add_course`, {})), 422, 'course_id', 'blank');
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${created.id}/add_course`, { path: { course_id: '' } }, { encoding: 'form' })), 422, 'course_id', 'blank');
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${created.id}/add_course`, { path: { course_id: foreign } })), 422, 'course_id', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/paths/${created.id}/add_course`, { course_id: 999999 })), 422, 'course_id', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/paths/${created.id}/add_course`, { course_id: { id: 1 } })), 400, 'course_id');
  });

  it('removes a course with either body shape (PUT and PATCH); the others keep their order', async () => {
    const [c1, c2, c3, c4] = [await course(school), await course(school), await course(school), await course(school)];
    const created = await createPath({ course_ids: [c1, c2, c3, c4] });
    const put = await school.admin.put(`/paths/${created.id}/remove_course`, { path: { course_id: c2 } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id: created.id, course_ids: [c1, c3, c4] });
    const patch = await school.admin.patch(`/paths/${created.id}/remove_course`, { course_id: c4 });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body.course_ids).toEqual([c1, c3]);
    // A course added after removals goes to the end.
    expect((await school.admin.put(`/paths/${created.id}/add_course`, { course_id: c2 })).body.course_ids).toEqual([c1, c3, c2]);
    // The course itself stays.
    expect(await service.db.select().from(courses).where(eq(courses.id, c4))).toHaveLength(1);
  });

  it('given a course the path does not have, then 422 on course_id and nothing written', async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const created = await createPath({ course_ids: [c1] });
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${created.id}/remove_course`, { path: { course_id: c2 } })), 422, 'course_id', 'inclusion');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/paths/${created.id}/remove_course`, { course_id: 'abc' })), 422, 'course_id', 'inclusion');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/paths/${created.id}/remove_course`, {})), 422, 'course_id', 'blank');
  });

  it("given another school's path, then 404 and it is untouched; a student is 403; no credential 401", async () => {
    const c1 = await course(other);
    const theirs = await createPath({ course_ids: [c1] }, other);
    const mine = await course(school);
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${theirs.id}/add_course`, { course_id: mine })), 404, 'base', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.put(`/paths/${theirs.id}/remove_course`, { course_id: c1 })), 404, 'base', 'not_found');
    const { client } = await student(school);
    const path = await createPath();
    expectFieldError(await expectNoWrite(() => client.put(`/paths/${path.id}/add_course`, { course_id: mine })), 403, 'base');
    expectFieldError(await expectNoWrite(() => service.anonymous.put(`/paths/${path.id}/add_course`, { course_id: mine })), 401, 'base');
  });
});

describe('DELETE /paths/:id', () => {
  it('deletes the path and its course links (the courses stay): 204, then 404', async () => {
    const c1 = await course(school);
    const created = await createPath({ course_ids: [c1] });
    const productId = await product(school, [created.id]);
    const res = await school.admin.delete(`/paths/${created.id}`);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect(await pathRow(created.id)).toBeUndefined();
    expect(await coursesOf(created.id)).toEqual([]);
    expect(await service.db.select().from(schoolProductPaths).where(eq(schoolProductPaths.schoolProductId, productId))).toEqual([]);
    expect(await service.db.select().from(courses).where(eq(courses.id, c1))).toHaveLength(1);
    expectFieldError(await school.admin.delete(`/paths/${created.id}`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get(`/paths/${created.id}`), 404, 'base', 'not_found');
  });

  it("given another school's path, then 404 and it stays; a student is 403", async () => {
    const theirs = await createPath({}, other);
    expectFieldError(await expectNoWrite(() => school.admin.delete(`/paths/${theirs.id}`)), 404, 'base', 'not_found');
    const { client } = await student(school);
    const mine = await createPath();
    expectFieldError(await expectNoWrite(() => client.delete(`/paths/${mine.id}`)), 403, 'base');
  });
});

describe('a platform credential', () => {
  it('writes in the school it names with X-School-Id, and 400 without it', async () => {
    const platform: Client = service.platform;
    expectFieldError(await platform.post('/paths', { path: { name: 'x', description: 'd' } }), 400, 'base');
    const res = await platform.forSchool(school.id).post('/paths', { path: { name: 'By platform', description: 'd' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_id).toBe(school.id);
  });
});
