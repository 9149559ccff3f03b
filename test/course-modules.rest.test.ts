import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseModuleLinks, courseModules, lessons } from '../src/modules/courses/course.table.js';
import { api, expectNoWrite, type Fixtures, ids, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';

// REST face of CourseModule: GET/POST /courses/:course_id/course_modules, GET/PUT/PATCH/DELETE
// /course_modules/:id, and the reads under /school_products/:id and /enrollments/:id.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Modules School', 'Modules Other')));
afterAll(() => service?.stop());

describe('POST /courses/:course_id/course_modules', () => {
  it('creates a module at the end of the course: 201, Location, the row and the link', async () => {
    const course = await make.course();
    const first = await make.module(course.id);
    const res = await school.admin.post(`/courses/${course.id}/course_modules`, { course_module: { name: ' Second ', description: 'Two' } });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/course_modules/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      name: 'Second',
      description: 'Two',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await f.moduleRow(res.body.id)).toMatchObject({ schoolId: school.id, name: 'Second', description: 'Two' });
    expect(await f.moduleIdsOf(course.id)).toEqual([first.id, res.body.id]);
    const links = await service.db.select().from(courseModuleLinks).where(eq(courseModuleLinks.courseId, course.id));
    expect(links.map((l) => l.position).sort()).toEqual([0, 1]);
  });

  it('appends after the highest position even when the course was reordered', async () => {
    const course = await make.course();
    const [a, b] = [await make.module(course.id), await make.module(course.id)];
    await school.admin.put(`/courses/${course.id}`, { course: { course_modules_ids: [b.id, a.id] } });
    const c = await make.module(course.id);
    expect(await f.moduleIdsOf(course.id)).toEqual([b.id, a.id, c.id]);
  });

  it('accepts form-urlencoded and multipart bodies', async () => {
    const course = await make.course();
    const form = await school.admin.post(`/courses/${course.id}/course_modules`, { course_module: { name: 'Form', description: 'F' } }, { encoding: 'form' });
    expect(form.status, form.text).toBe(201);
    const multipart = await school.admin.post(`/courses/${course.id}/course_modules`, { course_module: { name: 'Multi', description: 'M' } }, { encoding: 'multipart' });
    expect(multipart.status, multipart.text).toBe(201);
    expect(await f.moduleIdsOf(course.id)).toEqual([form.body.id, multipart.body.id]);
  });

  it.each([
    ['no name', { description: 'x' }, 'name'],
    ['a blank name', { name: ' ', description: 'x' }, 'name'],
    ['no description', { name: 'x' }, 'description'],
  ])('given %s, then 422 blank and nothing written', async (_n, body, field) => {
    const course = await make.course();
    expectFieldError(await expectNoWrite(f, () => school.admin.post(`/courses/${course.id}/course_modules`, { course_module: body })), 422, field, 'blank');
  });

  it('given malformed bodies, then 400 and nothing written', async () => {
    const course = await make.course();
    for (const body of [{ name: 'unwrapped' }, { course_module: {} }, { course_module: { name: ['a'], description: 'x' } }]) {
      expectErrorBody(await expectNoWrite(f, () => school.admin.post(`/courses/${course.id}/course_modules`, body)), 400);
    }
  });

  it("given another school's course or none, then 404 and nothing written", async () => {
    const foreign = await api(other.admin).course();
    for (const id of [foreign.id, 999999, 'abc']) {
      expectNotFound(await expectNoWrite(f, () => school.admin.post(`/courses/${id}/course_modules`, { course_module: { name: 'x', description: 'y' } })));
    }
  });

  it('given no credential or a student, then 401 / 403 and nothing written', async () => {
    const course = await make.course();
    const body = { course_module: { name: 'x', description: 'y' } };
    expectErrorBody(await expectNoWrite(f, () => service.anonymous.post(`/courses/${course.id}/course_modules`, body)), 401);
    expectErrorBody(await expectNoWrite(f, async () => (await f.studentClient(school)).post(`/courses/${course.id}/course_modules`, body)), 403);
  });
});

