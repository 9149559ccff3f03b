import { and, asc, eq, inArray } from 'drizzle-orm';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseClasses } from '../src/modules/course-classes/course-class.table.js';
import { courses } from '../src/modules/courses/course.table.js';
import { enrollmentCourseClasses, enrollments } from '../src/modules/enrollments/enrollment.table.js';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { schoolProductCourses } from '../src/modules/school-products/school-product-content.table.js';
import { countOf, expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { type Client, type Encoding, type Reply, type Service, startService, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';
import { dataOf, graphql } from './support/graphql.js';

/**
 * REST face of the Enrollments family (spec routes `enrollments.*`): the four lists, show by id and
 * by code, the student-status action, create, the batch, update by id and by code.
 * Conventions: /work/shared/DESIGN.md. The service clock stands at 2026-01-15T12:00:00Z.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
const NOW = '2026-01-15T12:00:00.000Z';
const LATER = '2026-12-31T00:00:00.000Z';

let service: Service;
let school: TestSchool;
let other: TestSchool;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Enrolling School');
  other = await service.school('Other School');
});
afterAll(() => service?.stop());

// ---------------------------------------------------------------------------------------------
// Fixtures. Students and registrations through the API (GraphQL: they have no REST route), school
// products through REST; courses, their product links and course classes (no API yet) with drizzle.

let serial = 0;


interface Person {
  studentId: number;
  registrationId: number;
  /** A student credential bound to this student. */
  client: Client;
}

async function student(s: TestSchool): Promise<Person> {
  const n = ++serial;
  const created = await dataOf(s.admin, graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { code } } }'), {
    input: { fullName: `Student ${n}`, email: `student${n}@example.com` },
  });
  const studentId = Number(created.createStudent.student.id);
  const registered = await dataOf(
    s.admin,
    graphql('mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id studentId } errors { code } } }'),
    { input: { studentId } },
  );
  expect(Number(registered.createRegistration.registration.studentId)).toBe(studentId);
  return { studentId, registrationId: Number(registered.createRegistration.registration.id), client: await service.token('student', s.id, studentId) };
}

