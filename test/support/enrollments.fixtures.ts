import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { courseClasses } from '../../src/modules/course-classes/course-class.table.js';
import { courses } from '../../src/modules/courses/course.table.js';
import { enrollmentCourseClasses, enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { schoolProductCourses } from '../../src/modules/school-products/school-product-content.table.js';
import { countOf, expectNoWrite as expectNoWriteOf, fingerprint } from './fingerprint.js';
import { dataOf, graphql } from './graphql.js';
import type { Client, TestSchool } from './service.js';
import type { World } from './world.js';

/**
 * The enrollments family's fixtures, for its REST and GraphQL tests (test/enrollments/). Students and
 * registrations through the API (GraphQL: they have no REST route), school products through the face
 * under test; courses, their product links and course classes (no API yet) with drizzle. The world is
 * read when a fixture runs. The service clock stands at 2026-01-15T12:00:00Z.
 */

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;
export const NOW = '2026-01-15T12:00:00.000Z';
export const LATER = '2026-12-31T00:00:00.000Z';

/** A student with a registration, and a student credential bound to this student (REST ids are numbers). */
export interface Person {
  studentId: number;
  registrationId: number;
  /** A student credential bound to this student. */
  client: Client;
}

/** The REST face's fixtures and reads. */
export function enrollmentRestFixtures(world: World) {
  let serial = 0;

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
    return { studentId, registrationId: Number(registered.createRegistration.registration.id), client: await world.service.token('student', s.id, studentId) };
  }

  async function product(s: TestSchool): Promise<number> {
    const res = await s.admin.post('/school_products', { school_product: { title: `Product ${++serial}` } });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  async function course(s: TestSchool, productId?: number): Promise<number> {
    const [row] = await world.service.db.insert(courses).values({ schoolId: s.id, name: `Course ${++serial}` }).returning();
    if (productId) await world.service.db.insert(schoolProductCourses).values({ schoolId: s.id, schoolProductId: productId, courseId: row.id });
    return row.id;
  }

  async function courseClass(s: TestSchool, courseId: number): Promise<number> {
    const [row] = await world.service.db.insert(courseClasses).values({ schoolId: s.id, courseId, code: `class-${++serial}` }).returning();
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

  async function enroll(p: Person, productId: number, fields: Record<string, unknown> = {}, client: Client = world.school.admin) {
    const res = await client.post('/enrollments', { enrollment: body(p, productId, fields) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }

  async function row(id: number) {
    const [r] = await world.service.db.select().from(enrollments).where(eq(enrollments.id, id));
    return r;
  }
  async function classesOf(id: number) {
    const links = await world.service.db
      .select({ id: enrollmentCourseClasses.courseClassId })
      .from(enrollmentCourseClasses)
      .where(eq(enrollmentCourseClasses.enrollmentId, id));
    return links.map((l) => l.id).sort((a, b) => a - b);
  }
  async function eventsOf(id: number) {
    const rows = await world.service.db
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.subjectType, 'Enrollment'), eq(domainEvents.subjectId, id)))
      .orderBy(asc(domainEvents.id));
    return rows.map((e) => e.name);
  }
  /** Every row this family writes, to prove a refused request wrote nothing. */
  const snapshot = fingerprint(() => world.service, { enrollments, links: enrollmentCourseClasses, events: countOf(domainEvents) });
  const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

  return { student, product, course, courseClass, catalogue, body, enroll, row, classesOf, eventsOf, expectNoWrite };
}

export type RestCatalogue = Awaited<ReturnType<ReturnType<typeof enrollmentRestFixtures>['catalogue']>>;

// ---------------------------------------------------------------------------------------------
// The GraphQL face: ids are strings; invalid input is payload data, the rest execution errors.

export const FIELDS = `id schoolId registrationId studentId schoolProductId maxAttendanceType maxAttendanceLength status
  availableUntil activatedAt unlimited code timeSpent courseClassIds createdAt updatedAt`;
export const CREATE = `mutation ($input: EnrollmentInput!) { createEnrollment(input: $input) { enrollment { ${FIELDS} } errors { field code message } } }`;
export const BATCH = `mutation ($inputs: [EnrollmentInput!]!) { createEnrollments(inputs: $inputs) { enrollments { ${FIELDS} } errors { field code message } } }`;
export const UPDATE = `mutation ($id: ID, $code: String, $input: EnrollmentInput!) {
  updateEnrollment(id: $id, code: $code, input: $input) { enrollment { ${FIELDS} } errors { field code message } }
}`;
export const ONE = `query ($id: ID, $code: String) { enrollment(id: $id, code: $code) { ${FIELDS} } }`;
export const LIST = graphql(`query ($studentId: ID, $courseClassId: ID, $schoolProductId: ID, $status: EnrollmentStatus, $first: Int, $after: String, $page: Int, $perPage: Int) {
  enrollments(studentId: $studentId, courseClassId: $courseClassId, schoolProductId: $schoolProductId, status: $status, first: $first, after: $after, page: $page, perPage: $perPage) {
    totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`);
export const STATUS = graphql('query ($studentId: ID!, $id: ID!) { enrollmentStatus(studentId: $studentId, id: $id) { id studentId status active unlimited availableUntil } }');
export const CREATE_REGISTRATION = graphql(`mutation ($input: RegistrationInput!) {
  createRegistration(input: $input) { registration { id schoolId studentId status createdAt updatedAt } errors { field code message } }
}`);

export interface GraphqlPerson {
  studentId: string;
  registrationId: string;
  client: Client;
}

/** An execution error of one code, with nothing internal in it. */
export function expectCode(res: { errors?: any[] }, code: string) {
  expect(res.errors, JSON.stringify(res)).toHaveLength(1);
  expect(res.errors![0].extensions.code).toBe(code);
  expect(JSON.stringify(res.errors)).not.toMatch(/\bselect\b.*\bfrom\b|insert into|\.ts:\d+|node_modules/i);
}

/** The GraphQL face's fixtures: students through createStudent, registrations through createRegistration, products through createSchoolProduct. */
export function enrollmentGraphqlFixtures(world: World) {
  type Person = GraphqlPerson;
  let serial = 0;

  async function newStudent(s: TestSchool): Promise<string> {
    const n = ++serial;
    const data = await dataOf(s.admin, graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } } }'), {
      input: { fullName: `Student ${n}`, email: `gql-student${n}@example.com` },
    });
    return data.createStudent.student.id;
  }
  async function student(s: TestSchool): Promise<Person> {
    const studentId = await newStudent(s);
    const data = await dataOf(s.admin, CREATE_REGISTRATION, { input: { studentId } });
    expect(data.createRegistration.errors).toEqual([]);
    return { studentId, registrationId: data.createRegistration.registration.id, client: await world.service.token('student', s.id, Number(studentId)) };
  }
  async function product(s: TestSchool): Promise<string> {
    const data = await dataOf(s.admin, graphql('mutation ($input: SchoolProductInput!) { createSchoolProduct(input: $input) { schoolProduct { id } } }'), {
      input: { title: `Product ${++serial}` },
    });
    return data.createSchoolProduct.schoolProduct.id;
  }
  async function course(s: TestSchool, productId?: string): Promise<number> {
    const [row] = await world.service.db.insert(courses).values({ schoolId: s.id, name: `Course ${++serial}` }).returning();
    if (productId) await world.service.db.insert(schoolProductCourses).values({ schoolId: s.id, schoolProductId: Number(productId), courseId: row.id });
    return row.id;
  }
  async function courseClass(s: TestSchool, courseId: number): Promise<string> {
    const [row] = await world.service.db.insert(courseClasses).values({ schoolId: s.id, courseId, code: `gql-class-${++serial}` }).returning();
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
  async function enroll(p: Person, productId: string, fields: Record<string, unknown> = {}, client: Client = world.school.admin) {
    const data = await dataOf(client, CREATE, { input: input(p, productId, fields) });
    expect(data.createEnrollment.errors).toEqual([]);
    return data.createEnrollment.enrollment;
  }

  const snapshot = fingerprint(() => world.service, { enrollments, links: enrollmentCourseClasses, registrations, events: countOf(domainEvents) });
  const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

  return { newStudent, student, product, course, courseClass, catalogue, input, enroll, expectNoWrite };
}
