import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseModuleLinks, courseModules } from '../src/modules/courses/course.table.js';
import { api, expectNoWrite, type Fixtures, ids, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';

// REST face of Course, continued: PUT/PATCH/DELETE /courses/:id, and the reads under
// /school_products/:id and /enrollments/:id. (Create and read: courses.rest.test.ts.)

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Courses School', 'Courses Other')));
afterAll(() => service?.stop());

/** Modules made through the API, each in a holder course. */
async function modules(n: number, client = school.admin) {
  const holder = await api(client).course();
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await api(client).module(holder.id)).id);
  return out;
}

describe('PUT/PATCH /courses/:id', () => {
  it('given new fields, then 200 with the course, a Location of the show path, and the row changed', async () => {
    const course = await make.course({ name: 'Before', code: 'UPD-1', duration: 5 });
    const res = await school.admin.put(`/courses/${course.id}`, { course: { name: 'After', description: 'Now described', ready: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/courses/${course.id}`);
    expect(res.body).toMatchObject({ id: course.id, name: 'After', description: 'Now described', ready: true, code: 'UPD-1', duration: 5 });
    expect(await f.courseRow(course.id)).toMatchObject({ name: 'After', ready: true, code: 'UPD-1' });
  });

  it('given course_modules_ids, then they replace the modules in the new order; omitted keeps them; [] clears them', async () => {
    const [m1, m2, m3] = await modules(3);
    const course = await make.course({ course_modules_ids: [m1, m2] });
    const res = await school.admin.patch(`/courses/${course.id}`, { course: { course_modules_ids: [m3, m1] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.course_modules_ids).toEqual([m3, m1]);
    expect(await f.moduleIdsOf(course.id)).toEqual([m3, m1]);
    // Module m2 is no longer linked but still exists (modules are the school's).
    expect(await f.moduleRow(m2)).toBeDefined();

    await school.admin.patch(`/courses/${course.id}`, { course: { name: 'Renamed' } });
    expect(await f.moduleIdsOf(course.id)).toEqual([m3, m1]);

    const cleared = await school.admin.patch(`/courses/${course.id}`, { course: { course_modules_ids: [] } });
    expect(cleared.body.course_modules_ids).toEqual([]);
    expect(await f.moduleIdsOf(course.id)).toEqual([]);
  });

  it('given a form body that clears the modules (course_modules_ids[]=), then none remain', async () => {
    const [m1] = await modules(1);
    const course = await make.course({ course_modules_ids: [m1] });
    const res = await school.admin.put(`/courses/${course.id}`, { course: { course_modules_ids: [''] } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(await f.moduleIdsOf(course.id)).toEqual([]);
  });

  it('given the whole fetched object sent back, then the read-only fields are ignored', async () => {
    const course = await make.course({ name: 'Round trip' });
    const shown = (await school.admin.get(`/courses/${course.id}`)).body;
    const res = await school.admin.put(`/courses/${course.id}`, { course: { ...shown, name: 'Round trip 2' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: course.id, name: 'Round trip 2', school_id: school.id });
  });

  it.each([
    ['a blank name', { name: '' }, 'name', 422],
    ['a negative duration', { duration: -3 }, 'duration', 422],
    ['a foreign module', { course_modules_ids: ['FOREIGN'] }, 'course_modules_ids', 422],
    ['a taken code', { code: 'UPD-TAKEN' }, 'code', 409],
  ])('given %s, then refused and nothing written', async (_n, fields, field, status) => {
    if (!(await school.admin.get('/courses')).body.some((c: { code: string }) => c.code === 'UPD-TAKEN')) await make.course({ code: 'UPD-TAKEN' });
    const [foreign] = await modules(1, other.admin);
    const course = await make.course({ name: 'Keep' });
    const body = JSON.parse(JSON.stringify(fields).replace('"FOREIGN"', String(foreign)));
    const res = await expectNoWrite(f, () => school.admin.patch(`/courses/${course.id}`, { course: body }));
    expectFieldError(res, status, field);
  });

  it('given a malformed value, then 400', async () => {
    const course = await make.course();
    expectErrorBody(await expectNoWrite(f, () => school.admin.put(`/courses/${course.id}`, { course: { duration: 'x' } })), 400);
    expectErrorBody(await expectNoWrite(f, () => school.admin.put(`/courses/${course.id}`, { name: 'unwrapped' })), 400);
  });

  it("given another school's course, then 404 and it is untouched", async () => {
    const foreign = await api(other.admin).course({ name: 'Theirs' });
    expectNotFound(await school.admin.put(`/courses/${foreign.id}`, { course: { name: 'Mine now' } }));
    expect((await f.courseRow(foreign.id)).name).toBe('Theirs');
  });

  it('given no credential or a student, then 401 / 403', async () => {
    const course = await make.course();
    expectErrorBody(await service.anonymous.put(`/courses/${course.id}`, { course: { name: 'x' } }), 401);
    expectErrorBody(await (await f.studentClient(school)).put(`/courses/${course.id}`, { course: { name: 'x' } }), 403);
  });
});

describe('DELETE /courses/:id', () => {
  it('deletes the course and its module links; the modules stay', async () => {
    const course = await make.course();
    const m = await make.module(course.id);
    const res = await school.admin.delete(`/courses/${course.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await f.courseRow(course.id)).toBeUndefined();
    expect(await service.db.select().from(courseModuleLinks).where(eq(courseModuleLinks.courseId, course.id))).toEqual([]);
    expect(await service.db.select().from(courseModules).where(eq(courseModules.id, m.id))).toHaveLength(1);
    expectNotFound(await school.admin.delete(`/courses/${course.id}`));
  });

  it("given another school's course, then 404 and it stays; no credential 401; a student 403", async () => {
    const foreign = await api(other.admin).course();
    expectNotFound(await school.admin.delete(`/courses/${foreign.id}`));
    expect(await f.courseRow(foreign.id)).toBeDefined();
    const own = await make.course();
    expectErrorBody(await service.anonymous.delete(`/courses/${own.id}`), 401);
    expectErrorBody(await (await f.studentClient(school)).delete(`/courses/${own.id}`), 403);
    expect(await f.courseRow(own.id)).toBeDefined();
  });
});

describe('courses of a school product and of an enrollment', () => {
  it("lists the product's own courses by position, then its paths' courses, each once", async () => {
    const [a, b, c, d] = [await make.course(), await make.course(), await make.course(), await make.course()];
    await make.course(); // not offered
    const product = await f.product(school);
    await f.offer(product.id, [a.id, b.id], [2, 1]);
    await f.pathOf(school, [d.id, a.id, c.id], product.id);

    expect(ids(await school.admin.get(`/school_products/${product.id}/courses`))).toEqual([b.id, a.id, d.id, c.id]);
    const page = await school.admin.get(`/school_products/${product.id}/courses?page=2&per_page=3`);
    expect(ids(page)).toEqual([c.id]);
    expect(page.headers['x-total-count']).toBe('4');

    expect((await school.admin.get(`/school_products/${product.id}/courses/${d.id}`)).body.id).toBe(d.id);
    expect(ids(await school.admin.get(`/enrollments/${(await f.enrollment(school, product.id)).id}/courses`))).toEqual([b.id, a.id, d.id, c.id]);
  });

  it('given a course outside the product or the enrollment, then the scoped show is a 404', async () => {
    const inside = await make.course();
    const outside = await make.course();
    const product = await f.product(school);
    await f.offer(product.id, [inside.id]);
    const enrollment = await f.enrollment(school, product.id);
    expectNotFound(await school.admin.get(`/school_products/${product.id}/courses/${outside.id}`));
    expectNotFound(await school.admin.get(`/enrollments/${enrollment.id}/courses/${outside.id}`));
    expect((await enrollment.student.get(`/enrollments/${enrollment.id}/courses/${inside.id}`)).body.id).toBe(inside.id);
  });

  it('given an enrollment that is not active, then nothing: an empty list and 404 for the show', async () => {
    const course = await make.course();
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    for (const fields of [{ status: 'pending' as const }, { status: 'canceled' as const }, { unlimited: false, availableUntil: new Date('2020-01-01') }]) {
      const enrollment = await f.enrollment(school, product.id, fields);
      const list = await school.admin.get(`/enrollments/${enrollment.id}/courses`);
      expect(ids(list)).toEqual([]);
      expect(list.headers['x-total-count']).toBe('0');
      expectNotFound(await school.admin.get(`/enrollments/${enrollment.id}/courses/${course.id}`));
    }
  });

  it("given another school's product or enrollment, or another student's enrollment, then 404", async () => {
    const foreignProduct = await f.product(other);
    const foreignEnrollment = await f.enrollment(other, foreignProduct.id);
    expectNotFound(await school.admin.get(`/school_products/${foreignProduct.id}/courses`));
    expectNotFound(await school.admin.get(`/enrollments/${foreignEnrollment.id}/courses`));

    const product = await f.product(school);
    const mine = await f.enrollment(school, product.id);
    const theirs = await f.enrollment(school, product.id);
    expectNotFound(await mine.student.get(`/enrollments/${theirs.id}/courses`));
    expect((await mine.student.get(`/enrollments/${mine.id}/courses`)).status).toBe(200);
  });
});
