import { beforeAll, describe, expect, it } from 'vitest';
import { enrollmentRestFixtures, NOW, type Person } from '../support/enrollments.fixtures.js';
import type { Encoding, Service, TestSchool } from '../support/service.js';
import { expectErrorBody, expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of Enrollments: PUT /enrollments/:id and by code. Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Enrolling School', 'Other School', (w) => ({ service, school, other } = w));
const { student, product, catalogue, enroll, row, classesOf, eventsOf, expectNoWrite } = enrollmentRestFixtures(world);

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
