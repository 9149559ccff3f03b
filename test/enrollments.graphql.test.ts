import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseClasses } from '../src/modules/course-classes/course-class.table.js';
import { courses } from '../src/modules/courses/course.table.js';
import { enrollmentCourseClasses, enrollments, registrations } from '../src/modules/enrollments/enrollment.table.js';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { schoolProductCourses } from '../src/modules/school-products/school-product-content.table.js';
import { countOf, expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { type Client, type Service, startService, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';

/**
 * GraphQL face of Enrollments and Registrations: registration, registrations, createRegistration,
 * enrollment(id | code), enrollments(filters), enrollmentStatus, createEnrollment, createEnrollments,
 * updateEnrollment(id | code), the relation fields and their batching. Invalid input is payload data
 * (`errors`); not found, forbidden and bad arguments are execution errors with extensions.code.
 */

const NOW = '2026-01-15T12:00:00.000Z';
const LATER = '2026-12-31T00:00:00.000Z';

const FIELDS = `id schoolId registrationId studentId schoolProductId maxAttendanceType maxAttendanceLength status
  availableUntil activatedAt unlimited code timeSpent courseClassIds createdAt updatedAt`;
const CREATE = `mutation ($input: EnrollmentInput!) { createEnrollment(input: $input) { enrollment { ${FIELDS} } errors { field code message } } }`;
const BATCH = `mutation ($inputs: [EnrollmentInput!]!) { createEnrollments(inputs: $inputs) { enrollments { ${FIELDS} } errors { field code message } } }`;
const UPDATE = `mutation ($id: ID, $code: String, $input: EnrollmentInput!) {
  updateEnrollment(id: $id, code: $code, input: $input) { enrollment { ${FIELDS} } errors { field code message } }
}`;
const ONE = `query ($id: ID, $code: String) { enrollment(id: $id, code: $code) { ${FIELDS} } }`;
const LIST = graphql(`query ($studentId: ID, $courseClassId: ID, $schoolProductId: ID, $status: EnrollmentStatus, $first: Int, $after: String, $page: Int, $perPage: Int) {
  enrollments(studentId: $studentId, courseClassId: $courseClassId, schoolProductId: $schoolProductId, status: $status, first: $first, after: $after, page: $page, perPage: $perPage) {
    totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`);
const STATUS = graphql('query ($studentId: ID!, $id: ID!) { enrollmentStatus(studentId: $studentId, id: $id) { id studentId status active unlimited availableUntil } }');
const CREATE_REGISTRATION = graphql(`mutation ($input: RegistrationInput!) {
  createRegistration(input: $input) { registration { id schoolId studentId status createdAt updatedAt } errors { field code message } }
}`);

let service: Service;
let school: TestSchool;
let other: TestSchool;

beforeAll(async () => {
  service = await startService();
  school = await service.school('GraphQL Enrolling School');
  other = await service.school('GraphQL Other School');
});
afterAll(() => service?.stop());

// ---------------------------------------------------------------------------------------------
// Fixtures: students through createStudent, registrations through createRegistration, products
// through createSchoolProduct; courses, product courses and course classes (no API yet) with drizzle.

let serial = 0;


async function newStudent(s: TestSchool): Promise<string> {
  const n = ++serial;
  const data = await dataOf(s.admin, graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } } }'), {
    input: { fullName: `Student ${n}`, email: `gql-student${n}@example.com` },
  });
  return data.createStudent.student.id;
}

interface Person {
  studentId: string;
  registrationId: string;
  client: Client;
}
async function student(s: TestSchool): Promise<Person> {
  const studentId = await newStudent(s);
  const data = await dataOf(s.admin, CREATE_REGISTRATION, { input: { studentId } });
  expect(data.createRegistration.errors).toEqual([]);
  return { studentId, registrationId: data.createRegistration.registration.id, client: await service.token('student', s.id, Number(studentId)) };
}
async function product(s: TestSchool): Promise<string> {
  const data = await dataOf(s.admin, graphql('mutation ($input: SchoolProductInput!) { createSchoolProduct(input: $input) { schoolProduct { id } } }'), {
    input: { title: `Product ${++serial}` },
  });
  return data.createSchoolProduct.schoolProduct.id;
}
async function course(s: TestSchool, productId?: string): Promise<number> {
  const [row] = await service.db.insert(courses).values({ schoolId: s.id, name: `Course ${++serial}` }).returning();
  if (productId) await service.db.insert(schoolProductCourses).values({ schoolProductId: Number(productId), courseId: row.id });
  return row.id;
}
async function courseClass(s: TestSchool, courseId: number): Promise<string> {
  const [row] = await service.db.insert(courseClasses).values({ schoolId: s.id, courseId, code: `gql-class-${++serial}` }).returning();
  return String(row.id);
}
async function catalogue(s: TestSchool) {
  const productId = await product(s);
  const courseId = await course(s, productId);
  const classIds = [await courseClass(s, courseId), await courseClass(s, courseId)];
  const strayClassId = await courseClass(s, await course(s));
  return { productId, courseId, classIds, strayClassId };
}

