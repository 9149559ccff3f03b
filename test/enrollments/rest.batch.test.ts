import { eq, inArray } from 'drizzle-orm';
import qs from 'qs';
import { beforeAll, describe, expect, it } from 'vitest';
import { enrollments } from '../../src/modules/enrollments/enrollment.table.js';
import { enrollmentRestFixtures, NOW, type Person } from '../support/enrollments.fixtures.js';
import type { Encoding, Service, TestSchool } from '../support/service.js';
import { expectErrorBody, expectFieldError } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of Enrollments: POST /enrollments/batch, all or nothing. Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Enrolling School', 'Other School', (w) => ({ service, school, other } = w));
const { student, catalogue, body, enroll, classesOf, eventsOf, expectNoWrite } = enrollmentRestFixtures(world);

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
