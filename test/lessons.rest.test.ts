import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { api, expectNoWrite, type Fixtures, ids, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';

// REST face of Lesson: GET /lessons/ (and /lessons), POST /lessons, GET /lessons/:id,
// PUT/PATCH/DELETE /lesson/:id (and the plural twins), and the reads under a school product.
// (The reads under an enrollment and the release rules: lessons.release.test.ts.)

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Lessons School', 'Lessons Other')));
afterAll(() => service?.stop());

async function module(client = school.admin) {
  const course = await api(client).course();
  return api(client).module(course.id);
}

describe('POST /lessons', () => {
  it('given every field as JSON, then 201 with the lesson, a Location, the row and a lesson.created event', async () => {
    const m = await module();
    const picture = await f.mediaItem(school);
    const res = await school.admin.post('/lessons', {
      lesson: {
        title: ' Vectors ',
        type: 'Video',
        description: 'Arrows',
        available: false,
        media_id: picture.id,
        min_grade: 6,
        unlock_certificate: true,
        release_at: '2026-02-01T09:00:00Z',
        release_after: 3,
        course_module_id: m.id,
        position: 4,
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/lessons/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      course_module_id: m.id,
      position: 4,
      title: 'Vectors',
      type: 'Video',
      description: 'Arrows',
      available: false,
      media_id: picture.id,
      min_grade: 6,
      unlock_certificate: true,
      release_at: '2026-02-01T09:00:00.000Z',
      release_after: 3,
      // Outside an enrollment, a lesson is never locked (test/progress/completion.test.ts).
      locked: false,
      released_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await f.lessonRow(res.body.id)).toMatchObject({ schoolId: school.id, courseModuleId: m.id, mediaId: picture.id, releaseAfter: 3, available: false });
    const events = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'lesson.created'), eq(domainEvents.subjectId, res.body.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ schoolId: school.id, subjectType: 'Lesson', payload: { title: 'Vectors', courseModuleId: m.id } });
  });

  it('given only title and type in a module, then defaults and a position after the last lesson', async () => {
    const m = await module();
    const first = await make.lesson({ course_module_id: m.id });
    const placed = await make.lesson({ course_module_id: m.id, position: 10 });
    const last = await make.lesson({ course_module_id: m.id });
    expect(first).toMatchObject({ position: 0, available: true, unlock_certificate: false, description: null, media_id: null, min_grade: null, release_at: null, release_after: null });
    expect(placed.position).toBe(10);
    expect(last.position).toBe(11);
  });

  it('given no module, then a draft lesson (no module, position 0)', async () => {
    const draft = await make.lesson({ title: 'Draft' });
    expect(draft).toMatchObject({ title: 'Draft', course_module_id: null, position: 0 });
  });

  it('accepts form-urlencoded and multipart bodies with typed values', async () => {
    const m = await module();
    const raw = ['lesson[title]=Form+lesson', 'lesson[type]=Text', 'lesson[available]=0', 'lesson[min_grade]=5', `lesson[course_module_id]=${m.id}`, 'lesson[release_after]=2'].join('&');
    const form = await school.admin.post('/lessons', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status, form.text).toBe(201);
    expect(form.body).toMatchObject({ title: 'Form lesson', type: 'Text', available: false, min_grade: 5, course_module_id: m.id, release_after: 2 });
    const multipart = await school.admin.post('/lessons', { lesson: { title: 'Multi', type: 'Text', unlock_certificate: 'true', course_module_id: String(m.id) } }, { encoding: 'multipart' });
    expect(multipart.status, multipart.text).toBe(201);
    expect(multipart.body).toMatchObject({ title: 'Multi', unlock_certificate: true, position: 1 });
  });

  describe('invalid objects: 422 and nothing written', () => {
    it.each([
      ['no title', { type: 'Video' }, 'title', 'blank'],
      ['a blank title', { title: '  ', type: 'Video' }, 'title', 'blank'],
      ['no type', { title: 'x' }, 'type', 'blank'],
      ['a negative min_grade', { title: 'x', type: 'Video', min_grade: -1 }, 'min_grade', 'greater_than_or_equal_to'],
      ['a negative release_after', { title: 'x', type: 'Video', release_after: -2 }, 'release_after', 'greater_than_or_equal_to'],
      ['a negative position', { title: 'x', type: 'Video', position: -1 }, 'position', 'greater_than_or_equal_to'],
      ['available null', { title: 'x', type: 'Video', available: null }, 'available', 'blank'],
      ['a module that does not exist', { title: 'x', type: 'Video', course_module_id: 999999 }, 'course_module_id', 'not_found'],
      ['a media that does not exist', { title: 'x', type: 'Video', media_id: 999999 }, 'media_id', 'not_found'],
    ])('given %s, then 422 on the field', async (_n, lesson, field, code) => {
      expectFieldError(await expectNoWrite(f, () => school.admin.post('/lessons', { lesson })), 422, field, code);
    });

    it("given another school's module and media, then 422 on both", async () => {
      const foreignModule = await module(other.admin);
      const foreignMedia = await f.mediaItem(other);
      const res = await expectNoWrite(f, () =>
        school.admin.post('/lessons', { lesson: { title: 'x', type: 'Video', course_module_id: foreignModule.id, media_id: foreignMedia.id } }),
      );
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ course_module_id: [{ error: 'not_found' }], media_id: [{ error: 'not_found' }] });
    });
  });

  it.each([
    ['the resource key is missing', { title: 'x', type: 'Video' }],
    ['the resource is empty', { lesson: {} }],
    ['min_grade is "high"', { lesson: { title: 'x', type: 'Video', min_grade: 'high' } }],
    ['release_at is not a date', { lesson: { title: 'x', type: 'Video', release_at: 'soon' } }],
    ['available is "maybe"', { lesson: { title: 'x', type: 'Video', available: 'maybe' } }],
    ['position is 1.5', { lesson: { title: 'x', type: 'Video', position: 1.5 } }],
  ])('given %s, then 400 and nothing written', async (_n, body) => {
    expectErrorBody(await expectNoWrite(f, () => school.admin.post('/lessons', body)), 400);
  });

  it('given no credential, a student, or a platform credential without X-School-Id, then 401 / 403 / 400', async () => {
    const body = { lesson: { title: 'x', type: 'Video' } };
    expectErrorBody(await expectNoWrite(f, () => service.anonymous.post('/lessons', body)), 401);
    expectErrorBody(await expectNoWrite(f, async () => (await f.studentClient(school)).post('/lessons', body)), 403);
    expectErrorBody(await expectNoWrite(f, () => service.platform.post('/lessons', body)), 400);
  });
});