async function product(s: TestSchool): Promise<number> {
  const res = await s.admin.post('/school_products', { school_product: { title: `Product ${++serial}` } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function course(s: TestSchool, productId?: number): Promise<number> {
  const [row] = await service.db.insert(courses).values({ schoolId: s.id, name: `Course ${++serial}` }).returning();
  if (productId) await service.db.insert(schoolProductCourses).values({ schoolProductId: productId, courseId: row.id });
  return row.id;
}

async function courseClass(s: TestSchool, courseId: number): Promise<number> {
  const [row] = await service.db.insert(courseClasses).values({ schoolId: s.id, courseId, code: `class-${++serial}` }).returning();
  return row.id;
}

/** A product with a course and two classes of it, plus a class of a course the product does not have. */
async function catalogue(s: TestSchool) {
  const productId = await product(s);
  const courseId = await course(s, productId);
  const classIds = [await courseClass(s, courseId), await courseClass(s, courseId)];
  const strayClassId = await courseClass(s, await course(s));
  return { productId, courseId, classIds, strayClassId };
}

function body(p: Person, productId: number, fields: Record<string, unknown> = {}) {
  return { registration_id: p.registrationId, school_product_id: productId, max_attendance_type: 'indeterminate', available_until: LATER, ...fields };
}

async function enroll(p: Person, productId: number, fields: Record<string, unknown> = {}, client: Client = school.admin) {
  const res = await client.post('/enrollments', { enrollment: body(p, productId, fields) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// Database and reply helpers.

async function row(id: number) {
  const [r] = await service.db.select().from(enrollments).where(eq(enrollments.id, id));
  return r;
}
async function classesOf(id: number) {
  const links = await service.db
    .select({ id: enrollmentCourseClasses.courseClassId })
    .from(enrollmentCourseClasses)
    .where(eq(enrollmentCourseClasses.enrollmentId, id));
  return links.map((l) => l.id).sort((a, b) => a - b);
}
async function eventsOf(id: number) {
  const rows = await service.db
    .select()
    .from(domainEvents)
    .where(and(eq(domainEvents.subjectType, 'Enrollment'), eq(domainEvents.subjectId, id)))
    .orderBy(asc(domainEvents.id));
  return rows.map((e) => e.name);
}
/** Every row this family writes, to prove a refused request wrote nothing. */
const snapshot = fingerprint(() => service, { enrollments, links: enrollmentCourseClasses, events: countOf(domainEvents) });
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

// =============================================================================================

describe('POST /enrollments', () => {
  let p: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    cat = await catalogue(school);
  });

  it('given every field as JSON, when creating, then 201 with the enrollment, a Location, the row, its classes and an event', async () => {
    const res = await school.admin.post('/enrollments', {
      enrollment: body(p, cat.productId, {
        max_attendance_type: 'attempts',
        max_attendance_length: 3,
        status: 'pending',
        unlimited: false,
        code: 'ENR-FULL',
        course_class_ids: cat.classIds,
      }),
    });
    expect(res.status, res.text).toBe(201);
    const e = res.body;
    expect(res.headers.location).toBe(`/enrollments/${e.id}`);
    expect(e).toMatchObject({
      school_id: school.id,
      registration_id: p.registrationId,
      student_id: p.studentId,
      school_product_id: cat.productId,
      max_attendance_type: 'attempts',
      max_attendance_length: 3,
      status: 'pending',
      available_until: LATER,
      activated_at: null,
      unlimited: false,
      code: 'ENR-FULL',
      time_spent: 0,
      course_class_ids: [...cat.classIds].sort((a, b) => a - b),
    });
    expect(e.created_at).toMatch(ISO);
    expect(e.updated_at).toMatch(ISO);
    expect(Object.keys(e).every((k) => k === k.toLowerCase())).toBe(true);
    expect(await row(e.id)).toMatchObject({ schoolId: school.id, studentId: p.studentId, code: 'ENR-FULL', maxAttendanceLength: 3 });
    expect(await classesOf(e.id)).toEqual([...cat.classIds].sort((a, b) => a - b));
    expect(await eventsOf(e.id)).toEqual(['enrollment.created']);
    const shown = await school.admin.get(res.headers.location as string);
    expect(shown.body).toEqual(e);
  });

  it('given only the required fields, when creating, then the defaults apply (pending, not unlimited, no classes)', async () => {
    const e = await enroll(p, cat.productId);
    expect(e).toMatchObject({ status: 'pending', unlimited: false, code: null, max_attendance_length: null, course_class_ids: [], time_spent: 0 });
  });

  it('given status active, when creating, then activated_at is now and enrollment.activated is emitted', async () => {
    const e = await enroll(p, cat.productId, { status: 'active' });
    expect(e.activated_at).toBe(NOW);
    expect(await eventsOf(e.id)).toEqual(['enrollment.created', 'enrollment.activated']);
  });

  it('given status active and an activated_at, when creating, then the given time is kept', async () => {
    const e = await enroll(p, cat.productId, { status: 'active', activated_at: '2025-06-01T08:00:00Z' });
    expect(e.activated_at).toBe('2025-06-01T08:00:00.000Z');
    expect((await row(e.id)).activatedAt?.toISOString()).toBe('2025-06-01T08:00:00.000Z');
  });

  it('given created_at, when creating, then it is stored and no event is emitted (callbacks skipped)', async () => {
    const e = await enroll(p, cat.productId, { status: 'active', created_at: '2024-03-04T05:06:07Z' });
    expect(e.created_at).toBe('2024-03-04T05:06:07.000Z');
    expect(await eventsOf(e.id)).toEqual([]);
  });

  it('given unlimited and no available_until, when creating, then 201', async () => {
    const e = await enroll(p, cat.productId, { unlimited: true, available_until: undefined });
    expect(e).toMatchObject({ unlimited: true, available_until: null });
  });

  it('given a form-urlencoded body with bracket names, when creating, then 201 with lists, numbers and booleans parsed', async () => {
    const res = await school.admin.post(
      '/enrollments',
      { enrollment: body(p, cat.productId, { max_attendance_type: 'time', max_attendance_length: '90', unlimited: 'false', course_class_ids: [cat.classIds[1]] }) },
      { encoding: 'form' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ max_attendance_type: 'time', max_attendance_length: 90, unlimited: false, course_class_ids: [cat.classIds[1]] });
    expect(await classesOf(res.body.id)).toEqual([cat.classIds[1]]);
  });

  it('given the literal bracket form enrollment[course_class_ids][]=, when creating, then the classes are linked', async () => {
    const raw = [
      `enrollment[registration_id]=${p.registrationId}`,
      `enrollment[school_product_id]=${cat.productId}`,
      'enrollment[max_attendance_type]=indeterminate',
      'enrollment[unlimited]=1',
      `enrollment[course_class_ids][]=${cat.classIds[0]}`,
      `enrollment[course_class_ids][]=${cat.classIds[1]}`,
    ].join('&');
    const res = await school.admin.request('POST', '/enrollments', undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.course_class_ids).toEqual([...cat.classIds].sort((a, b) => a - b));
  });

  it('given a multipart body, when creating, then 201', async () => {
    const res = await school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { code: 'ENR-MULTI' }) }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.code).toBe('ENR-MULTI');
  });

  it('given the /v1 prefix and the .json suffix, when creating, then 201', async () => {
    const res = await school.admin.post('/v1/enrollments.json', { enrollment: body(p, cat.productId) });
    expect(res.status, res.text).toBe(201);
  });

  it('given fields a reply carries that are not writable (id, student_id, school_id, updated_at), when creating, then they are ignored', async () => {
    const res = await school.admin.post('/enrollments', {
      enrollment: body(p, cat.productId, { id: 999999, student_id: 1, school_id: other.id, updated_at: '2000-01-01T00:00:00Z' }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.id).not.toBe(999999);
    expect(res.body).toMatchObject({ student_id: p.studentId, school_id: school.id });
  });

  describe('rules (422 with the Rails-style body, nothing written)', () => {
    it('given an empty enrollment hash of nulls, when creating, then each required field is blank', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', { enrollment: { registration_id: null, school_product_id: null, max_attendance_type: null } }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        errors: {
          registration_id: ["can't be blank"],
          school_product_id: ["can't be blank"],
          max_attendance_type: ["can't be blank"],
          available_until: ["can't be blank unless unlimited"],
        },
        details: {
          registration_id: [{ error: 'blank' }],
          school_product_id: [{ error: 'blank' }],
          max_attendance_type: [{ error: 'blank' }],
          available_until: [{ error: 'blank' }],
        },
      });
    });

    it.each(['time', 'attempts'])('given max_attendance_type %s without a length, when creating, then 422 on max_attendance_length', async (type) => {
      const res = await expectNoWrite(() => school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { max_attendance_type: type }) }));
      expectFieldError(res, 422, 'max_attendance_length', 'blank');
      expect(Object.keys(res.body.errors)).toEqual(['max_attendance_length']);
    });

    it.each([0, -5])('given max_attendance_length %s, when creating, then 422 greater_than', async (length) => {
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { max_attendance_type: 'time', max_attendance_length: length }) }),
      );
      expectFieldError(res, 422, 'max_attendance_length', 'greater_than');
      expect(res.body.errors.max_attendance_length).toEqual(['must be greater than 0']);
    });

    it('given unlimited false and no available_until, when creating, then 422 on available_until', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { unlimited: false, available_until: null }) }),
      );
      expectFieldError(res, 422, 'available_until', 'blank');
    });

    it("given another school's registration and product, when creating, then 422 not_found on both", async () => {
      const foreign = await student(other);
      const foreignProduct = await product(other);
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', { enrollment: body(foreign, foreignProduct) }),
      );
      expectFieldError(res, 422, 'registration_id', 'not_found');
      expectFieldError(res, 422, 'school_product_id', 'not_found');
    });

    it('given ids that name nothing, when creating, then 422 not_found', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', { enrollment: { ...body(p, 999999), registration_id: 'abc' } }),
      );
      expectFieldError(res, 422, 'registration_id', 'not_found');
      expectFieldError(res, 422, 'school_product_id', 'not_found');
    });

    it("given a course class of a course the product does not have, when creating, then 422 invalid on course_class_ids", async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { course_class_ids: [cat.classIds[0], cat.strayClassId] }) }),
      );
      expectFieldError(res, 422, 'course_class_ids', 'invalid');
      expect(res.body.errors.course_class_ids[0]).toContain(String(cat.strayClassId));
    });

    it("given another school's course class or an unknown one, when creating, then 422 not_found on course_class_ids", async () => {
      const foreignClass = await courseClass(other, await course(other));
      for (const id of [foreignClass, 999999]) {
        const res = await expectNoWrite(() => school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { course_class_ids: [id] }) }));
        expectFieldError(res, 422, 'course_class_ids', 'not_found');
      }
    });

    it('given a code the school already uses, when creating, then 409 taken; another school may use it', async () => {
      await enroll(p, cat.productId, { code: 'ENR-TAKEN' });
      const res = await expectNoWrite(() => school.admin.post('/enrollments', { enrollment: body(p, cat.productId, { code: 'ENR-TAKEN' }) }));
      expectFieldError(res, 409, 'code', 'taken');
      expect(res.body.errors.code).toEqual(['has already been taken']);
      const foreign = await student(other);
      const elsewhere = await other.admin.post('/enrollments', { enrollment: body(foreign, await product(other), { code: 'ENR-TAKEN' }) });
      expect(elsewhere.status, elsewhere.text).toBe(201);
    });

    it('given several violations, when creating, then every one is reported at once', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post('/enrollments', {
          enrollment: { school_product_id: cat.productId, max_attendance_type: 'time', course_class_ids: [cat.strayClassId] },
        }),
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['available_until', 'course_class_ids', 'max_attendance_length', 'registration_id']);
    });
  });

  describe('time_spent (only from an app credential)', () => {
    it('given an app credential, when creating with time_spent, then it is stored', async () => {
      const app = await service.token('app', school.id);
      const e = await enroll(p, cat.productId, { time_spent: 3600 }, app);
      expect(e.time_spent).toBe(3600);
      expect((await row(e.id)).timeSpent).toBe(3600);
    });

    it('given an admin, collaborator or platform credential, when creating with time_spent, then 403 on time_spent and nothing written', async () => {
      for (const client of [school.admin, await service.token('collaborator', school.id), service.platform.forSchool(school.id)]) {
        const res = await expectNoWrite(() => client.post('/enrollments', { enrollment: body(p, cat.productId, { time_spent: 10 }) }));
        expectFieldError(res, 403, 'time_spent', 'forbidden');
      }
    });

    it('given an app credential and a negative time_spent, when creating, then 422', async () => {
      const app = await service.token('app', school.id);
      const res = await expectNoWrite(() => app.post('/enrollments', { enrollment: body(p, cat.productId, { time_spent: -1 }) }));
      expectFieldError(res, 422, 'time_spent', 'greater_than_or_equal_to');
    });

    it('given an admin sending back a fetched enrollment, when time_spent is unchanged, then 200; when changed, then 403', async () => {
      const app = await service.token('app', school.id);
      const e = await enroll(p, cat.productId, { time_spent: 120 }, app);
      const fetched = (await school.admin.get(`/enrollments/${e.id}`)).body;
      const same = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { ...fetched, code: 'SENT-BACK' } });
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ time_spent: 120, code: 'SENT-BACK' });
      const changed = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { ...fetched, time_spent: 999 } });
      expectFieldError(changed, 403, 'time_spent', 'forbidden');
      expect((await school.admin.get(`/enrollments/${e.id}`)).body.time_spent).toBe(120);
    });
  });

  describe('credentials', () => {
    it('given a student credential, when creating, then 403 and nothing written', async () => {
      const res = await expectNoWrite(() => p.client.post('/enrollments', { enrollment: body(p, cat.productId) }));
      expectFieldError(res, 403, 'base', 'forbidden');
    });

    it('given no credential, when creating, then 401', async () => {
      const res = await expectNoWrite(() => service.anonymous.post('/enrollments', { enrollment: body(p, cat.productId) }));
      expectFieldError(res, 401, 'base', 'unauthenticated');
    });

    it('given a platform credential naming the school, when creating, then 201 in that school; without it, 400', async () => {
      const e = await enroll(p, cat.productId, {}, service.platform.forSchool(school.id));
      expect(e.school_id).toBe(school.id);
      const res = await expectNoWrite(() => service.platform.post('/enrollments', { enrollment: body(p, cat.productId) }));
      expectErrorBody(res, 400);
    });
  });

  describe('malformed bodies (400, nothing written)', () => {
    it.each<[string, Encoding | 'raw', unknown]>([
      ['invalid JSON', 'raw', '{"enrollment": {"registration_id": '],
      ['no enrollment key', 'json', { registration_id: 1 }],
      ['an empty body', 'json', {}],
      ['enrollment a string', 'json', { enrollment: 'x' }],
      ['enrollment a list', 'json', { enrollment: [{ registration_id: 1 }] }],
      ['no enrollment key in a form', 'form', { registration_id: '1' }],
    ])('given %s, when creating, then 400', async (_what, encoding, payload) => {
      const res = await expectNoWrite(() =>
        encoding === 'raw'
          ? school.admin.request('POST', '/enrollments', undefined, { raw: payload as string, headers: { 'content-type': 'application/json' } })
          : school.admin.post('/enrollments', payload, { encoding }),
      );
      expectErrorBody(res, 400);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['max_attendance_length a word', { max_attendance_type: 'time', max_attendance_length: 'ten' }, 'max_attendance_length'],
      ['available_until not a time', { available_until: 'someday' }, 'available_until'],
      ['unlimited not a boolean', { unlimited: 'maybe' }, 'unlimited'],
      ['course_class_ids a hash', { course_class_ids: { a: 1 } }, 'course_class_ids'],
      ['code a hash', { code: { x: 1 } }, 'code'],
    ])('given %s, when creating, then 400 naming the field', async (_what, fields, field) => {
      const res = await expectNoWrite(() => school.admin.post('/enrollments', { enrollment: body(p, cat.productId, fields) }));
      expectErrorBody(res, 400);
      expect(Object.keys(res.body.errors).join(' ')).toContain(field);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['max_attendance_type unknown', { max_attendance_type: 'forever' }, 'max_attendance_type'],
      ['status unknown', { status: 'paused' }, 'status'],
    ])('given %s, when creating or updating, then 422 inclusion naming the field (a closed list)', async (_what, fields, field) => {
      const res = await expectNoWrite(() => school.admin.post('/enrollments', { enrollment: body(p, cat.productId, fields) }));
      expectFieldError(res, 422, field, 'inclusion');
      const e = await enroll(p, cat.productId);
      const update = await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: fields }));
      expectFieldError(update, 422, field, 'inclusion');
    });
  });
});

