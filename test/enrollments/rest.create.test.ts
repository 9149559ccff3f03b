import { beforeAll, describe, expect, it } from 'vitest';
import { enrollmentRestFixtures, ISO, LATER, NOW, type Person } from '../support/enrollments.fixtures.js';
import type { Encoding, Service, TestSchool } from '../support/service.js';
import { expectErrorBody, expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of Enrollments: POST /enrollments (create), its rules, time_spent, credentials and
// malformed bodies. Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Enrolling School', 'Other School', (w) => ({ service, school, other } = w));
const { student, product, course, courseClass, catalogue, body, enroll, row, classesOf, eventsOf, expectNoWrite } = enrollmentRestFixtures(world);

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
      // No available_until: the product's access period (its own test: rest.create-access.test.ts).
      expect(Object.keys(res.body.errors).sort()).toEqual(['course_class_ids', 'max_attendance_length', 'registration_id']);
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