describe('GET /lessons/ and /lessons/:id', () => {
  it("lists the school's lessons in id order (with or without the trailing slash), and a module's by position", async () => {
    const fresh = await service.school('Lesson Listing');
    const m = await api(fresh.admin).module((await api(fresh.admin).course()).id);
    const a = await api(fresh.admin).lesson({ course_module_id: m.id, position: 5 });
    const b = await api(fresh.admin).lesson({ course_module_id: m.id, position: 1 });
    const draft = await api(fresh.admin).lesson();
    await api(other.admin).lesson();
    expect(ids(await fresh.admin.get('/lessons/'))).toEqual([a.id, b.id, draft.id]);
    expect(ids(await fresh.admin.get('/lessons'))).toEqual([a.id, b.id, draft.id]);
    expect(ids(await fresh.admin.get(`/lessons/?course_module_id=${m.id}`))).toEqual([b.id, a.id]);
    const page = await fresh.admin.get('/lessons/?page=1&per_page=2');
    expect(ids(page)).toEqual([a.id, b.id]);
    expect(page.headers['x-total-count']).toBe('3');
    expectNotFound(await school.admin.get(`/lessons/?course_module_id=${m.id}`));
  });

  it("shows a lesson; another school's or none is a 404", async () => {
    const lesson = await make.lesson({ title: 'Shown' });
    expect((await school.admin.get(`/lessons/${lesson.id}`)).body).toMatchObject({ id: lesson.id, title: 'Shown' });
    expect((await school.admin.get(`/v1/lessons/${lesson.id}.json`)).body.id).toBe(lesson.id);
    const foreign = await api(other.admin).lesson();
    expectNotFound(await school.admin.get(`/lessons/${foreign.id}`));
    expectNotFound(await school.admin.get('/lessons/abc'));
  });

  it('given a student outside an enrollment, then 403: students read lessons through their enrollments', async () => {
    const lesson = await make.lesson();
    const student = await f.studentClient(school);
    expectErrorBody(await student.get('/lessons/'), 403);
    expectErrorBody(await student.get(`/lessons/${lesson.id}`), 403);
  });

  it('given no credential, then 401', async () => {
    expectErrorBody(await service.anonymous.get('/lessons/'), 401);
    expectErrorBody(await service.anonymous.get(`/lessons/${(await make.lesson()).id}`), 401);
  });
});