// =============================================================================================

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

// =============================================================================================

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

// =============================================================================================

describe('PUT /enrollments/:id and /enrollments/:code?find_by=code', () => {
  let p: Person;
  let q: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    q = await student(school);
    cat = await catalogue(school);
  });

  it.each(['put', 'patch'] as const)('given new fields, when %s by id, then 200 with the shown enrollment, a Location and an event', async (method) => {
    const e = await enroll(p, cat.productId);
    const res = await school.admin[method](`/enrollments/${e.id}`, {
      enrollment: { max_attendance_type: 'attempts', max_attendance_length: 5, code: `UPD-${method}`, course_class_ids: cat.classIds },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/enrollments/${e.id}`);
    expect(res.body).toMatchObject({ id: e.id, max_attendance_type: 'attempts', max_attendance_length: 5, code: `UPD-${method}`, status: 'pending' });
    expect(res.body.course_class_ids).toEqual([...cat.classIds].sort((a, b) => a - b));
    expect(await row(e.id)).toMatchObject({ maxAttendanceType: 'attempts', maxAttendanceLength: 5 });
    expect(await classesOf(e.id)).toEqual([...cat.classIds].sort((a, b) => a - b));
    expect(await eventsOf(e.id)).toEqual(['enrollment.created', 'enrollment.updated']);
  });

  it('given a code and find_by=code, when updating, then that enrollment changes', async () => {
    const e = await enroll(p, cat.productId, { code: 'BY-CODE' });
    const res = await school.admin.put('/enrollments/BY-CODE?find_by=code', { enrollment: { unlimited: true } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: e.id, unlimited: true });
    expect(res.headers.location).toBe(`/enrollments/${e.id}`);
    expect((await row(e.id)).unlimited).toBe(true);
    expectFieldError(await school.admin.put('/enrollments/NO-CODE?find_by=code', { enrollment: { unlimited: true } }), 404, 'base', 'not_found');
  });

  it('given status active, when updating a pending enrollment, then activated_at is now and enrollment.activated is emitted; once', async () => {
    const e = await enroll(p, cat.productId);
    const res = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { status: 'active' } });
    expect(res.body).toMatchObject({ status: 'active', activated_at: NOW });
    expect(await eventsOf(e.id)).toEqual(['enrollment.created', 'enrollment.updated', 'enrollment.activated']);
    // Already active: no second activation.
    await school.admin.put(`/enrollments/${e.id}`, { enrollment: { status: 'active' } });
    expect(await eventsOf(e.id)).toEqual(['enrollment.created', 'enrollment.updated', 'enrollment.activated', 'enrollment.updated']);
  });

  it('given new course_class_ids, when updating, then they replace the old ones; an empty list clears them (also as a form)', async () => {
    const e = await enroll(p, cat.productId, { course_class_ids: [cat.classIds[0]] });
    const replaced = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { course_class_ids: [cat.classIds[1]] } }, { encoding: 'form' });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.course_class_ids).toEqual([cat.classIds[1]]);
    const cleared = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { course_class_ids: [] } });
    expect(cleared.body.course_class_ids).toEqual([]);
    expect(await classesOf(e.id)).toEqual([]);
  });

  it('given another registration, when updating, then the student follows the registration', async () => {
    const e = await enroll(p, cat.productId);
    const res = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { registration_id: q.registrationId } });
    expect(res.body).toMatchObject({ registration_id: q.registrationId, student_id: q.studentId });
  });

  it('given the whole fetched enrollment sent back with a change, when updating, then read-only fields are ignored', async () => {
    const e = await enroll(p, cat.productId, { code: 'ROUND-TRIP' });
    const { time_spent: _t, ...fetched } = (await school.admin.get(`/enrollments/${e.id}`)).body;
    const res = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { ...fetched, id: 1, student_id: q.studentId, status: 'deactivated' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: e.id, student_id: p.studentId, status: 'deactivated', code: 'ROUND-TRIP' });
  });

  describe('the state after the change must be valid (422, nothing written)', () => {
    it('given max_attendance_type time on an enrollment without a length, when updating, then 422 on max_attendance_length', async () => {
      const e = await enroll(p, cat.productId);
      expectFieldError(await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { max_attendance_type: 'time' } })), 422, 'max_attendance_length', 'blank');
    });

    it('given unlimited false on an unlimited enrollment without available_until, when updating, then 422 on available_until', async () => {
      const e = await enroll(p, cat.productId, { unlimited: true, available_until: null });
      expectFieldError(await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { unlimited: false } })), 422, 'available_until', 'blank');
    });

    it('given cleared required fields, when updating, then 422 blank on each', async () => {
      const e = await enroll(p, cat.productId);
      const res = await expectNoWrite(() =>
        school.admin.put(`/enrollments/${e.id}`, { enrollment: { registration_id: null, school_product_id: '', max_attendance_type: null, status: null } }),
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['max_attendance_type', 'registration_id', 'school_product_id', 'status']);
    });

    it('given another product whose courses do not hold the current classes, when updating, then 422 on course_class_ids', async () => {
      const e = await enroll(p, cat.productId, { course_class_ids: [cat.classIds[0]] });
      const elsewhere = await product(school);
      expectFieldError(await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { school_product_id: elsewhere } })), 422, 'course_class_ids', 'invalid');
      // With the classes cleared in the same request, the move is valid.
      const moved = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { school_product_id: elsewhere, course_class_ids: [] } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ school_product_id: elsewhere, course_class_ids: [] });
    });

    it("given a stray class, another school's product or a taken code, when updating, then 422/409", async () => {
      const e = await enroll(p, cat.productId);
      await enroll(p, cat.productId, { code: 'UPD-TAKEN' });
      expectFieldError(await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { course_class_ids: [cat.strayClassId] } })), 422, 'course_class_ids', 'invalid');
      const theirs = await product(other);
      expectFieldError(await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { school_product_id: theirs } })), 422, 'school_product_id', 'not_found');
      expectFieldError(await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { code: 'UPD-TAKEN' } })), 409, 'code', 'taken');
    });

    it('given its own code, when updating, then 200 (an enrollment does not conflict with itself)', async () => {
      const e = await enroll(p, cat.productId, { code: 'SELF-CODE' });
      const res = await school.admin.put(`/enrollments/${e.id}`, { enrollment: { code: 'SELF-CODE', unlimited: true } });
      expect(res.status, res.text).toBe(200);
    });
  });

  describe('time_spent', () => {
    it('given an app credential, when updating time_spent, then it is stored', async () => {
      const e = await enroll(p, cat.productId);
      const app = await service.token('app', school.id);
      const res = await app.put(`/enrollments/${e.id}`, { enrollment: { time_spent: 120 } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.time_spent).toBe(120);
      expect((await row(e.id)).timeSpent).toBe(120);
    });

    it('given an admin credential, when updating time_spent, then 403 and nothing written (not silently dropped)', async () => {
      const e = await enroll(p, cat.productId);
      const res = await expectNoWrite(() => school.admin.put(`/enrollments/${e.id}`, { enrollment: { time_spent: 120, code: 'NOT-WRITTEN' } }));
      expectFieldError(res, 403, 'time_spent', 'forbidden');
      expect(await row(e.id)).toMatchObject({ timeSpent: 0, code: null });
    });
  });

  describe('who may update', () => {
    it("given another school's credential, when updating, then 404 and the enrollment is untouched", async () => {
      const e = await enroll(p, cat.productId, { code: 'MINE-ONLY' });
      expectFieldError(await expectNoWrite(() => other.admin.put(`/enrollments/${e.id}`, { enrollment: { status: 'canceled' } })), 404, 'base', 'not_found');
      expectFieldError(await expectNoWrite(() => other.admin.put('/enrollments/MINE-ONLY?find_by=code', { enrollment: { status: 'canceled' } })), 404, 'base', 'not_found');
      expect((await row(e.id)).status).toBe('pending');
    });

    it('given a student credential, even for its own enrollment, when updating, then 403', async () => {
      const e = await enroll(p, cat.productId);
      expectFieldError(await expectNoWrite(() => p.client.put(`/enrollments/${e.id}`, { enrollment: { status: 'active' } })), 403, 'base', 'forbidden');
    });

    it.each(['abc', '0', '999999'])('given the id %s, when updating, then 404', async (id) => {
      expectFieldError(await school.admin.put(`/enrollments/${id}`, { enrollment: { status: 'active' } }), 404, 'base', 'not_found');
    });
  });

  describe('malformed bodies', () => {
    it.each<[string, Encoding | 'raw', unknown]>([
      ['invalid JSON', 'raw', '{"enrollment": '],
      ['no enrollment key', 'json', { status: 'active' }],
      ['an empty enrollment', 'json', { enrollment: {} }],
      ['enrollment a string', 'json', { enrollment: 'active' }],
      ['a wrong type', 'json', { enrollment: { max_attendance_length: 'many' } }],
    ])('given %s, when updating, then 400 and no change', async (_what, encoding, payload) => {
      const e = await enroll(p, cat.productId);
      const res = await expectNoWrite(() =>
        encoding === 'raw'
          ? school.admin.request('PUT', `/enrollments/${e.id}`, undefined, { raw: payload as string, headers: { 'content-type': 'application/json' } })
          : school.admin.put(`/enrollments/${e.id}`, payload, { encoding }),
      );
      expectErrorBody(res, 400);
    });
  });
});

// =============================================================================================

describe('POST /enrollments/batch', () => {
  let p: Person;
  let q: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    q = await student(school);
    cat = await catalogue(school);
  });

  it('given valid enrollments as JSON, when posting the batch, then 201 with the array in order, every row, link and event', async () => {
    const res = await school.admin.post('/enrollments/batch', {
      enrollments: [
        body(p, cat.productId, { code: 'BATCH-1', course_class_ids: [cat.classIds[0]] }),
        body(q, cat.productId, { code: 'BATCH-2', status: 'active' }),
        body(p, cat.productId, { max_attendance_type: 'time', max_attendance_length: 30, unlimited: true, available_until: null }),
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toHaveLength(3);
    expect(res.body.map((e: any) => e.code)).toEqual(['BATCH-1', 'BATCH-2', null]);
    expect(res.body.map((e: any) => e.student_id)).toEqual([p.studentId, q.studentId, p.studentId]);
    expect(res.body[0].course_class_ids).toEqual([cat.classIds[0]]);
    expect(res.body[1]).toMatchObject({ status: 'active', activated_at: NOW });
    expect(res.body[2]).toMatchObject({ max_attendance_type: 'time', max_attendance_length: 30, unlimited: true });
    const ids = res.body.map((e: any) => e.id);
    expect(await service.db.select({ id: enrollments.id }).from(enrollments).where(inArray(enrollments.id, ids))).toHaveLength(3);
    expect(await classesOf(ids[0])).toEqual([cat.classIds[0]]);
    expect(await eventsOf(ids[1])).toEqual(['enrollment.created', 'enrollment.activated']);
  });

  it('given a form body with indexed bracket names, when posting the batch, then 201', async () => {
    // enrollments[0][registration_id]=..&enrollments[0][course_class_ids][]=..&enrollments[1][...]
    const raw = qs.stringify(
      { enrollments: [body(p, cat.productId, { course_class_ids: cat.classIds }), body(q, cat.productId, { unlimited: '1' })] },
      { arrayFormat: 'indices' },
    ).replace(/%5Bcourse_class_ids%5D%5B\d+%5D/g, '%5Bcourse_class_ids%5D%5B%5D');
    expect(decodeURIComponent(raw)).toContain('enrollments[0][course_class_ids][]=');
    const res = await school.admin.request('POST', '/enrollments/batch', undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toHaveLength(2);
    expect(res.body[0].course_class_ids).toEqual([...cat.classIds].sort((a, b) => a - b));
    expect(res.body[1].unlimited).toBe(true);
  });

  it('given one invalid item among valid ones, when posting the batch, then 422 naming the item and nothing is written', async () => {
    const res = await expectNoWrite(() =>
      school.admin.post('/enrollments/batch', {
        enrollments: [
          body(p, cat.productId, { code: 'ATOMIC-0' }),
          body(q, cat.productId),
          body(p, cat.productId, { max_attendance_type: 'attempts' }),
          body(q, cat.productId, { course_class_ids: [cat.strayClassId], registration_id: null }),
        ],
      }),
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body).toEqual({
      errors: {
        'enrollments[2].max_attendance_length': ["can't be blank when max_attendance_type is attempts"],
        'enrollments[3].registration_id': ["can't be blank"],
        'enrollments[3].course_class_ids': [expect.stringContaining(String(cat.strayClassId))],
      },
      details: {
        'enrollments[2].max_attendance_length': [{ error: 'blank' }],
        'enrollments[3].registration_id': [{ error: 'blank' }],
        'enrollments[3].course_class_ids': [{ error: 'invalid' }],
      },
    });
    expect(await service.db.select().from(enrollments).where(eq(enrollments.code, 'ATOMIC-0'))).toEqual([]);
  });

  it('given a code twice in the batch, or a code the school has, when posting, then 409 naming the item', async () => {
    await enroll(p, cat.productId, { code: 'BATCH-HAS' });
    const res = await expectNoWrite(() =>
      school.admin.post('/enrollments/batch', {
        enrollments: [body(p, cat.productId, { code: 'BATCH-DUP' }), body(q, cat.productId, { code: 'BATCH-DUP' }), body(q, cat.productId, { code: 'BATCH-HAS' })],
      }),
    );
    expect(res.status, res.text).toBe(409);
    expect(Object.keys(res.body.errors).sort()).toEqual(['enrollments[1].code', 'enrollments[2].code']);
    expect(res.body.details['enrollments[1].code']).toEqual([{ error: 'taken' }]);
  });

  it('given time_spent in one item from an admin, when posting, then 403 naming the item and nothing written; an app may', async () => {
    const items = [body(p, cat.productId), body(q, cat.productId, { time_spent: 50 })];
    const res = await expectNoWrite(() => school.admin.post('/enrollments/batch', { enrollments: items }));
    expectFieldError(res, 403, 'enrollments[1].time_spent', 'forbidden');
    const app = await service.token('app', school.id);
    const ok = await app.post('/enrollments/batch', { enrollments: items });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.map((e: any) => e.time_spent)).toEqual([0, 50]);
  });

  it("given an item naming another school's registration, when posting, then 422 and nothing written", async () => {
    const foreign = await student(other);
    const res = await expectNoWrite(() => school.admin.post('/enrollments/batch', { enrollments: [body(p, cat.productId), body(foreign, cat.productId)] }));
    expectFieldError(res, 422, 'enrollments[1].registration_id', 'not_found');
  });

  it.each<[string, Encoding | 'raw', unknown]>([
    ['invalid JSON', 'raw', '{"enrollments": [{'],
    ['no enrollments key', 'json', { enrollment: { registration_id: 1 } }],
    ['an empty list', 'json', { enrollments: [] }],
    ['enrollments a string', 'json', { enrollments: 'all' }],
    ['an item that is not a hash', 'json', { enrollments: [5] }],
  ])('given %s, when posting the batch, then 400 and nothing written', async (_what, encoding, payload) => {
    const res = await expectNoWrite(() =>
      encoding === 'raw'
        ? school.admin.request('POST', '/enrollments/batch', undefined, { raw: payload as string, headers: { 'content-type': 'application/json' } })
        : school.admin.post('/enrollments/batch', payload, { encoding }),
    );
    expectErrorBody(res, 400);
  });

  it('given an item with a wrong type, when posting the batch, then 400 naming the item', async () => {
    const res = await expectNoWrite(() =>
      school.admin.post('/enrollments/batch', { enrollments: [body(p, cat.productId), body(q, cat.productId, { max_attendance_length: 'x' })] }),
    );
    expectErrorBody(res, 400);
    expect(Object.keys(res.body.errors).join(' ')).toMatch(/\[1\]\.max_attendance_length/);
  });

  it('given a student or no credential, when posting the batch, then 403 / 401', async () => {
    expectFieldError(await expectNoWrite(() => p.client.post('/enrollments/batch', { enrollments: [body(p, cat.productId)] })), 403, 'base', 'forbidden');
    expectFieldError(await expectNoWrite(() => service.anonymous.post('/enrollments/batch', { enrollments: [body(p, cat.productId)] })), 401, 'base', 'unauthenticated');
  });
});

// =============================================================================================

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
