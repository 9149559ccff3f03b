import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { courseClasses } from '../src/modules/course-classes/course-class.table.js';
import { courses } from '../src/modules/courses/course.table.js';
import { users } from '../src/modules/users/user.table.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { type Reply, type Service, type TestSchool } from './support/service.js';
import { expectFieldError } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of CourseClass: lists (all, per course), create under a course, show / update / destroy
// by id and by code (`?find_by=code`), the one-main-class-per-course rule and the date rule.

let service: Service;
let school: TestSchool;
let other: TestSchool;

twoSchools('Classes School', 'Classes Other', (w) => ({ service, school, other } = w));

// ---------------------------------------------------------------------------------------------
// Fixtures: courses have no API yet here, so they are rows inserted through drizzle.

let serial = 0;
async function course(s: TestSchool): Promise<number> {
  const [row] = await service.db.insert(courses).values({ schoolId: s.id, name: `Course ${++serial}` }).returning();
  return row.id;
}
async function studentClient(s: TestSchool) {
  const n = ++serial;
  const [row] = await service.db
    .insert(users)
    .values({ schoolId: s.id, type: 'Student', fullName: `Student ${n}`, email: `class-student${n}@example.com` })
    .returning();
  return service.token('student', s.id, row.id);
}
async function createClass(courseId: number, fields: Record<string, unknown> = {}, s: TestSchool = school): Promise<any> {
  const res = await s.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: `C-${++serial}`, ...fields } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// Database and reply helpers.

async function classRow(id: number) {
  const [row] = await service.db.select().from(courseClasses).where(eq(courseClasses.id, id));
  return row;
}
async function mainsOf(courseId: number) {
  const rows = await service.db
    .select({ id: courseClasses.id })
    .from(courseClasses)
    .where(and(eq(courseClasses.courseId, courseId), eq(courseClasses.main, true)));
  return rows.map((r) => r.id);
}
const snapshot = fingerprint(() => service, { courseClasses });
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);
const ids = (res: Reply) => (res.body as { id: number }[]).map((c) => c.id);

// =============================================================================================