function input(p: Person, productId: string, fields: Record<string, unknown> = {}) {
  return { registrationId: p.registrationId, schoolProductId: productId, maxAttendanceType: 'indeterminate', availableUntil: LATER, ...fields };
}
async function enroll(p: Person, productId: string, fields: Record<string, unknown> = {}, client: Client = school.admin) {
  const data = await dataOf(client, CREATE, { input: input(p, productId, fields) });
  expect(data.createEnrollment.errors).toEqual([]);
  return data.createEnrollment.enrollment;
}

const snapshot = fingerprint(() => service, { enrollments, links: enrollmentCourseClasses, registrations, events: countOf(domainEvents) });
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);
function expectCode(res: { errors?: any[] }, code: string) {
  expect(res.errors, JSON.stringify(res)).toHaveLength(1);
  expect(res.errors![0].extensions.code).toBe(code);
  expect(JSON.stringify(res.errors)).not.toMatch(/\bselect\b.*\bfrom\b|insert into|\.ts:\d+|node_modules/i);
}

// =============================================================================================

describe('registrations', () => {
  it('given a student of the school, when createRegistration, then the registration is returned and stored', async () => {
    const studentId = await newStudent(school);
    const data = await dataOf(school.admin, CREATE_REGISTRATION, { input: { studentId } });
    expect(data.createRegistration.errors).toEqual([]);
    const r = data.createRegistration.registration;
    expect(r).toMatchObject({ schoolId: String(school.id), studentId, status: 'active' });
    const [row] = await service.db.select().from(registrations).where(eq(registrations.id, Number(r.id)));
    expect(row).toMatchObject({ schoolId: school.id, studentId: Number(studentId) });
  });

  it('given a student already registered, when createRegistration again, then taken on studentId and nothing written', async () => {
    const p = await student(school);
    const res = await expectNoWrite(() => school.admin.graphql(CREATE_REGISTRATION, { input: { studentId: p.studentId } }));
    expect(res.data.createRegistration).toEqual({ registration: null, errors: [{ field: ['studentId'], code: 'taken', message: 'has already been taken' }] });
  });

  it("given no student, another school's student or a collaborator, when createRegistration, then a UserError and nothing written", async () => {
    const foreign = await newStudent(other);
    const blank = await expectNoWrite(() => school.admin.graphql(CREATE_REGISTRATION, { input: {} }));
    expect(blank.data.createRegistration.errors).toEqual([{ field: ['studentId'], code: 'blank', message: "can't be blank" }]);
    for (const studentId of [foreign, String(school.adminId), 'abc']) {
      const res = await expectNoWrite(() => school.admin.graphql(CREATE_REGISTRATION, { input: { studentId } }));
      expect(res.data.createRegistration.errors).toEqual([expect.objectContaining({ field: ['studentId'], code: 'not_found' })]);
    }
  });

  it('given a student credential, when createRegistration, then FORBIDDEN', async () => {
    const p = await student(school);
    expectCode(await expectNoWrite(() => p.client.graphql(CREATE_REGISTRATION, { input: { studentId: p.studentId } })), 'FORBIDDEN');
  });

  it('given registrations, when querying registration(id) and registrations(studentId), then they resolve with student and enrollments', async () => {
    const p = await student(school);
    const productId = await product(school);
    const e = await enroll(p, productId);
    const data = await dataOf(
      school.admin,
      graphql(`query ($id: ID!, $studentId: ID) {
        registration(id: $id) { id studentId student { id fullName } enrollments { totalCount nodes { id } } }
        registrations(studentId: $studentId) { totalCount nodes { id } }
      }`),
      { id: p.registrationId, studentId: p.studentId },
    );
    expect(data.registration).toMatchObject({ id: p.registrationId, studentId: p.studentId, student: { id: p.studentId }, enrollments: { totalCount: 1, nodes: [{ id: e.id }] } });
    expect(data.registrations).toEqual({ totalCount: 1, nodes: [{ id: p.registrationId }] });
  });

  it("given a student credential, when reading registrations, then only its own; another's is NOT_FOUND", async () => {
    const p = await student(school);
    const q = await student(school);
    const own = await dataOf(p.client, graphql('{ registrations { nodes { id } } }'));
    expect(own.registrations.nodes).toEqual([{ id: p.registrationId }]);
    expectCode(await p.client.graphql('query ($id: ID!) { registration(id: $id) { id } }', { id: q.registrationId }), 'NOT_FOUND');
    expectCode(await other.admin.graphql('query ($id: ID!) { registration(id: $id) { id } }', { id: p.registrationId }), 'NOT_FOUND');
  });
});

