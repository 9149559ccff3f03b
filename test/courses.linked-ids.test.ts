import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseModuleLinks } from '../src/modules/courses/course.table.js';
import { api, type Fixtures, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';

// A course read by id with its courseModulesIds reads the ids in the course's own statement (a
// subquery column, linked-ids.ts), priming the field's loader: one statement besides the credential's,
// the same ids in the same order as the field's own loader gives, and never another school's.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Linked Ids School', 'Linked Ids Other')));
afterAll(() => service?.stop());

const showDoc = 'query ($id: ID!) { course(id: $id) { id name courseModulesIds } }';
/** The list reads courseModulesIds through the field's own loader (moduleIdsOfCourse's statement). */
const listDoc = 'query { courses(first: 100) { nodes { id courseModulesIds } } }';

/** A course with modules linked at `positions` (ties broken by module id), straight into the link table. */
async function courseWith(positions: number[], client = school) {
  const course = await api(client.admin).course();
  const holder = await api(client.admin).course();
  const moduleIds: number[] = [];
  for (let i = 0; i < positions.length; i++) moduleIds.push((await api(client.admin).module(holder.id)).id);
  await service.db.insert(courseModuleLinks).values(moduleIds.map((courseModuleId, i) => ({ schoolId: client.id, courseId: course.id, courseModuleId, position: positions[i] })));
  return { course, moduleIds };
}

/** What a credential alone costs (its statements, if any) on a request that reads nothing else. */
async function credentialStatements(client = school.admin) {
  return service.countStatements(() => dataOf(client, graphql('{ __typename }'), {}));
}

describe('a course by id with its courseModulesIds', () => {
  it('REST GET /courses/:id and GraphQL course(id){ courseModulesIds } take one statement, the ids in the order of the loader', async () => {
    // Given a course whose links tie on positions (then ordered by module id) and are not in insertion order
    const { course, moduleIds } = await courseWith([2, 0, 1, 0]);
    const expected = await f.moduleIdsOf(course.id);
    expect(expected).toHaveLength(4);
    expect(expected[0]).toBe(Math.min(moduleIds[1], moduleIds[3]));
    const credential = await credentialStatements();

    // When it is read through REST
    let rest: any;
    const restCount = await service.countStatements(async () => {
      rest = await school.admin.get(`/courses/${course.id}`);
    });
    // Then one statement besides the credential's, and the ids in the course's order
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.course_modules_ids).toEqual(expected);
    expect(restCount - credential).toBe(1);

    // And through GraphQL the same
    let data: any;
    const gqlCount = await service.countStatements(async () => {
      data = await dataOf(school.admin, graphql(showDoc), { id: String(course.id) });
    });
    expect(data.course.courseModulesIds).toEqual(expected.map(String));
    expect(gqlCount - credential).toBe(1);

    // And the field's own loader (the list's) gives the same ids in the same order
    const list = await dataOf(school.admin, graphql(listDoc), {});
    expect(list.courses.nodes.find((n: any) => n.id === String(course.id))!.courseModulesIds).toEqual(expected.map(String));
  });

  it('a course without modules reads an empty list; without courseModulesIds asked, still one statement', async () => {
    const course = await make.course();
    const credential = await credentialStatements();
    let data: any;
    expect(
      (await service.countStatements(async () => {
        data = await dataOf(school.admin, graphql(showDoc), { id: String(course.id) });
      })) - credential,
    ).toBe(1);
    expect(data.course.courseModulesIds).toEqual([]);
    expect(
      (await service.countStatements(() => dataOf(school.admin, graphql('query ($id: ID!) { course(id: $id) { id name } }'), { id: String(course.id) }))) - credential,
    ).toBe(1);
  });

  it("another school's course is not found, and its links never show in this school's reads", async () => {
    // Given a course of each school with modules
    const mine = await courseWith([0, 1]);
    const theirs = await courseWith([0, 1, 2], other);

    // When this school asks for the other's course, then 404 (REST) and not found (GraphQL)
    const rest = await school.admin.get(`/courses/${theirs.course.id}`);
    expect(rest.status).toBe(404);
    expect(rest.body.course_modules_ids).toBeUndefined();
    const res: any = await school.admin.graphql(showDoc, { id: String(theirs.course.id) });
    expect(res.data?.course ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(JSON.stringify(res)).not.toContain('courseModulesIds');

    // And each school reads only its own course's ids
    expect((await school.admin.get(`/courses/${mine.course.id}`)).body.course_modules_ids).toEqual(await f.moduleIdsOf(mine.course.id));
    expect((await other.admin.get(`/courses/${theirs.course.id}`)).body.course_modules_ids).toEqual(await f.moduleIdsOf(theirs.course.id));
    const together = await dataOf(school.admin, graphql('query ($a: ID!) { course(id: $a) { courseModulesIds } }'), { a: String(mine.course.id) });
    for (const id of theirs.moduleIds) expect(together.course.courseModulesIds).not.toContain(String(id));
  });

  it("a student reads the ids of its enrollment's course in one statement of the course (the scope's own besides)", async () => {
    // Given a student enrolled in a product offering the course
    const { course } = await courseWith([1, 0, 2]);
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    const { id: enrollmentId, student } = await f.enrollment(school, product.id);
    const expected = await f.moduleIdsOf(course.id);

    // When the student reads the course through its enrollment, by REST and GraphQL
    const rest = await student.get(`/enrollments/${enrollmentId}/courses/${course.id}`);
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.course_modules_ids).toEqual(expected);
    const data = await dataOf(student, graphql('query ($id: ID!, $e: ID) { course(id: $id, enrollmentId: $e) { id courseModulesIds } }'), {
      id: String(course.id),
      e: String(enrollmentId),
    });
    expect(data.course.courseModulesIds).toEqual(expected.map(String));

    // Then asking for the ids costs no statement more than asking for the course alone
    const withIds = await service.countStatements(() =>
      dataOf(student, graphql('query ($id: ID!, $e: ID) { course(id: $id, enrollmentId: $e) { id courseModulesIds } }'), { id: String(course.id), e: String(enrollmentId) }),
    );
    const without = await service.countStatements(() =>
      dataOf(student, graphql('query ($id: ID!, $e: ID) { course(id: $id, enrollmentId: $e) { id } }'), { id: String(course.id), e: String(enrollmentId) }),
    );
    expect(withIds).toBe(without);
  });

  it("the same holds for another type's linked ids: a product's courseIds and pathIds by id take one statement, in the product's order", async () => {
    const [c1, c2, c3] = [await make.course(), await make.course(), await make.course()];
    const product = await f.product(school);
    await f.offer(product.id, [c1.id, c2.id, c3.id], [2, 0, 1]);
    const path = await f.pathOf(school, [c1.id], product.id);
    const credential = await credentialStatements();
    const doc = 'query ($id: ID!) { schoolProduct(id: $id) { id courseIds pathIds } }';
    let data: any;
    const count = await service.countStatements(async () => {
      data = await dataOf(school.admin, graphql(doc), { id: String(product.id) });
    });
    expect(data.schoolProduct).toEqual({ id: String(product.id), courseIds: [c2.id, c3.id, c1.id].map(String), pathIds: [String(path.id)] });
    expect(count - credential).toBe(1);
    // The list reads them through the fields' own loaders: the same ids
    const list = await dataOf(school.admin, graphql('{ schoolProducts(first: 100) { nodes { id courseIds pathIds } } }'), {});
    expect(list.schoolProducts.nodes.find((n: any) => n.id === String(product.id))).toEqual(data.schoolProduct);
  });
});
