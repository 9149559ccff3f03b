import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { BATCH, CREATE, enrollmentGraphqlFixtures, expectCode, FIELDS, type GraphqlPerson as Person, LATER, NOW } from '../support/enrollments.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { dataOf } from '../support/graphql.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Enrollments: createEnrollment and createEnrollments (the batch). Invalid input is
// payload data (`errors`); forbidden and bad arguments are execution errors with extensions.code.
// Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let school: TestSchool;
const world = twoSchools('GraphQL Enrolling School', 'GraphQL Other School', (w) => ({ service, school } = w));
const { student, catalogue, input, enroll, expectNoWrite } = enrollmentGraphqlFixtures(world);

describe('createEnrollment', () => {
  let p: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    cat = await catalogue(school);
  });

  it('given every field, when creating, then the enrollment with its relations is returned', async () => {
    const data = await dataOf(
      school.admin,
      `mutation ($input: EnrollmentInput!) { createEnrollment(input: $input) {
        enrollment { ${FIELDS} student { id } registration { id studentId } schoolProduct { id } courseClasses { id courseId code main } }
        errors { field code message } } }`,
      { input: input(p, cat.productId, { maxAttendanceType: 'time', maxAttendanceLength: 60, status: 'active', code: 'GQL-1', courseClassIds: cat.classIds }) },
    );
    const e = data.createEnrollment.enrollment;
    expect(data.createEnrollment.errors).toEqual([]);
    expect(e).toMatchObject({
      schoolId: String(school.id),
      registrationId: p.registrationId,
      studentId: p.studentId,
      schoolProductId: cat.productId,
      maxAttendanceType: 'time',
      maxAttendanceLength: 60,
      status: 'active',
      availableUntil: LATER,
      activatedAt: NOW,
      unlimited: false,
      code: 'GQL-1',
      timeSpent: 0,
      student: { id: p.studentId },
      registration: { id: p.registrationId, studentId: p.studentId },
      schoolProduct: { id: cat.productId },
    });
    expect(e.courseClassIds).toEqual(cat.classIds);
    expect(e.courseClasses).toEqual(cat.classIds.map((id) => ({ id, courseId: String(cat.courseId), code: expect.any(String), main: false })));
    const events = await service.db.select().from(domainEvents).where(and(eq(domainEvents.subjectType, 'Enrollment'), eq(domainEvents.subjectId, Number(e.id))));
    expect(events.map((ev) => ev.name)).toEqual(['enrollment.created', 'enrollment.activated']);
    expect(events[0]).toMatchObject({ schoolId: school.id, payload: { studentId: Number(p.studentId), schoolProductId: Number(cat.productId), status: 'active' } });
  });

  it('given nothing, when creating, then UserErrors for each required field and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: {} }));
    expect(res.errors).toBeUndefined();
    expect(res.data.createEnrollment).toEqual({
      enrollment: null,
      errors: [
        { field: ['registrationId'], code: 'blank', message: "can't be blank" },
        { field: ['schoolProductId'], code: 'blank', message: "can't be blank" },
        { field: ['maxAttendanceType'], code: 'blank', message: "can't be blank" },
        { field: ['availableUntil'], code: 'blank', message: "can't be blank unless unlimited" },
      ],
    });
  });

  it.each<[string, Record<string, unknown>, string[], string]>([
    ['attempts without a length', { maxAttendanceType: 'attempts' }, ['maxAttendanceLength'], 'blank'],
    ['a zero length', { maxAttendanceType: 'time', maxAttendanceLength: 0 }, ['maxAttendanceLength'], 'greater_than'],
    // Neither given: the product's access period (test/orders/rest.enroll.test.ts); unlimited false says there is none.
    ['not unlimited, no availableUntil', { availableUntil: null, unlimited: false }, ['availableUntil'], 'blank'],
    ['an unknown product', { schoolProductId: '999999' }, ['schoolProductId'], 'not_found'],
    ['an unknown registration', { registrationId: '999999' }, ['registrationId'], 'not_found'],
  ])('given %s, when creating, then a UserError and nothing written', async (_what, fields, field, code) => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: input(p, cat.productId, fields) }));
    expect(res.data.createEnrollment.enrollment).toBeNull();
    expect(res.data.createEnrollment.errors).toEqual([expect.objectContaining({ field, code })]);
  });

  it("given a class outside the product's courses, when creating, then invalid on courseClassIds", async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: input(p, cat.productId, { courseClassIds: [cat.strayClassId] }) }));
    expect(res.data.createEnrollment.errors).toEqual([expect.objectContaining({ field: ['courseClassIds'], code: 'invalid' })]);
  });

  it('given timeSpent from an admin, then a forbidden UserError on timeSpent and nothing written; from an app, then stored', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: input(p, cat.productId, { timeSpent: 5 }) }));
    expect(res.errors).toBeUndefined();
    expect(res.data.createEnrollment).toEqual({
      enrollment: null,
      errors: [{ field: ['timeSpent'], code: 'forbidden', message: 'can be written only with an app credential' }],
    });
    const app = await service.token('app', school.id);
    const e = await enroll(p, cat.productId, { timeSpent: 5 }, app);
    expect(e.timeSpent).toBe(5);
  });

  it('given a taken code, when creating, then taken on code', async () => {
    await enroll(p, cat.productId, { code: 'GQL-TAKEN' });
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: input(p, cat.productId, { code: 'GQL-TAKEN' }) }));
    expect(res.data.createEnrollment.errors).toEqual([{ field: ['code'], code: 'taken', message: 'has already been taken' }]);
  });

  it('given a student, an anonymous caller, or a platform credential without X-School-Id, then refused and nothing written', async () => {
    expectCode(await expectNoWrite(() => p.client.graphql(CREATE, { input: input(p, cat.productId) })), 'FORBIDDEN');
    expectCode(await expectNoWrite(() => service.anonymous.graphql(CREATE, { input: input(p, cat.productId) })), 'UNAUTHENTICATED');
    expectCode(await expectNoWrite(() => service.platform.graphql(CREATE, { input: input(p, cat.productId) })), 'BAD_USER_INPUT');
  });
});