// =============================================================================================

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
    ['not unlimited, no availableUntil', { availableUntil: null }, ['availableUntil'], 'blank'],
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

// =============================================================================================

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

// =============================================================================================

describe('enrollment, enrollments and enrollmentStatus', () => {
  let s: TestSchool;
  let p: Person;
  let q: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let second: string;
  const e: Record<string, any> = {};
  beforeAll(async () => {
    s = await service.school('GraphQL Listing School');
    p = await student(s);
    q = await student(s);
    cat = await catalogue(s);
    second = await product(s);
    e.p1 = await enroll(p, cat.productId, { code: 'L-P1', status: 'active', courseClassIds: [cat.classIds[0]] }, s.admin);
    e.p2 = await enroll(p, second, { code: 'L-P2' }, s.admin);
    e.q1 = await enroll(q, cat.productId, { code: 'L-Q1', courseClassIds: cat.classIds }, s.admin);
  });
  const nodeIds = (data: any) => data.enrollments.nodes.map((n: any) => n.id);

  it('given an id or a code, when querying enrollment, then that enrollment', async () => {
    expect((await dataOf(s.admin, ONE, { id: e.p1.id })).enrollment).toEqual(e.p1);
    expect((await dataOf(s.admin, ONE, { code: 'L-Q1' })).enrollment.id).toBe(e.q1.id);
  });

  it('given both or neither of id and code, when querying enrollment, then BAD_USER_INPUT', async () => {
    expectCode(await s.admin.graphql(ONE, { id: e.p1.id, code: 'L-P1' }), 'BAD_USER_INPUT');
    expectCode(await s.admin.graphql(ONE, {}), 'BAD_USER_INPUT');
  });

  it('given a platform credential, then by id it reads any school; by code it must name the school (codes are unique per school)', async () => {
    expect((await dataOf(service.platform, ONE, { id: e.p1.id })).enrollment.id).toBe(e.p1.id);
    expectCode(await service.platform.graphql(ONE, { code: 'L-P1' }), 'BAD_USER_INPUT');
    expect((await dataOf(service.platform.forSchool(s.id), ONE, { code: 'L-P1' })).enrollment.id).toBe(e.p1.id);
    expectCode(await service.platform.forSchool(other.id).graphql(ONE, { code: 'L-P1' }), 'NOT_FOUND');
  });

  it("given another school's id or code, when querying enrollment, then NOT_FOUND", async () => {
    expectCode(await other.admin.graphql(ONE, { id: e.p1.id }), 'NOT_FOUND');
    expectCode(await other.admin.graphql(ONE, { code: 'L-P1' }), 'NOT_FOUND');
  });

  it('given each filter, when querying enrollments, then only the matching ones', async () => {
    expect(nodeIds(await dataOf(s.admin, LIST))).toEqual([e.p1.id, e.p2.id, e.q1.id]);
    expect(nodeIds(await dataOf(s.admin, LIST, { studentId: p.studentId }))).toEqual([e.p1.id, e.p2.id]);
    expect(nodeIds(await dataOf(s.admin, LIST, { courseClassId: cat.classIds[1] }))).toEqual([e.q1.id]);
    expect(nodeIds(await dataOf(s.admin, LIST, { schoolProductId: cat.productId }))).toEqual([e.p1.id, e.q1.id]);
    expect(nodeIds(await dataOf(s.admin, LIST, { status: 'active' }))).toEqual([e.p1.id]);
    expect(nodeIds(await dataOf(s.admin, LIST, { schoolProductId: cat.productId, studentId: q.studentId }))).toEqual([e.q1.id]);
  });

  it('given first/after or page/perPage, when querying enrollments, then pages with totalCount', async () => {
    const first = await dataOf(s.admin, LIST, { first: 2 });
    expect(first.enrollments).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    expect(nodeIds(first)).toEqual([e.p1.id, e.p2.id]);
    const next = await dataOf(s.admin, LIST, { first: 2, after: first.enrollments.pageInfo.endCursor });
    expect(nodeIds(next)).toEqual([e.q1.id]);
    expect(next.enrollments.pageInfo.hasNextPage).toBe(false);
    const page = await dataOf(s.admin, LIST, { page: 2, perPage: 2 });
    expect(nodeIds(page)).toEqual([e.q1.id]);
    expectCode(await s.admin.graphql(LIST, { first: 101 }), 'BAD_USER_INPUT');
  });

  it("given another school's student, class or product, when filtering, then NOT_FOUND", async () => {
    const foreign = await student(other);
    expectCode(await s.admin.graphql(LIST, { studentId: foreign.studentId }), 'NOT_FOUND');
    expectCode(await s.admin.graphql(LIST, { schoolProductId: await product(other) }), 'NOT_FOUND');
    expectCode(await s.admin.graphql(LIST, { courseClassId: await courseClass(other, await course(other)) }), 'NOT_FOUND');
  });

  it("given a student credential, then it sees only its own enrollments, everywhere", async () => {
    expect(nodeIds(await dataOf(p.client, LIST))).toEqual([e.p1.id, e.p2.id]);
    expect(nodeIds(await dataOf(p.client, LIST, { schoolProductId: cat.productId }))).toEqual([e.p1.id]);
    expectCode(await p.client.graphql(LIST, { studentId: q.studentId }), 'NOT_FOUND');
    expectCode(await p.client.graphql(ONE, { id: e.q1.id }), 'NOT_FOUND');
    expectCode(await p.client.graphql(ONE, { code: 'L-Q1' }), 'NOT_FOUND');
    const nested = await dataOf(p.client, graphql('query ($id: ID!) { schoolProduct(id: $id) { enrollments { totalCount nodes { id } } } }'), { id: cat.productId });
    expect(nested.schoolProduct.enrollments).toEqual({ totalCount: 1, nodes: [{ id: e.p1.id }] });
  });

  it('given enrollmentStatus, then active follows the status and the end of access; another student is NOT_FOUND', async () => {
    expect((await dataOf(s.admin, STATUS, { studentId: p.studentId, id: e.p1.id })).enrollmentStatus).toEqual({
      id: e.p1.id,
      studentId: p.studentId,
      status: 'active',
      active: true,
      unlimited: false,
      availableUntil: LATER,
    });
    expect((await dataOf(p.client, STATUS, { studentId: p.studentId, id: e.p2.id })).enrollmentStatus.active).toBe(false);
    expectCode(await s.admin.graphql(STATUS, { studentId: q.studentId, id: e.p1.id }), 'NOT_FOUND');
    expectCode(await q.client.graphql(STATUS, { studentId: p.studentId, id: e.p1.id }), 'NOT_FOUND');
  });

  it('given Student.enrollments and SchoolProduct.enrollments, then each is a connection of its enrollments', async () => {
    const data = await dataOf(
      s.admin,
      graphql(`query ($studentId: ID!, $productId: ID!) {
        student(id: $studentId) { id enrollments(first: 1) { totalCount nodes { id } pageInfo { hasNextPage } } }
        schoolProduct(id: $productId) { id enrollments { totalCount nodes { id student { id } } } }
      }`),
      { studentId: p.studentId, productId: cat.productId },
    );
    expect(data.student.enrollments).toEqual({ totalCount: 2, nodes: [{ id: e.p1.id }], pageInfo: { hasNextPage: true } });
    expect(data.schoolProduct.enrollments).toEqual({
      totalCount: 2,
      nodes: [
        { id: e.p1.id, student: { id: p.studentId } },
        { id: e.q1.id, student: { id: q.studentId } },
      ],
    });
  });
});