describe('GET /courses/:course_id/course_modules and /course_modules/:id', () => {
  it("lists the course's modules in the course's order, paged with page/per_page", async () => {
    const holder = await make.course();
    const mods = [await make.module(holder.id), await make.module(holder.id), await make.module(holder.id)].map((m) => m.id);
    const course = await make.course({ course_modules_ids: [mods[2], mods[0], mods[1]] });
    expect(ids(await school.admin.get(`/courses/${course.id}/course_modules`))).toEqual([mods[2], mods[0], mods[1]]);
    const page = await school.admin.get(`/courses/${course.id}/course_modules?page=2&per_page=2`);
    expect(ids(page)).toEqual([mods[1]]);
    expect(page.headers['x-total-count']).toBe('3');
  });

  it('streams a long list whole, page after page, in the course order', async () => {
    const course = await make.course();
    const made = await service.db
      .insert(courseModules)
      .values(Array.from({ length: 130 }, (_, i) => ({ schoolId: school.id, name: `Bulk ${i}`, description: 'b' })))
      .returning({ id: courseModules.id });
    // Positions run against the ids, so id order and course order differ.
    await service.db.insert(courseModuleLinks).values(made.map((m, i) => ({ schoolId: school.id, courseId: course.id, courseModuleId: m.id, position: 1000 - i })));
    const res = await school.admin.get(`/courses/${course.id}/course_modules`);
    expect(ids(res)).toEqual(made.map((m) => m.id).reverse());
    expect(res.headers['x-total-count']).toBe('130');
  });

  it('shows a module; another school\'s or none is a 404; no credential 401', async () => {
    const course = await make.course();
    const m = await make.module(course.id, { name: 'Shown' });
    expect((await school.admin.get(`/course_modules/${m.id}`)).body).toMatchObject({ id: m.id, name: 'Shown' });
    expect((await (await f.studentClient(school)).get(`/course_modules/${m.id}.json`)).body.id).toBe(m.id);
    const foreignCourse = await api(other.admin).course();
    const foreign = await api(other.admin).module(foreignCourse.id);
    expectNotFound(await school.admin.get(`/course_modules/${foreign.id}`));
    expectNotFound(await school.admin.get(`/courses/${foreignCourse.id}/course_modules`));
    expectNotFound(await school.admin.get('/course_modules/999999'));
    expectErrorBody(await service.anonymous.get(`/course_modules/${m.id}`), 401);
    expectErrorBody(await service.anonymous.get(`/courses/${course.id}/course_modules`), 401);
  });
});

