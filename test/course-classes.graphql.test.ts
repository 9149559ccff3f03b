import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { courseClasses } from '../src/modules/course-classes/course-class.table.js';
import { courses } from '../src/modules/courses/course.table.js';
import { users } from '../src/modules/users/user.table.js';
import { type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';
import { twoSchools } from './support/world.js';

// GraphQL face of CourseClass: courseClass(id | code), courseClasses(courseId), the mutations with
// UserError payloads and the main-class rule, CourseClass.course, Course.classes, and batching.

let service: Service;
let school: TestSchool;
let other: TestSchool;

twoSchools('Classes GraphQL', 'Classes GraphQL Other', (w) => ({ service, school, other } = w));

let serial = 0;
async function course(s: TestSchool, name = `Course ${++serial}`): Promise<number> {
  const [row] = await service.db.insert(courses).values({ schoolId: s.id, name }).returning();
  return row.id;
}
async function mainsOf(courseId: number) {
  const rows = await service.db
    .select({ id: courseClasses.id })
    .from(courseClasses)
    .where(and(eq(courseClasses.courseId, courseId), eq(courseClasses.main, true)));
  return rows.map((r) => String(r.id));
}

const FIELDS = 'id schoolId courseId code startAt endAt main';
const ERRORS = 'errors { field code message }';
const CREATE = `mutation ($courseId: ID!, $input: CourseClassInput!) { createCourseClass(courseId: $courseId, input: $input) { courseClass { ${FIELDS} } ${ERRORS} } }`;
const UPDATE = `mutation ($id: ID, $code: String, $input: CourseClassInput!) { updateCourseClass(id: $id, code: $code, input: $input) { courseClass { ${FIELDS} } ${ERRORS} } }`;
const DELETE = `mutation ($id: ID, $code: String) { deleteCourseClass(id: $id, code: $code) { courseClass { id code } ${ERRORS} } }`;
const SHOW = `query ($id: ID, $code: String) { courseClass(id: $id, code: $code) { ${FIELDS} course { id name } } }`;
const LIST = graphql(`query ($courseId: ID) { courseClasses(courseId: $courseId, first: 100) { totalCount nodes { id courseId } } }`);

async function createClass(courseId: number, input: Record<string, unknown> = {}, s: TestSchool = school) {
  const res = await s.admin.graphql(CREATE, { courseId: String(courseId), input: { code: `G-${++serial}`, ...input } });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.createCourseClass.errors).toEqual([]);
  return res.data.createCourseClass.courseClass;
}
function expectCode(res: { errors?: any[] }, code: string) {
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe(code);
}

describe('courseClass and courseClasses', () => {
  it('finds a class by id or by code, with its course; both or neither is BAD_USER_INPUT; another school is NOT_FOUND', async () => {
    const courseId = await course(school, 'Chemistry');
    const created = await createClass(courseId, { code: 'GQL-FIND' });
    const byId = await school.admin.graphql(SHOW, { id: created.id });
    expect(byId.data.courseClass).toEqual({ ...created, course: { id: String(courseId), name: 'Chemistry' } });
    expect((await school.admin.graphql(SHOW, { code: 'GQL-FIND' })).data.courseClass.id).toBe(created.id);
    expectCode(await school.admin.graphql(SHOW, { id: created.id, code: 'GQL-FIND' }), 'BAD_USER_INPUT');
    expectCode(await school.admin.graphql(SHOW, {}), 'BAD_USER_INPUT');
    const theirs = await createClass(await course(other), { code: 'GQL-THEIRS' }, other);
    expectCode(await school.admin.graphql(SHOW, { id: theirs.id }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(SHOW, { code: 'GQL-THEIRS' }), 'NOT_FOUND');
  });

  it("lists the school's classes or a course's; another school's course is NOT_FOUND", async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const a = [await createClass(c1), await createClass(c1)];
    await createClass(c2);
    const res = await school.admin.graphql(LIST, { courseId: String(c1) });
    expect(res.data.courseClasses).toEqual({ totalCount: 2, nodes: a.map((x) => ({ id: x.id, courseId: String(c1) })) });
    expect((await school.admin.graphql(LIST, {})).data.courseClasses.totalCount).toBeGreaterThanOrEqual(3);
    expectCode(await school.admin.graphql(LIST, { courseId: String(await course(other)) }), 'NOT_FOUND');
  });
});