// =============================================================================================

describe('updateEnrollment', () => {
  let p: Person;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  beforeAll(async () => {
    p = await student(school);
    cat = await catalogue(school);
  });

  it('given an id, when updating, then the changes apply and activation sets activatedAt', async () => {
    const e = await enroll(p, cat.productId);
    const data = await dataOf(school.admin, UPDATE, { id: e.id, input: { status: 'active', courseClassIds: [cat.classIds[1]] } });
    expect(data.updateEnrollment.errors).toEqual([]);
    expect(data.updateEnrollment.enrollment).toMatchObject({ id: e.id, status: 'active', activatedAt: NOW, courseClassIds: [cat.classIds[1]] });
  });

  it('given a code, when updating, then that enrollment changes', async () => {
    const e = await enroll(p, cat.productId, { code: 'GQL-UPD' });
    const data = await dataOf(school.admin, UPDATE, { code: 'GQL-UPD', input: { status: 'canceled' } });
    expect(data.updateEnrollment.enrollment).toMatchObject({ id: e.id, status: 'canceled' });
  });

  it('given a change that makes it invalid, when updating, then errors and no change', async () => {
    const e = await enroll(p, cat.productId);
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: e.id, input: { maxAttendanceType: 'attempts', timeSpent: 9 } }));
    expect(res.data.updateEnrollment).toEqual({
      enrollment: null,
      errors: [
        { field: ['maxAttendanceLength'], code: 'blank', message: "can't be blank when max_attendance_type is attempts" },
        { field: ['timeSpent'], code: 'forbidden', message: 'can be written only with an app credential' },
      ],
    });
  });

  it("given another school's enrollment, when updating, then NOT_FOUND and untouched", async () => {
    const e = await enroll(p, cat.productId);
    expectCode(await expectNoWrite(() => other.admin.graphql(UPDATE, { id: e.id, input: { status: 'canceled' } })), 'NOT_FOUND');
  });

  it('given both id and code, when updating, then BAD_USER_INPUT', async () => {
    const e = await enroll(p, cat.productId, { code: 'GQL-BOTH' });
    expectCode(await expectNoWrite(() => school.admin.graphql(UPDATE, { id: e.id, code: 'GQL-BOTH', input: { status: 'canceled' } })), 'BAD_USER_INPUT');
  });
});

