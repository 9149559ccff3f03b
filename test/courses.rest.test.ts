import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { api, expectNoWrite, type Fixtures, ids, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';

// REST face of Course: POST /courses, GET /courses and /courses/:id. (Update, delete and the reads
// under a product or an enrollment: courses.rest-update.test.ts; the duplicate action: courses.duplicate.test.ts.)

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

describe('POST /courses', () => {
  it('given every field as JSON, when an admin creates, then 201 with the course, a Location, the rows and a course.created event', async () => {
    const [m1, m2, m3] = await modules(3);
    const res = await school.admin.post('/courses', {
      course: {
        name: '  Algebra  ',
        description: 'Linear algebra',
        image_url: 'https://cdn.example.com/algebra.png',
        duration: 40,
        code: ' ALG-1 ',
        ready: true,
        course_modules_ids: [m3, m1, m2],
      },
    });

    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/courses/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      school_id: school.id,
      name: 'Algebra',
      description: 'Linear algebra',
      image_url: 'https://cdn.example.com/algebra.png',
      duration: 40,
      code: 'ALG-1',
      ready: true,
      course_modules_ids: [m3, m1, m2],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await f.courseRow(res.body.id)).toMatchObject({ schoolId: school.id, name: 'Algebra', duration: 40, code: 'ALG-1', ready: true });
    expect(await f.moduleIdsOf(res.body.id)).toEqual([m3, m1, m2]);
    const events = await service.db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.name, 'course.created'), eq(domainEvents.subjectId, res.body.id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ schoolId: school.id, subjectType: 'Course', payload: { name: 'Algebra', code: 'ALG-1' } });
  });

  it('given only a name, then the defaults come back', async () => {
    const body = await make.course({ name: 'Bare' });
    expect(body).toMatchObject({ name: 'Bare', description: null, image_url: null, duration: null, code: null, ready: false, course_modules_ids: [] });
  });

  it('given a form-urlencoded body with bracket names, then strings become typed values and the module order is kept', async () => {
    const [m1, m2] = await modules(2);
    const raw = ['course[name]=Form+course', 'course[duration]=12', 'course[ready]=1', `course[course_modules_ids][]=${m2}`, `course[course_modules_ids][]=${m1}`].join('&');
    const res = await school.admin.post('/courses', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Form course', duration: 12, ready: true, course_modules_ids: [m2, m1] });
    expect(await f.moduleIdsOf(res.body.id)).toEqual([m2, m1]);
  });

  it('given a multipart body, then 201', async () => {
    const [m1] = await modules(1);
    const res = await school.admin.post('/courses', { course: { name: 'Multipart', duration: '3', course_modules_ids: [m1] } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Multipart', duration: 3, course_modules_ids: [m1] });
  });

  it('given fields that are not writable, then they are ignored', async () => {
    const res = await school.admin.post('/courses', {
      course: { id: 987654, school_id: other.id, created_at: '2000-01-01T00:00:00Z', modules: [{ id: 1 }], name: 'Strong params' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.id).not.toBe(987654);
    expect(res.body.school_id).toBe(school.id);
    expect(new Date(res.body.created_at).getUTCFullYear()).not.toBe(2000);
  });

  it('given repeated module ids, then each counts once', async () => {
    const [m1, m2] = await modules(2);
    const body = await make.course({ course_modules_ids: [m1, m2, m1] });
    expect(body.course_modules_ids).toEqual([m1, m2]);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it.each([
      ['no name', { description: 'x' }, 'name', 'blank'],
      ['a blank name', { name: '   ' }, 'name', 'blank'],
      ['a negative duration', { name: 'x', duration: -1 }, 'duration', 'greater_than_or_equal_to'],
      ['ready null', { name: 'x', ready: null }, 'ready', 'blank'],
      ['a module that does not exist', { name: 'x', course_modules_ids: [999999] }, 'course_modules_ids', 'not_found'],
    ])('given %s, then 422 on the field', async (_n, course, field, code) => {
      const res = await expectNoWrite(f, () => school.admin.post('/courses', { course }));
      expectFieldError(res, 422, field, code);
    });

    it('given the Rails-style body of a missing name', async () => {
      const res = await school.admin.post('/courses', { course: { description: 'x' } });
      expect(res.body).toEqual({ errors: { name: ["can't be blank"] }, details: { name: [{ error: 'blank' }] } });
    });

    it("given a module of another school among its own, then 422 naming it and no link at all", async () => {
      const [own] = await modules(1);
      const [foreign] = await modules(1, other.admin);
      const res = await expectNoWrite(f, () => school.admin.post('/courses', { course: { name: 'x', course_modules_ids: [own, foreign] } }));
      expectFieldError(res, 422, 'course_modules_ids', 'not_found');
      expect(res.body.errors.course_modules_ids[0]).toContain(String(foreign));
    });
  });

  describe('code', () => {
    it('given a code taken in the school, then 409 taken and nothing written', async () => {
      await make.course({ code: 'TAKEN-1' });
      const res = await expectNoWrite(f, () => school.admin.post('/courses', { course: { name: 'Dup', code: 'TAKEN-1' } }));
      expectFieldError(res, 409, 'code', 'taken');
    });

    it('given a code taken in another school only, then 201', async () => {
      await api(other.admin).course({ code: 'SHARED-1' });
      expect((await make.course({ code: 'SHARED-1' })).code).toBe('SHARED-1');
    });

    it('given blank codes twice, then both are stored without a code', async () => {
      expect((await make.course({ code: '' })).code).toBeNull();
      expect((await make.course({ code: '  ' })).code).toBeNull();
    });
  });

  describe('malformed requests: 400 and nothing written', () => {
    it('given invalid JSON, then 400', async () => {
      const res = await expectNoWrite(f, () => school.admin.post('/courses', undefined, { raw: '{"course": {', headers: { 'content-type': 'application/json' } }));
      expectErrorBody(res, 400);
    });

    it.each([
      ['the resource key is missing', { name: 'x' }, 'course'],
      ['the resource is empty', { course: {} }, 'course'],
      ['the resource is a string', { course: 'x' }, 'course'],
      ['duration is "long"', { course: { name: 'x', duration: 'long' } }, 'duration'],
      ['duration is 1.5', { course: { name: 'x', duration: 1.5 } }, 'duration'],
      ['ready is "maybe"', { course: { name: 'x', ready: 'maybe' } }, 'ready'],
      ['name is a hash', { course: { name: { a: 1 } } }, 'name'],
      ['course_modules_ids holds hashes', { course: { name: 'x', course_modules_ids: [{ id: 1 }] } }, undefined],
    ])('given %s, then 400', async (_n, body, field) => {
      const res = await expectNoWrite(f, () => school.admin.post('/courses', body));
      expectErrorBody(res, 400);
      if (field) expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('given a form body with duration=abc, then 400 on duration', async () => {
      const res = await expectNoWrite(f, () => school.admin.post('/courses', { course: { name: 'x', duration: 'abc' } }, { encoding: 'form' }));
      expectFieldError(res, 400, 'duration');
    });
  });

  describe('credentials', () => {
    it('given no credential, then 401 and nothing written', async () => {
      expectErrorBody(await expectNoWrite(f, () => service.anonymous.post('/courses', { course: { name: 'Anon' } })), 401);
    });

    it('given a student credential, then 403 and nothing written', async () => {
      const student = await f.studentClient(school);
      const res = await expectNoWrite(f, () => student.post('/courses', { course: { name: 'By a student' } }));
      expectErrorBody(res, 403);
    });

    it('given a collaborator credential, then 201 in its school', async () => {
      const collaborator = await service.token('collaborator', school.id, (await f.person(school, 'Collaborator')).id);
      expect((await api(collaborator).course()).school_id).toBe(school.id);
    });

    it('given a platform credential without X-School-Id, then 400; with it, the course lands in that school', async () => {
      expectErrorBody(await expectNoWrite(f, () => service.platform.post('/courses', { course: { name: 'P' } })), 400);
      const res = await service.platform.forSchool(other.id).post('/courses', { course: { name: 'Platform' } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.school_id).toBe(other.id);
    });
  });
});

describe('GET /courses and /courses/:id', () => {
  it("lists the school's courses only, in id order, and pages with page/per_page", async () => {
    const fresh = await service.school('Listing School');
    const created = [];
    for (let i = 0; i < 3; i++) created.push((await api(fresh.admin).course({ name: `L${i}` })).id);
    await api(other.admin).course();

    expect(ids(await fresh.admin.get('/courses'))).toEqual(created);
    const page = await fresh.admin.get('/courses?page=2&per_page=2');
    expect(ids(page)).toEqual([created[2]]);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers['x-page']).toBe('2');
    expect(String(page.headers.link)).toContain('rel="prev"');
    expectErrorBody(await fresh.admin.get('/courses?page=1&per_page=101'), 400);
  });

  it('shows a course with its module ids, under every path variant', async () => {
    const course = await make.course({ name: 'Shown' });
    const m = await make.module(course.id);
    for (const path of [`/courses/${course.id}`, `/courses/${course.id}.json`, `/v1/courses/${course.id}`, `/api/courses/${course.id}/`]) {
      const res = await school.admin.get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: course.id, name: 'Shown', course_modules_ids: [m.id] });
    }
  });

  it('lets a student read the catalogue', async () => {
    const course = await make.course({ name: 'Catalogue' });
    const student = await f.studentClient(school);
    expect((await student.get(`/courses/${course.id}`)).body.name).toBe('Catalogue');
    expect(ids(await student.get('/courses'))).toContain(course.id);
  });

  it("given another school's course or an id that names none, then 404", async () => {
    const foreign = await api(other.admin).course();
    expectNotFound(await school.admin.get(`/courses/${foreign.id}`));
    for (const id of ['abc', '0', '999999', '99999999999']) expectNotFound(await school.admin.get(`/courses/${id}`));
    expect(ids(await school.admin.get('/courses'))).not.toContain(foreign.id);
  });

  it('given a method the path does not answer, then 405 naming the allowed ones', async () => {
    const res = await school.admin.post(`/courses/${(await make.course()).id}`, { course: { name: 'x' } });
    expectErrorBody(res, 405);
    expect(String(res.headers.allow)).toContain('PUT');
  });

  it('given no credential, then 401', async () => {
    expectErrorBody(await service.anonymous.get('/courses'), 401);
    expectErrorBody(await service.anonymous.get(`/courses/${(await make.course()).id}`), 401);
  });
});