describe('PUT/PATCH /lesson/:id (and /lessons/:id)', () => {
  it.each(['/lesson/:id', '/lessons/:id'])('updates through %s: 200 with a Location of the show path', async (path) => {
    const lesson = await make.lesson({ title: 'Old', min_grade: 3 });
    const url = path.replace(':id', String(lesson.id));
    const res = await school.admin.put(url, { lesson: { title: 'New', description: 'Changed', release_at: null } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/lessons/${lesson.id}`);
    expect(res.body).toMatchObject({ id: lesson.id, title: 'New', description: 'Changed', min_grade: 3, type: 'Video' });
    const patched = await school.admin.patch(url, { lesson: { available: 'false' } }, { encoding: 'form' });
    expect(patched.body).toMatchObject({ title: 'New', available: false });
    expect(await f.lessonRow(lesson.id)).toMatchObject({ title: 'New', available: false, minGrade: 3 });
  });

  it('moves a lesson to the end of another module, or to a given position; null detaches it; media can be cleared', async () => {
    const [m1, m2] = [await module(), await module()];
    const picture = await f.mediaItem(school);
    const lesson = await make.lesson({ course_module_id: m1.id, media_id: picture.id });
    await make.lesson({ course_module_id: m2.id });
    await make.lesson({ course_module_id: m2.id });

    const moved = await school.admin.patch(`/lesson/${lesson.id}`, { lesson: { course_module_id: m2.id } });
    expect(moved.body).toMatchObject({ course_module_id: m2.id, position: 2 });
    const placed = await school.admin.patch(`/lesson/${lesson.id}`, { lesson: { position: 0 } });
    expect(placed.body).toMatchObject({ course_module_id: m2.id, position: 0 });
    const movedTo = await school.admin.patch(`/lesson/${lesson.id}`, { lesson: { course_module_id: m1.id, position: 7 } });
    expect(movedTo.body).toMatchObject({ course_module_id: m1.id, position: 7 });
    const detached = await school.admin.patch(`/lesson/${lesson.id}`, { lesson: { course_module_id: null, media_id: null } });
    expect(detached.body).toMatchObject({ course_module_id: null, position: 0, media_id: null });
  });

  it.each([
    ['a blank title', { title: '' }, 'title', 422],
    ['a cleared type', { type: null }, 'type', 422],
    ['a negative min_grade', { min_grade: -5 }, 'min_grade', 422],
    ['a foreign module', { course_module_id: 'FOREIGN' }, 'course_module_id', 422],
    ['unlock_certificate null', { unlock_certificate: null }, 'unlock_certificate', 422],
  ])('given %s, then refused and nothing written', async (_n, fields, field, status) => {
    const foreign = await module(other.admin);
    const lesson = await make.lesson();
    const body = JSON.parse(JSON.stringify(fields).replace('"FOREIGN"', String(foreign.id)));
    expectFieldError(await expectNoWrite(f, () => school.admin.put(`/lesson/${lesson.id}`, { lesson: body })), status, field);
  });

  it('given malformed values, then 400', async () => {
    const lesson = await make.lesson();
    expectErrorBody(await expectNoWrite(f, () => school.admin.put(`/lesson/${lesson.id}`, { lesson: { release_after: 'two' } })), 400);
    expectErrorBody(await expectNoWrite(f, () => school.admin.put(`/lesson/${lesson.id}`, { title: 'x' })), 400);
  });

  it("given another school's lesson, then 404 and it is untouched; 401; 403", async () => {
    const foreign = await api(other.admin).lesson({ title: 'Theirs' });
    expectNotFound(await school.admin.put(`/lesson/${foreign.id}`, { lesson: { title: 'Mine' } }));
    expect((await f.lessonRow(foreign.id)).title).toBe('Theirs');
    const own = await make.lesson();
    expectErrorBody(await service.anonymous.patch(`/lesson/${own.id}`, { lesson: { title: 'x' } }), 401);
    expectErrorBody(await (await f.studentClient(school)).patch(`/lesson/${own.id}`, { lesson: { title: 'x' } }), 403);
  });
});

describe('DELETE /lesson/:id (and /lessons/:id)', () => {
  it.each(['/lesson/:id', '/lessons/:id'])('deletes through %s: 204', async (path) => {
    const lesson = await make.lesson();
    const res = await school.admin.delete(path.replace(':id', String(lesson.id)));
    expect(res.status).toBe(204);
    expect(await f.lessonRow(lesson.id)).toBeUndefined();
    expectNotFound(await school.admin.delete(path.replace(':id', String(lesson.id))));
  });

  it("given another school's lesson, then 404 and it stays; 401; 403", async () => {
    const foreign = await api(other.admin).lesson();
    expectNotFound(await school.admin.delete(`/lesson/${foreign.id}`));
    expect(await f.lessonRow(foreign.id)).toBeDefined();
    const own = await make.lesson();
    expectErrorBody(await service.anonymous.delete(`/lesson/${own.id}`), 401);
    expectErrorBody(await (await f.studentClient(school)).delete(`/lesson/${own.id}`), 403);
    expect(await f.lessonRow(own.id)).toBeDefined();
  });
});

describe('lessons of a school product', () => {
  it("lists the lessons of the product's courses (directly and through paths) in the product's order; drafts and other lessons stay out", async () => {
    const [c1, c2, c3] = [await make.course(), await make.course(), await make.course()];
    const [m1a, m1b] = [await make.module(c1.id), await make.module(c1.id)];
    const m2 = await make.module(c2.id);
    const m3 = await make.module(c3.id);
    const l1b = await make.lesson({ course_module_id: m1b.id });
    const l1a2 = await make.lesson({ course_module_id: m1a.id, position: 2 });
    const l1a1 = await make.lesson({ course_module_id: m1a.id, position: 1 });
    const l2 = await make.lesson({ course_module_id: m2.id });
    await make.lesson({ course_module_id: m3.id }); // a course outside the product
    await make.lesson(); // a draft
    const product = await f.product(school);
    await f.offer(product.id, [c1.id]);
    await f.pathOf(school, [c2.id], product.id);

    const list = await school.admin.get(`/school_products/${product.id}/lessons/`);
    expect(ids(list)).toEqual([l1a1.id, l1a2.id, l1b.id, l2.id]);
    expect(list.headers['x-total-count']).toBe('4');
    expect(ids(await school.admin.get(`/school_products/${product.id}/lessons?page=2&per_page=3`))).toEqual([l2.id]);
    expect((await school.admin.get(`/school_products/${product.id}/lessons/${l2.id}`)).body.id).toBe(l2.id);
  });

  it('given a lesson outside the product, or a draft, then the scoped show is a 404', async () => {
    const course = await make.course();
    const m = await make.module(course.id);
    const inside = await make.lesson({ course_module_id: m.id });
    const outsideCourse = await make.course();
    const outside = await make.lesson({ course_module_id: (await make.module(outsideCourse.id)).id });
    const draft = await make.lesson();
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    expect((await school.admin.get(`/school_products/${product.id}/lessons/${inside.id}`)).status).toBe(200);
    expectNotFound(await school.admin.get(`/school_products/${product.id}/lessons/${outside.id}`));
    expectNotFound(await school.admin.get(`/school_products/${product.id}/lessons/${draft.id}`));
  });

  it("given another school's product, then 404; a student reading a product's lessons, 403", async () => {
    const foreign = await f.product(other);
    expectNotFound(await school.admin.get(`/school_products/${foreign.id}/lessons/`));
    const product = await f.product(school);
    expectErrorBody(await (await f.studentClient(school)).get(`/school_products/${product.id}/lessons/`), 403);
  });
});