describe('POST /courses/:id/course_classes', () => {
  it('given every field as JSON, then 201 with the class and a Location', async () => {
    const courseId = await course(school);
    const res = await school.admin.post(`/courses/${courseId}/course_classes`, {
      course_class: { start_at: '2026-02-01T09:00:00Z', end_at: '2026-03-01T18:00:00Z', code: ' T1-2026 ', main: true },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/course_classes/${res.body.id}`);
    expect(res.body).toMatchObject({
      school_id: school.id,
      course_id: courseId,
      code: 'T1-2026',
      start_at: '2026-02-01T09:00:00.000Z',
      end_at: '2026-03-01T18:00:00.000Z',
      main: true,
    });
    expect(await classRow(res.body.id)).toMatchObject({ schoolId: school.id, courseId, code: 'T1-2026', main: true, startAt: new Date('2026-02-01T09:00:00Z') });
  });

  it('given form-urlencoded and multipart bodies, then 201 (main from a form string)', async () => {
    const courseId = await course(school);
    const form = await school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'FORM-1', main: 'true', start_at: '2026-05-01T00:00:00Z' } }, { encoding: 'form' });
    expect(form.status, form.text).toBe(201);
    expect(form.body).toMatchObject({ code: 'FORM-1', main: true, start_at: '2026-05-01T00:00:00.000Z' });
    const multi = await school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'MULTI-1', main: '0' } }, { encoding: 'multipart' });
    expect(multi.status, multi.text).toBe(201);
    expect(multi.body).toMatchObject({ code: 'MULTI-1', main: false });
  });

  it('given only a code, then the class is not main and has no dates; repeated blank codes mean none', async () => {
    const courseId = await course(school);
    expect(await createClass(courseId)).toMatchObject({ main: false, start_at: null, end_at: null });
    expect((await createClass(courseId, { code: '' })).code).toBeNull();
    expect((await createClass(courseId, { code: '  ' })).code).toBeNull();
  });

  it('given main: true, then the previous main class of the course is unset; other courses keep theirs', async () => {
    const [courseId, otherCourse] = [await course(school), await course(school)];
    const first = await createClass(courseId, { main: true });
    const elsewhere = await createClass(otherCourse, { main: true });
    expect(await mainsOf(courseId)).toEqual([first.id]);
    const second = await createClass(courseId, { main: true });
    expect(await mainsOf(courseId)).toEqual([second.id]);
    expect((await school.admin.get(`/course_classes/${first.id}`)).body.main).toBe(false);
    expect(await mainsOf(otherCourse)).toEqual([elsewhere.id]);
    // A class that is not main leaves the main one alone.
    await createClass(courseId, { main: false });
    expect(await mainsOf(courseId)).toEqual([second.id]);
  });

  it('given concurrent creates that each ask to be main, then all succeed and exactly one class is main', async () => {
    const courseId = await course(school);
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: `RACE-${courseId}-${i}`, main: true } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(await mainsOf(courseId)).toHaveLength(1);
  });

  it('given end_at not after start_at, then 422 on end_at and nothing written', async () => {
    const courseId = await course(school);
    for (const end of ['2026-01-31T00:00:00Z', '2026-02-01T00:00:00Z']) {
      const res = await expectNoWrite(() =>
        school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { start_at: '2026-02-01T00:00:00Z', end_at: end } }),
      );
      expectFieldError(res, 422, 'end_at', 'greater_than');
    }
  });

  it('given an invalid main-class request (end before start), then the old main class is not unset', async () => {
    const courseId = await course(school);
    const main = await createClass(courseId, { main: true });
    const res = await expectNoWrite(() =>
      school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { main: true, start_at: '2026-02-01T00:00:00Z', end_at: '2026-01-01T00:00:00Z' } }),
    );
    expectFieldError(res, 422, 'end_at');
    expect(await mainsOf(courseId)).toEqual([main.id]);
  });

  it('given a code the school already uses, then 409 on code; another school may use it', async () => {
    const courseId = await course(school);
    await createClass(courseId, { code: 'DUP' });
    expectFieldError(await expectNoWrite(() => school.admin.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'DUP' } })), 409, 'code', 'taken');
    expect((await createClass(await course(other), { code: 'DUP' }, other)).code).toBe('DUP');
  });

  it("given another school's course or an unknown one, then 404 and nothing written", async () => {
    const theirs = await course(other);
    expectFieldError(await expectNoWrite(() => school.admin.post(`/courses/${theirs}/course_classes`, { course_class: { code: 'X' } })), 404, 'base', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.post('/courses/999999/course_classes', { course_class: { code: 'X' } })), 404, 'base', 'not_found');
  });

  it('given a missing or empty course_class hash, a bad date or malformed JSON, then 400 and nothing written', async () => {
    const courseId = await course(school);
    const url = `/courses/${courseId}/course_classes`;
    expectFieldError(await expectNoWrite(() => school.admin.post(url, { code: 'X' })), 400, 'course_class');
    expectFieldError(await expectNoWrite(() => school.admin.post(url, { course_class: {} })), 400, 'course_class');
    expectFieldError(await expectNoWrite(() => school.admin.post(url, { course_class: { start_at: 'next tuesday' } })), 400, 'start_at');
    expectFieldError(await expectNoWrite(() => school.admin.post(url, { course_class: { main: 'maybe' } })), 400, 'main');
    expectFieldError(await expectNoWrite(() => school.admin.post(url, undefined, { raw: '{"course_class":', headers: { 'content-type': 'application/json' } })), 400, 'base');
  });

  it('given no credential, then 401; given a student credential, then 403', async () => {
    const courseId = await course(school);
    expectFieldError(await expectNoWrite(() => service.anonymous.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'X' } })), 401, 'base');
    const student = await studentClient(school);
    expectFieldError(await expectNoWrite(() => student.post(`/courses/${courseId}/course_classes`, { course_class: { code: 'X' } })), 403, 'base');
  });
});

describe('GET /course_classes, /courses/:id/course_classes, /course_classes/:id', () => {
  it("lists the school's classes, or one course's, whole or by page", async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const a = [await createClass(c1), await createClass(c1), await createClass(c1)].map((c) => c.id);
    const b = (await createClass(c2)).id;
    const theirs = (await createClass(await course(other), {}, other)).id;

    const all = await school.admin.get('/course_classes');
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual(expect.arrayContaining([...a, b]));
    expect(ids(all)).not.toContain(theirs);

    const ofCourse = await school.admin.get(`/courses/${c1}/course_classes`);
    expect(ofCourse.status).toBe(200);
    expect(ids(ofCourse)).toEqual(a);
    expect(ofCourse.headers['x-total-count']).toBe('3');

    const page = await school.admin.get(`/courses/${c1}/course_classes?page=2&per_page=2`);
    expect(ids(page)).toEqual([a[2]]);
    expect(page.headers['x-page']).toBe('2');
  });

  it("given another school's course, then 404 for its list", async () => {
    expectFieldError(await school.admin.get(`/courses/${await course(other)}/course_classes`), 404, 'base', 'not_found');
  });

  it("shows a class by id; another school's class or an unknown id is 404; a student is 403, none 401", async () => {
    const created = await createClass(await course(school), { start_at: '2026-04-01T00:00:00Z' });
    const res = await school.admin.get(`/course_classes/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    const theirs = await createClass(await course(other), {}, other);
    expectFieldError(await school.admin.get(`/course_classes/${theirs.id}`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get('/course_classes/999999'), 404, 'base', 'not_found');
    // courseClasses are STAFF_READ: a student reaches its classes through its enrollments.
    const student = await studentClient(school);
    expectFieldError(await student.get(`/course_classes/${created.id}`), 403, 'base');
    expectFieldError(await student.get('/course_classes'), 403, 'base');
    const collaborator = await service.token('collaborator', school.id);
    expect((await collaborator.get(`/course_classes/${created.id}`)).body).toEqual(created);
    expectFieldError(await service.anonymous.get(`/course_classes/${created.id}`), 401, 'base');
  });
});

describe('GET /course_classes/:code?find_by=code', () => {
  it("shows the school's class with that code; another school's code or an unknown one is 404", async () => {
    const mine = await createClass(await course(school), { code: 'LOOKUP-1' });
    const res = await school.admin.get('/course_classes/LOOKUP-1?find_by=code');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(mine);
    expect((await school.admin.get('/v1/course_classes/LOOKUP-1.json?find_by=code')).body.id).toBe(mine.id);
    await createClass(await course(other), { code: 'ONLY-THEIRS' }, other);
    expectFieldError(await school.admin.get('/course_classes/ONLY-THEIRS?find_by=code'), 404, 'base', 'not_found');
    expectFieldError(await school.admin.get('/course_classes/NOPE?find_by=code'), 404, 'base', 'not_found');
  });

  it('reads a numeric-looking code as a code, not as an id', async () => {
    const decoy = await createClass(await course(school));
    const coded = await createClass(await course(school), { code: String(decoy.id) });
    expect((await school.admin.get(`/course_classes/${decoy.id}?find_by=code`)).body.id).toBe(coded.id);
    expect((await school.admin.get(`/course_classes/${decoy.id}`)).body.id).toBe(decoy.id);
  });
});

describe('PUT and PATCH /course_classes/:id and /course_classes/:code?find_by=code', () => {
  it('updates by id: 200 with the class and a Location', async () => {
    const created = await createClass(await course(school));
    for (const method of ['put', 'patch'] as const) {
      const res = await school.admin[method](`/course_classes/${created.id}`, { course_class: { start_at: '2026-06-01T00:00:00Z', code: `UPD-${method}` } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.location).toBe(`/course_classes/${created.id}`);
      expect(res.body).toMatchObject({ id: created.id, code: `UPD-${method}`, start_at: '2026-06-01T00:00:00.000Z' });
      expect(await classRow(created.id)).toMatchObject({ code: `UPD-${method}` });
    }
  });

  it('updates by code with PUT and PATCH: 200 with a Location naming the id; the code itself may change', async () => {
    const created = await createClass(await course(school), { code: 'BYCODE-1' });
    const put = await school.admin.put('/course_classes/BYCODE-1?find_by=code', { course_class: { end_at: '2026-09-01T00:00:00Z' } });
    expect(put.status, put.text).toBe(200);
    expect(put.headers.location).toBe(`/course_classes/${created.id}`);
    expect(put.body).toMatchObject({ id: created.id, end_at: '2026-09-01T00:00:00.000Z' });
    const patch = await school.admin.patch('/course_classes/BYCODE-1?find_by=code', { course_class: { code: 'BYCODE-2' } }, { encoding: 'form' });
    expect(patch.status, patch.text).toBe(200);
    expect(patch.body).toMatchObject({ id: created.id, code: 'BYCODE-2' });
    expectFieldError(await school.admin.patch('/course_classes/BYCODE-1?find_by=code', { course_class: { code: 'x' } }), 404, 'base', 'not_found');
  });

  it('ignores fields that are not writable (id, course_id, school_id, timestamps), as a whole fetched object sent back', async () => {
    const [courseId, otherCourse] = [await course(school), await course(school)];
    const created = await createClass(courseId);
    const res = await school.admin.put(`/course_classes/${created.id}`, {
      course_class: { ...created, id: 1, course_id: otherCourse, school_id: other.id, created_at: '2000-01-01T00:00:00Z', code: 'SENT-BACK' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, course_id: courseId, school_id: school.id, created_at: created.created_at, code: 'SENT-BACK' });
    expect(await classRow(created.id)).toMatchObject({ courseId, schoolId: school.id });
  });

  it('checks the dates as they will be: a new start after the kept end is 422, and nothing written', async () => {
    const created = await createClass(await course(school), { start_at: '2026-02-01T00:00:00Z', end_at: '2026-03-01T00:00:00Z' });
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/course_classes/${created.id}`, { course_class: { start_at: '2026-04-01T00:00:00Z' } })), 422, 'end_at', 'greater_than');
    expectFieldError(await expectNoWrite(() => school.admin.put('/course_classes/' + created.code + '?find_by=code', { course_class: { end_at: '2026-01-01T00:00:00Z' } })), 422, 'end_at');
    // Clearing one of them lifts the rule.
    const cleared = await school.admin.patch(`/course_classes/${created.id}`, { course_class: { end_at: null, start_at: '2026-04-01T00:00:00Z' } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ start_at: '2026-04-01T00:00:00.000Z', end_at: null });
  });

  it('accepts main on update: true moves the main class (by id and by code), false leaves the course without one', async () => {
    const courseId = await course(school);
    const a = await createClass(courseId, { main: true });
    const b = await createClass(courseId);
    const c = await createClass(courseId);
    expect((await school.admin.patch(`/course_classes/${b.id}`, { course_class: { main: true } })).body.main).toBe(true);
    expect(await mainsOf(courseId)).toEqual([b.id]);
    expect((await school.admin.put(`/course_classes/${c.code}?find_by=code`, { course_class: { main: 'true' } }, { encoding: 'form' })).body.main).toBe(true);
    expect(await mainsOf(courseId)).toEqual([c.id]);
    // Setting main again on the main class keeps it.
    expect((await school.admin.patch(`/course_classes/${c.id}`, { course_class: { main: true } })).body.main).toBe(true);
    expect(await mainsOf(courseId)).toEqual([c.id]);
    expect((await school.admin.patch(`/course_classes/${c.id}`, { course_class: { main: false } })).body.main).toBe(false);
    expect(await mainsOf(courseId)).toEqual([]);
    expect((await classRow(a.id)).main).toBe(false);
  });

  it('given a code another class of the school has, then 409 and nothing written', async () => {
    const courseId = await course(school);
    await createClass(courseId, { code: 'TAKEN-1' });
    const mine = await createClass(courseId);
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/course_classes/${mine.id}`, { course_class: { code: 'TAKEN-1' } })), 409, 'code', 'taken');
  });

  it('given an empty hash or a bad date, then 400', async () => {
    const created = await createClass(await course(school));
    expectFieldError(await expectNoWrite(() => school.admin.put(`/course_classes/${created.id}`, { course_class: {} })), 400, 'course_class');
    expectFieldError(await expectNoWrite(() => school.admin.put(`/course_classes/${created.code}?find_by=code`, {})), 400, 'course_class');
    expectFieldError(await expectNoWrite(() => school.admin.patch(`/course_classes/${created.id}`, { course_class: { end_at: 'soon' } })), 400, 'end_at');
  });

  it("given another school's class (by id or by code), then 404 and it is untouched; a student is 403", async () => {
    const theirs = await createClass(await course(other), { code: 'THEIRS-UPD' }, other);
    expectFieldError(await expectNoWrite(() => school.admin.put(`/course_classes/${theirs.id}`, { course_class: { code: 'mine' } })), 404, 'base', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.patch('/course_classes/THEIRS-UPD?find_by=code', { course_class: { main: true } })), 404, 'base', 'not_found');
    const mine = await createClass(await course(school));
    const student = await studentClient(school);
    expectFieldError(await expectNoWrite(() => student.patch(`/course_classes/${mine.id}`, { course_class: { code: 'x' } })), 403, 'base');
    expectFieldError(await expectNoWrite(() => student.patch(`/course_classes/${mine.code}?find_by=code`, { course_class: { code: 'x' } })), 403, 'base');
  });
});

describe('DELETE /course_classes/:id and /course_classes/:code?find_by=code', () => {
  it('deletes by id and by code: 204, then 404', async () => {
    const courseId = await course(school);
    const [a, b] = [await createClass(courseId), await createClass(courseId, { code: 'DEL-CODE' })];
    const byId = await school.admin.delete(`/course_classes/${a.id}`);
    expect(byId.status, byId.text).toBe(204);
    expect(await classRow(a.id)).toBeUndefined();
    const byCode = await school.admin.delete('/course_classes/DEL-CODE?find_by=code');
    expect(byCode.status, byCode.text).toBe(204);
    expect(await classRow(b.id)).toBeUndefined();
    expectFieldError(await school.admin.delete(`/course_classes/${a.id}`), 404, 'base', 'not_found');
    expectFieldError(await school.admin.delete('/course_classes/DEL-CODE?find_by=code'), 404, 'base', 'not_found');
  });

  it("given another school's class (by id or by code), then 404 and it stays; a student is 403", async () => {
    const theirs = await createClass(await course(other), { code: 'THEIRS-DEL' }, other);
    expectFieldError(await expectNoWrite(() => school.admin.delete(`/course_classes/${theirs.id}`)), 404, 'base', 'not_found');
    expectFieldError(await expectNoWrite(() => school.admin.delete('/course_classes/THEIRS-DEL?find_by=code')), 404, 'base', 'not_found');
    const mine = await createClass(await course(school));
    const student = await studentClient(school);
    expectFieldError(await expectNoWrite(() => student.delete(`/course_classes/${mine.id}`)), 403, 'base');
    expectFieldError(await expectNoWrite(() => service.anonymous.delete(`/course_classes/${mine.code}?find_by=code`)), 401, 'base');
  });
});

describe('a platform credential', () => {
  it('needs X-School-Id to look up by code (codes are unique within a school only)', async () => {
    const mine = await createClass(await course(school), { code: 'PLATFORM-CODE' });
    expectFieldError(await service.platform.get('/course_classes/PLATFORM-CODE?find_by=code'), 400, 'base');
    expect((await service.platform.forSchool(school.id).get('/course_classes/PLATFORM-CODE?find_by=code')).body.id).toBe(mine.id);
    expectFieldError(await service.platform.forSchool(other.id).get('/course_classes/PLATFORM-CODE?find_by=code'), 404, 'base', 'not_found');
  });
});