describe('createEnrollments (the batch)', () => {
  let p: Person;
  let q: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    q = await student(school);
    cat = await catalogue(school);
  });

  it('given valid inputs, when creating them, then every enrollment in order', async () => {
    const data = await dataOf(school.admin, BATCH, {
      inputs: [input(p, cat.productId, { courseClassIds: [cat.classIds[0]] }), input(q, cat.productId, { status: 'active' })],
    });
    expect(data.createEnrollments.errors).toEqual([]);
    const made = data.createEnrollments.enrollments;
    expect(made.map((e: any) => [e.studentId, e.status, e.courseClassIds])).toEqual([
      [p.studentId, 'pending', [cat.classIds[0]]],
      [q.studentId, 'active', []],
    ]);
  });

  it('given an invalid item, when creating the batch, then errors name the item by index and nothing is written', async () => {
    const res = await expectNoWrite(() =>
      school.admin.graphql(BATCH, {
        inputs: [
          input(p, cat.productId, { code: 'GQL-BATCH-OK' }),
          input(q, cat.productId),
          input(p, cat.productId, { maxAttendanceType: 'time' }),
          input(q, cat.productId, { timeSpent: 1 }),
        ],
      }),
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.createEnrollments).toEqual({
      enrollments: null,
      errors: [
        { field: ['enrollments', '2', 'maxAttendanceLength'], code: 'blank', message: "can't be blank when max_attendance_type is time" },
        { field: ['enrollments', '3', 'timeSpent'], code: 'forbidden', message: 'can be written only with an app credential' },
      ],
    });
  });

  it('given an empty list or more than 1000 inputs, when creating the batch, then BAD_USER_INPUT and nothing written', async () => {
    expectCode(await expectNoWrite(() => school.admin.graphql(BATCH, { inputs: [] })), 'BAD_USER_INPUT');
    const tooMany = Array.from({ length: 1001 }, () => input(p, cat.productId));
    const res = await expectNoWrite(() => school.admin.graphql(BATCH, { inputs: tooMany }));
    expectCode(res, 'BAD_USER_INPUT');
    expect(res.errors![0].extensions.field).toEqual(['enrollments']);
  });
});