// =============================================================================================

describe('nested queries are batched', () => {
  const NESTED = graphql(`{ enrollments(first: 100) { nodes { id student { id } schoolProduct { id } courseClasses { id } } } }`);

  it('enrollments { student schoolProduct courseClasses } over 200 enrollments costs the same statements as over 2', async () => {
    // Given a school with 2 enrollments, in classes of their products' courses
    const s = await service.school('Batching School');
    const people = [await student(s), await student(s), await student(s)];
    const products = [await catalogue(s), await catalogue(s)];
    const item = (i: number) =>
      input(people[i % people.length], products[i % 2].productId, { courseClassIds: [products[i % 2].classIds[i % 2]] });
    const made = await dataOf(s.admin, BATCH, { inputs: [item(0), item(1)] });
    expect(made.createEnrollments.errors).toEqual([]);
    let small: any;
    const smallCount = await service.countStatements(async () => (small = await s.admin.graphql(NESTED)));
    expect(small.errors).toBeUndefined();
    expect(small.data.enrollments.nodes).toHaveLength(2);

    // When there are 200 (198 more, through the batch)
    const more = await dataOf(s.admin, BATCH, { inputs: Array.from({ length: 198 }, (_, i) => item(i + 2)) });
    expect(more.createEnrollments.errors).toEqual([]);
    expect(more.createEnrollments.enrollments).toHaveLength(198);
    let large: any;
    const largeCount = await service.countStatements(async () => (large = await s.admin.graphql(NESTED)));

    // Then the statements do not grow with the rows
    expect(large.errors).toBeUndefined();
    const nodes = large.data.enrollments.nodes;
    expect(nodes).toHaveLength(100);
    expect(nodes.every((n: any) => n.student?.id && n.schoolProduct?.id && n.courseClasses.length === 1)).toBe(true);
    expect(largeCount).toBe(smallCount);
    // credential, page, students, products, class ids, classes
    expect(largeCount).toBeLessThanOrEqual(6);
  });

  it('Student.enrollments and SchoolProduct.enrollments under a list cost a constant number of statements', async () => {
    const s = await service.school('Batching School 2');
    const cat = await catalogue(s);
    const query = graphql(`{ students(first: 100) { nodes { id enrollments { totalCount nodes { id registration { id } } } } }
      schoolProducts(first: 100) { nodes { id enrollments { totalCount nodes { id } } } } }`);
    const addStudents = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const who = await student(s);
        await enroll(who, cat.productId, {}, s.admin);
      }
    };
    await addStudents(2);
    const before = await service.countStatements(() => s.admin.graphql(query));
    await addStudents(6);
    let result: any;
    const after = await service.countStatements(async () => (result = await s.admin.graphql(query)));
    expect(result.errors).toBeUndefined();
    expect(result.data.students.nodes).toHaveLength(8);
    expect(result.data.schoolProducts.nodes.find((n: any) => n.id === cat.productId).enrollments.totalCount).toBe(8);
    expect(after).toBe(before);
  });
});