describe('createCourseClass, updateCourseClass, deleteCourseClass', () => {
  it('keeps one main class per course: a new main unsets the old one, on create and on update by code', async () => {
    const courseId = await course(school);
    const first = await createClass(courseId, { main: true, startAt: '2026-02-01T00:00:00Z', endAt: '2026-02-02T00:00:00Z' });
    expect(first).toMatchObject({ main: true, startAt: '2026-02-01T00:00:00.000Z', endAt: '2026-02-02T00:00:00.000Z' });
    const second = await createClass(courseId, { main: true });
    expect(await mainsOf(courseId)).toEqual([second.id]);
    const moved = await school.admin.graphql(UPDATE, { code: first.code, input: { main: true } });
    expect(moved.data.updateCourseClass).toMatchObject({ errors: [], courseClass: { id: first.id, main: true } });
    expect(await mainsOf(courseId)).toEqual([first.id]);
    // null counts as false.
    expect((await school.admin.graphql(UPDATE, { id: first.id, input: { main: null } })).data.updateCourseClass.courseClass.main).toBe(false);
    expect(await mainsOf(courseId)).toEqual([]);
  });

  it('returns UserErrors for end before start and for a taken code, and writes nothing', async () => {
    const courseId = await course(school);
    const existing = await createClass(courseId, { startAt: '2026-03-01T00:00:00Z' });
    const before = await service.db.select().from(courseClasses);
    const bad = await school.admin.graphql(CREATE, { courseId: String(courseId), input: { startAt: '2026-03-01T00:00:00Z', endAt: '2026-02-01T00:00:00Z' } });
    expect(bad.data.createCourseClass).toEqual({ courseClass: null, errors: [{ field: ['endAt'], code: 'greater_than', message: 'must be after start_at' }] });
    const badUpdate = await school.admin.graphql(UPDATE, { id: existing.id, input: { endAt: '2026-02-01T00:00:00Z' } });
    expect(badUpdate.data.updateCourseClass.errors).toEqual([expect.objectContaining({ field: ['endAt'] })]);
    const taken = await school.admin.graphql(UPDATE, { id: existing.id, input: { code: (await createClass(courseId)).code } });
    expect(taken.data.updateCourseClass.errors).toEqual([expect.objectContaining({ field: ['code'], code: 'taken' })]);
    expect(await service.db.select().from(courseClasses).where(eq(courseClasses.courseId, courseId))).toHaveLength(before.filter((c) => c.courseId === courseId).length + 1);
  });

  it("is NOT_FOUND for another school's course or class; a student is FORBIDDEN to read or write classes, staff reads", async () => {
    expectCode(await school.admin.graphql(CREATE, { courseId: String(await course(other)), input: { code: 'x' } }), 'NOT_FOUND');
    const theirs = await createClass(await course(other), {}, other);
    expectCode(await school.admin.graphql(UPDATE, { id: theirs.id, input: { code: 'x' } }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(DELETE, { code: theirs.code }), 'NOT_FOUND');
    const n = ++serial;
    const [user] = await service.db
      .insert(users)
      .values({ schoolId: school.id, type: 'Student', fullName: `Student ${n}`, email: `gql-class-student${n}@example.com` })
      .returning();
    const student = await service.token('student', school.id, user.id);
    // courseClasses are STAFF_READ: a student reaches its classes through its enrollments.
    const mine = await createClass(await course(school));
    for (const res of [
      await student.graphql(SHOW, { id: mine.id }),
      await student.graphql(SHOW, { id: theirs.id }),
      await student.graphql(LIST, {}),
    ]) {
      expectCode(res, 'FORBIDDEN');
      expect(res.data?.courseClass ?? res.data?.courseClasses ?? null).toBeNull();
    }
    expectCode(await student.graphql(CREATE, { courseId: String(await course(school)), input: {} }), 'FORBIDDEN');
    for (const role of ['collaborator', 'app'] as const) {
      const staff = await service.token(role, school.id);
      const res = await staff.graphql(SHOW, { id: mine.id });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      expect(res.data.courseClass.id).toBe(mine.id);
      expectCode(await staff.graphql(SHOW, { id: theirs.id }), 'NOT_FOUND');
    }
  });

  it('deletes by id or by code and returns the class', async () => {
    const courseId = await course(school);
    const [a, b] = [await createClass(courseId), await createClass(courseId)];
    expect((await school.admin.graphql(DELETE, { id: a.id })).data.deleteCourseClass).toEqual({ errors: [], courseClass: { id: a.id, code: a.code } });
    expect((await school.admin.graphql(DELETE, { code: b.code })).data.deleteCourseClass.courseClass.id).toBe(b.id);
    expectCode(await school.admin.graphql(DELETE, { id: a.id }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(DELETE, {}), 'BAD_USER_INPUT');
  });
});

describe('Course.classes and batching', () => {
  it("Course.classes lists the course's classes", async () => {
    const courseId = await course(school);
    const [a, b] = [await createClass(courseId), await createClass(courseId, { main: true })];
    const res = await school.admin.graphql(`query ($id: ID!) { course(id: $id) { classes { id main } } }`, { id: String(courseId) });
    expect(res.errors).toBeUndefined();
    expect(res.data.course.classes).toEqual([{ id: a.id, main: false }, { id: b.id, main: true }]);
  });

  it('courseClasses { course { classes } } costs the same number of statements for many classes as for one', async () => {
    const s = await service.school('Batching classes');
    const query = graphql(`{ courseClasses(first: 100) { nodes { id course { id classes { id } } } } }`);
    await createClass(await course(s), {}, s);
    const one = await service.countStatements(() => s.admin.graphql(query));
    const made = await service.db
      .insert(courses)
      .values(Array.from({ length: 15 }, (_, i) => ({ schoolId: s.id, name: `Bulk ${i}` })))
      .returning();
    await service.db.insert(courseClasses).values(made.flatMap((c) => [0, 1].map(() => ({ schoolId: s.id, courseId: c.id }))));
    let large: any;
    const many = await service.countStatements(async () => {
      large = await s.admin.graphql(query);
    });
    expect(large.errors).toBeUndefined();
    expect(large.data.courseClasses.nodes).toHaveLength(31);
    expect(large.data.courseClasses.nodes.every((n: any) => n.course.classes.some((c: any) => c.id === n.id))).toBe(true);
    expect(many).toBe(one);
  });
});