describe('PUT/PATCH /course_modules/:id', () => {
  it('updates name and description: 200 with a Location of the show path', async () => {
    const course = await make.course();
    const m = await make.module(course.id);
    const res = await school.admin.patch(`/course_modules/${m.id}`, { course_module: { name: 'Renamed' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/course_modules/${m.id}`);
    expect(res.body).toMatchObject({ id: m.id, name: 'Renamed', description: 'About' });
    const put = await school.admin.put(`/course_modules/${m.id}`, { course_module: { description: 'New' } }, { encoding: 'form' });
    expect(put.body).toMatchObject({ name: 'Renamed', description: 'New' });
    expect(await f.moduleRow(m.id)).toMatchObject({ name: 'Renamed', description: 'New' });
  });

  it('given a cleared name or description, then 422 and nothing written; malformed 400', async () => {
    const course = await make.course();
    const m = await make.module(course.id);
    expectFieldError(await expectNoWrite(f, () => school.admin.put(`/course_modules/${m.id}`, { course_module: { name: '' } })), 422, 'name', 'blank');
    expectFieldError(await expectNoWrite(f, () => school.admin.put(`/course_modules/${m.id}`, { course_module: { description: null } })), 422, 'description', 'blank');
    expectErrorBody(await expectNoWrite(f, () => school.admin.put(`/course_modules/${m.id}`, { course_module: { name: { x: 1 } } })), 400);
  });

  it("given another school's module, then 404 and it is untouched; 401; 403", async () => {
    const foreignCourse = await api(other.admin).course();
    const foreign = await api(other.admin).module(foreignCourse.id, { name: 'Theirs' });
    expectNotFound(await school.admin.put(`/course_modules/${foreign.id}`, { course_module: { name: 'Mine' } }));
    expect((await f.moduleRow(foreign.id)).name).toBe('Theirs');
    const course = await make.course();
    const m = await make.module(course.id);
    expectErrorBody(await service.anonymous.put(`/course_modules/${m.id}`, { course_module: { name: 'x' } }), 401);
    expectErrorBody(await (await f.studentClient(school)).put(`/course_modules/${m.id}`, { course_module: { name: 'x' } }), 403);
  });
});

describe('DELETE /course_modules/:id', () => {
  it('deletes the module, its links and its lessons', async () => {
    const course = await make.course();
    const m = await make.module(course.id);
    const keep = await make.module(course.id);
    const lesson = await make.lesson({ course_module_id: m.id });
    const res = await school.admin.delete(`/course_modules/${m.id}`);
    expect(res.status).toBe(204);
    expect(await f.moduleRow(m.id)).toBeUndefined();
    expect(await f.moduleIdsOf(course.id)).toEqual([keep.id]);
    expect(await service.db.select().from(lessons).where(eq(lessons.id, lesson.id))).toEqual([]);
  });

  it("given another school's module, then 404 and it stays; 401; 403", async () => {
    const foreignCourse = await api(other.admin).course();
    const foreign = await api(other.admin).module(foreignCourse.id);
    expectNotFound(await school.admin.delete(`/course_modules/${foreign.id}`));
    expect(await f.moduleRow(foreign.id)).toBeDefined();
    const course = await make.course();
    const m = await make.module(course.id);
    expectErrorBody(await service.anonymous.delete(`/course_modules/${m.id}`), 401);
    expectErrorBody(await (await f.studentClient(school)).delete(`/course_modules/${m.id}`), 403);
    expect(await f.moduleRow(m.id)).toBeDefined();
  });
});

describe('modules under a school product and an enrollment', () => {
  async function offered() {
    const direct = await make.course();
    const viaPath = await make.course();
    const outside = await make.course();
    const [d1, d2] = [await make.module(direct.id), await make.module(direct.id)];
    const p1 = await make.module(viaPath.id);
    const o1 = await make.module(outside.id);
    const product = await f.product(school);
    await f.offer(product.id, [direct.id]);
    await f.pathOf(school, [viaPath.id], product.id);
    return { direct, viaPath, outside, d1, d2, p1, o1, product };
  }

  it("lists a course's modules through the product and the enrollment; a course outside them is a 404", async () => {
    const { direct, viaPath, outside, d1, d2, p1, product } = await offered();
    const enrollment = await f.enrollment(school, product.id);
    for (const prefix of [`/school_products/${product.id}`, `/enrollments/${enrollment.id}`]) {
      expect(ids(await school.admin.get(`${prefix}/courses/${direct.id}/course_modules`))).toEqual([d1.id, d2.id]);
      expect(ids(await school.admin.get(`${prefix}/courses/${viaPath.id}/course_modules`))).toEqual([p1.id]);
      expectNotFound(await school.admin.get(`${prefix}/courses/${outside.id}/course_modules`));
    }
    expect(ids(await enrollment.student.get(`/enrollments/${enrollment.id}/courses/${direct.id}/course_modules`))).toEqual([d1.id, d2.id]);
  });

  it('shows a module of the scope; one outside it is a 404', async () => {
    const { d2, p1, o1, product } = await offered();
    const enrollment = await f.enrollment(school, product.id);
    for (const prefix of [`/school_products/${product.id}`, `/enrollments/${enrollment.id}`]) {
      expect((await school.admin.get(`${prefix}/course_modules/${d2.id}`)).body.id).toBe(d2.id);
      expect((await school.admin.get(`${prefix}/course_modules/${p1.id}`)).body.id).toBe(p1.id);
      expectNotFound(await school.admin.get(`${prefix}/course_modules/${o1.id}`));
    }
  });

  it('given an enrollment that is not active, then empty lists and 404 shows', async () => {
    const { direct, d1, product } = await offered();
    const enrollment = await f.enrollment(school, product.id, { status: 'expired' });
    expect(ids(await school.admin.get(`/enrollments/${enrollment.id}/courses/${direct.id}/course_modules`))).toEqual([]);
    expectNotFound(await school.admin.get(`/enrollments/${enrollment.id}/course_modules/${d1.id}`));
  });

  it("given another school's product or enrollment, or another student's enrollment, then 404", async () => {
    const { direct, d1, product } = await offered();
    const foreignProduct = await f.product(other);
    const foreignEnrollment = await f.enrollment(other, foreignProduct.id);
    expectNotFound(await school.admin.get(`/school_products/${foreignProduct.id}/course_modules/${d1.id}`));
    expectNotFound(await school.admin.get(`/enrollments/${foreignEnrollment.id}/courses/${direct.id}/course_modules`));
    const mine = await f.enrollment(school, product.id);
    const theirs = await f.enrollment(school, product.id);
    expectNotFound(await mine.student.get(`/enrollments/${theirs.id}/course_modules/${d1.id}`));
  });
});
