import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { enrollments } from '../../src/modules/enrollments/enrollment.table.js';
import { BATCH, enrollmentGraphqlFixtures, expectCode, type GraphqlPerson as Person, LATER, LIST, ONE, STATUS } from '../support/enrollments.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { dataOf, graphql } from '../support/graphql.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of Enrollments: enrollment(id | code), enrollments(filters), enrollmentStatus, the
// relation fields and their batching. Fixtures: test/support/enrollments.fixtures.ts.

let service: Service;
let other: TestSchool;
const world = twoSchools('GraphQL Enrolling School', 'GraphQL Other School', (w) => ({ service, other } = w));
const { student, product, course, courseClass, catalogue, input, enroll } = enrollmentGraphqlFixtures(world);

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

describe('a list read with the columns its nodes ask for', () => {
  it('given plain fields, status and the relations asked, then the same nodes, students and products as a read of every column', async () => {
    const s = await service.school('Narrow Listing School');
    const [p, q] = [await student(s), await student(s)];
    const [first, second] = [await product(s), await product(s)];
    const made = [await enroll(p, first, { status: 'active' }, s.admin), await enroll(q, second, { status: 'pending' }, s.admin), await enroll(q, first, {}, s.admin)];
    // One ran out long ago: its status reads expired, which needs the columns status reads beyond its own.
    await service.db.update(enrollments).set({ availableUntil: new Date('2001-01-01T00:00:00Z'), unlimited: false }).where(eq(enrollments.id, Number(made[0].id)));
    const narrow = graphql(`{ enrollments(first: 10) { totalCount nodes { id status createdAt student { id fullName email } schoolProduct { id title } } } }`);
    const edges = graphql(`{ enrollments(first: 10) { edges { cursor node { id status createdAt student { id fullName email } schoolProduct { id title } } } } }`);
    // Fragments read every column.
    const full = graphql(`{ enrollments(first: 10) { totalCount nodes { ...E } } }
      fragment E on Enrollment { id status createdAt student { ...S } schoolProduct { ... on SchoolProduct { id title } } }
      fragment S on Student { id fullName email }`);
    const [narrowData, edgesData, fullData] = [await dataOf(s.admin, narrow), await dataOf(s.admin, edges), await dataOf(s.admin, full)];
    expect(narrowData).toEqual(fullData);
    expect(edgesData.enrollments.edges.map((e: any) => e.node)).toEqual(fullData.enrollments.nodes);
    expect(fullData.enrollments.nodes.map((n: any) => [n.id, n.status, n.student.id, n.schoolProduct.id])).toEqual([
      [made[0].id, 'expired', p.studentId, first],
      [made[1].id, 'pending', q.studentId, second],
      [made[2].id, made[2].status, q.studentId, first],
    ]);
    expect(narrowData.enrollments.nodes[0].student.email).toMatch(/@example\.com$/);
    // A student credential reads its own through the same fields.
    const own = await dataOf(p.client, narrow);
    expect(own.enrollments.nodes.map((n: any) => [n.id, n.student.id])).toEqual([[made[0].id, p.studentId]]);
    // The student and the product ride in the page's statement: the credential's and the page's (the fragments' read, two more).
    expect(await service.countStatements(() => s.admin.graphql(narrow))).toBe(2);
    expect(await service.countStatements(() => s.admin.graphql(full))).toBe(4);
    // Acting for the school, the platform reads the same; across schools, its page holds every school's rows with theirs.
    expect(await dataOf(service.platform.forSchool(s.id), narrow)).toEqual(fullData);
    const across = await dataOf(service.platform, graphql(`{ enrollments(first: 100) { nodes { id student { id fullName } schoolProduct { id title } } } }`));
    const acrossFull = await dataOf(service.platform, graphql(`{ enrollments(first: 100) { nodes { id student { ... on Student { id fullName } } schoolProduct { ... on SchoolProduct { id title } } } } }`));
    expect(across).toEqual(acrossFull);
    expect(across.enrollments.nodes.every((n: any) => n.student && n.schoolProduct)).toBe(true);
  });
});
