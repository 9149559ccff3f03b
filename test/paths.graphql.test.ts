import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { courseModuleLinks, courseModules, lessons } from '../src/modules/courses/course.table.js';
import { pathCourses, paths } from '../src/modules/paths/path.table.js';
import { next } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { graphql, type ReplyOf } from './support/graphql.js';
import { pathFixtures } from './support/paths.fixtures.js';
import { twoSchools } from './support/world.js';

// GraphQL face of Path: path / paths with their scopes, the mutations with UserError payloads,
// the fields Path.courses / Path.courseIds / SchoolProduct.paths / Enrollment.paths, and batching.

let service: Service;
let school: TestSchool;
let other: TestSchool;

twoSchools('Paths GraphQL', 'Paths GraphQL Other', (w) => ({ service, school, other } = w));

// ---------------------------------------------------------------------------------------------
// Fixtures (test/support/paths.fixtures.ts) and operations.

const { course, product, enrollment, seedPaths } = pathFixtures(() => service);

const PATH_FIELDS = graphql(`fragment PathFields on Path { id schoolId name description imageUrl code courseIds courses { id name } }`);
const CREATE = graphql(`mutation ($input: CreatePathInput!) { createPath(input: $input) { path { ...PathFields } errors { field code message } } }`, [PATH_FIELDS]);
const UPDATE = graphql(`mutation ($id: ID!, $input: UpdatePathInput!) { updatePath(id: $id, input: $input) { path { ...PathFields } errors { field code message } } }`, [PATH_FIELDS]);
const DELETE = graphql(`mutation ($id: ID!) { deletePath(id: $id) { path { id name } errors { field code message } } }`);
const ADD = graphql(`mutation ($id: ID!, $courseId: ID, $input: PathCourseInput) { addCourseToPath(id: $id, courseId: $courseId, input: $input) { path { id courseIds } errors { field code message } } }`);
const REMOVE = graphql(`mutation ($id: ID!, $courseId: ID, $input: PathCourseInput) { removeCourseFromPath(id: $id, courseId: $courseId, input: $input) { path { id courseIds } errors { field code message } } }`);
const SHOW = graphql(`query ($id: ID!, $schoolProductId: ID, $enrollmentId: ID) { path(id: $id, schoolProductId: $schoolProductId, enrollmentId: $enrollmentId) { ...PathFields } }`, [PATH_FIELDS]);
const LIST = graphql(`query ($schoolProductId: ID, $enrollmentId: ID, $first: Int) { paths(schoolProductId: $schoolProductId, enrollmentId: $enrollmentId, first: $first) { totalCount nodes { id courseIds } } }`);

async function createPath(input: Record<string, unknown> = {}, s: TestSchool = school) {
  const res = await s.admin.graphql(CREATE, { input: { name: `Path ${next()}`, description: 'd', ...input } });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.createPath.errors).toEqual([]);
  return res.data.createPath.path;
}
function expectCode(res: { errors?: { extensions?: { code?: unknown } }[] }, code: string) {
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe(code);
}
const idsOf = (list: { id: string }[]) => list.map((x) => Number(x.id));

// =============================================================================================

describe('createPath, updatePath, deletePath', () => {
  it('creates a path with its courses in order and returns it in the payload', async () => {
    const [c1, c2] = [await course(school, 'Alpha'), await course(school, 'Beta')];
    const path = await createPath({ name: 'Track', imageUrl: 'https://x.example.com/i.png', code: 'TRACK', courseIds: [String(c2), String(c1)] });
    expect(path).toMatchObject({ schoolId: String(school.id), name: 'Track', imageUrl: 'https://x.example.com/i.png', code: 'TRACK', courseIds: [String(c2), String(c1)] });
    expect(path.courses).toEqual([{ id: String(c2), name: 'Beta' }, { id: String(c1), name: 'Alpha' }]);
  });

  it('returns UserErrors and writes nothing for a missing name, description, a foreign course or a taken code', async () => {
    await createPath({ code: 'GQL-TAKEN' });
    const before = await service.db.select().from(paths);
    const blank = await school.admin.graphql(CREATE, { input: { name: ' ' } });
    expect(blank.data.createPath.path).toBeNull();
    expect(blank.data.createPath.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: ['name'], code: 'blank' }), expect.objectContaining({ field: ['description'], code: 'blank' })]),
    );
    const foreign = await school.admin.graphql(CREATE, { input: { name: 'x', description: 'd', courseIds: [String(await course(other))] } });
    expect(foreign.data.createPath.errors).toEqual([expect.objectContaining({ field: ['courseIds'], code: 'not_found' })]);
    const taken = await school.admin.graphql(CREATE, { input: { name: 'x', description: 'd', code: 'GQL-TAKEN' } });
    expect(taken.data.createPath.errors).toEqual([expect.objectContaining({ field: ['code'], code: 'taken' })]);
    expect(await service.db.select().from(paths)).toEqual(before);
  });

  it('updates the name and description; a cleared one is a UserError; another school is NOT_FOUND', async () => {
    const path = await createPath();
    const res = await school.admin.graphql(UPDATE, { id: path.id, input: { name: 'New name' } });
    expect(res.data.updatePath).toMatchObject({ errors: [], path: { id: path.id, name: 'New name', description: 'd' } });
    const cleared = await school.admin.graphql(UPDATE, { id: path.id, input: { description: '' } });
    expect(cleared.data.updatePath.errors).toEqual([expect.objectContaining({ field: ['description'], code: 'blank' })]);
    // The update input has no other fields: the spec writes name and description only.
    expectCode(await school.admin.graphql(UPDATE, { id: path.id, input: { code: 'x' } }), 'BAD_USER_INPUT');
    const theirs = await createPath({}, other);
    expectCode(await school.admin.graphql(UPDATE, { id: theirs.id, input: { name: 'x' } }), 'NOT_FOUND');
  });

  it('deletes a path and returns it; again is NOT_FOUND; a student is FORBIDDEN', async () => {
    const path = await createPath();
    const res = await school.admin.graphql(DELETE, { id: path.id });
    expect(res.data.deletePath).toMatchObject({ errors: [], path: { id: path.id } });
    expectCode(await school.admin.graphql(DELETE, { id: path.id }), 'NOT_FOUND');
    const { studentId } = await enrollment(school, await product(school));
    const student = await service.token('student', school.id, studentId);
    const mine = await createPath();
    expectCode(await student.graphql(DELETE, { id: mine.id }), 'FORBIDDEN');
    expectCode(await student.graphql(CREATE, { input: { name: 'x', description: 'd' } }), 'FORBIDDEN');
  });
});

describe('addCourseToPath and removeCourseFromPath', () => {
  it('takes the course as courseId or as input.courseId; adding twice changes nothing; removing keeps the order', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const path = await createPath();
    expect((await school.admin.graphql(ADD, { id: path.id, courseId: String(c1) })).data.addCourseToPath).toEqual({ errors: [], path: { id: path.id, courseIds: [String(c1)] } });
    expect((await school.admin.graphql(ADD, { id: path.id, input: { courseId: String(c2) } })).data.addCourseToPath.path.courseIds).toEqual([String(c1), String(c2)]);
    expect((await school.admin.graphql(ADD, { id: path.id, courseId: String(c3) })).data.addCourseToPath.path.courseIds).toEqual([String(c1), String(c2), String(c3)]);
    const again = await school.admin.graphql(ADD, { id: path.id, courseId: String(c1) });
    expect(again.data.addCourseToPath).toEqual({ errors: [], path: { id: path.id, courseIds: [String(c1), String(c2), String(c3)] } });
    const removed = await school.admin.graphql(REMOVE, { id: path.id, input: { courseId: String(c2) } });
    expect(removed.data.removeCourseFromPath).toEqual({ errors: [], path: { id: path.id, courseIds: [String(c1), String(c3)] } });
    const positions = await service.db.select().from(pathCourses).where(eq(pathCourses.pathId, Number(path.id))).orderBy(asc(pathCourses.position));
    expect(positions.map((p) => p.courseId)).toEqual([c1, c3]);
  });

  it('returns UserErrors for no course, a foreign course, and removing a course the path lacks', async () => {
    const path = await createPath();
    const none = await school.admin.graphql(ADD, { id: path.id });
    expect(none.data.addCourseToPath).toEqual({ path: null, errors: [expect.objectContaining({ field: ['courseId'], code: 'blank' })] });
    const foreign = await school.admin.graphql(ADD, { id: path.id, courseId: String(await course(other)) });
    expect(foreign.data.addCourseToPath.errors).toEqual([expect.objectContaining({ field: ['courseId'], code: 'not_found' })]);
    const missing = await school.admin.graphql(REMOVE, { id: path.id, courseId: String(await course(school)) });
    expect(missing.data.removeCourseFromPath).toEqual({ path: null, errors: [{ field: ['courseId'], code: 'inclusion', message: 'is not a course of this path' }] });
    const theirs = await createPath({}, other);
    expectCode(await school.admin.graphql(ADD, { id: theirs.id, courseId: String(await course(school)) }), 'NOT_FOUND');
  });
});

describe('path and paths, in their scopes', () => {
  it('path(id) shows a path of the school; another school or a path outside the scope is NOT_FOUND', async () => {
    const [inside, outside] = [await createPath(), await createPath()];
    const productId = await product(school, [Number(inside.id)]);
    expect((await school.admin.graphql(SHOW, { id: inside.id })).data.path.id).toBe(inside.id);
    expect((await school.admin.graphql(SHOW, { id: inside.id, schoolProductId: String(productId) })).data.path.id).toBe(inside.id);
    expectCode(await school.admin.graphql(SHOW, { id: outside.id, schoolProductId: String(productId) }), 'NOT_FOUND');
    const active = await enrollment(school, productId);
    const pending = await enrollment(school, productId, { status: 'pending' });
    expect((await school.admin.graphql(SHOW, { id: inside.id, enrollmentId: String(active.id) })).data.path.id).toBe(inside.id);
    expectCode(await school.admin.graphql(SHOW, { id: inside.id, enrollmentId: String(pending.id) }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(SHOW, { id: (await createPath({}, other)).id }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(SHOW, { id: inside.id, schoolProductId: String(await product(other)) }), 'NOT_FOUND');
  });

  it('paths lists the school, a product, or an active enrollment', async () => {
    const [p1, p2] = [await createPath(), await createPath()];
    const productId = await product(school, [Number(p2.id), Number(p1.id)]);
    const inProduct = (await school.admin.graphql(LIST, { schoolProductId: String(productId) })).data.paths;
    expect(inProduct.totalCount).toBe(2);
    expect(idsOf(inProduct.nodes)).toEqual([Number(p2.id), Number(p1.id)]);
    const active = await enrollment(school, productId);
    expect((await school.admin.graphql(LIST, { enrollmentId: String(active.id) })).data.paths.totalCount).toBe(2);
    const expired = await enrollment(school, productId, { unlimited: false, availableUntil: new Date('2020-01-01T00:00:00Z') });
    expect((await school.admin.graphql(LIST, { enrollmentId: String(expired.id) })).data.paths).toEqual({ totalCount: 0, nodes: [] });
    const all = (await school.admin.graphql(LIST, { first: 100 })).data.paths;
    expect(idsOf(all.nodes)).toEqual(expect.arrayContaining([Number(p1.id), Number(p2.id)]));
    expectCode(await school.admin.graphql(LIST, { enrollmentId: '999999' }), 'NOT_FOUND');
  });
});

describe('the relation fields', () => {
  it("SchoolProduct.paths follows the product's order; Enrollment.paths is empty unless the enrollment is active", async () => {
    const [p1, p2, p3] = [await createPath(), await createPath(), await createPath()];
    const productId = await product(school, [Number(p3.id), Number(p1.id), Number(p2.id)]);
    const res = await school.admin.graphql(graphql(`query ($id: ID!) { schoolProduct(id: $id) { paths { id courseIds } } }`), { id: String(productId) });
    expect(res.errors).toBeUndefined();
    expect(idsOf(res.data.schoolProduct.paths)).toEqual([Number(p3.id), Number(p1.id), Number(p2.id)]);

    const ENROLLMENT = graphql(`query ($id: ID!) { enrollment(id: $id) { paths { id } } }`);
    const active = await enrollment(school, productId);
    expect(idsOf((await school.admin.graphql(ENROLLMENT, { id: String(active.id) })).data.enrollment.paths)).toEqual([Number(p3.id), Number(p1.id), Number(p2.id)]);
    const pending = await enrollment(school, productId, { status: 'pending' });
    expect((await school.admin.graphql(ENROLLMENT, { id: String(pending.id) })).data.enrollment.paths).toEqual([]);
  });

  it("Path.courses follows the path's order and never shows another school's course", async () => {
    const [c1, c2] = [await course(school), await course(school)];
    const path = await createPath({ courseIds: [String(c2), String(c1)] });
    // A link to another school's course: its foreign key carries the school (sharding by school), so none can be written.
    const theirs = await course(other);
    await expect(service.db.insert(pathCourses).values({ schoolId: school.id, pathId: Number(path.id), courseId: theirs, position: 5 })).rejects.toThrow();
    const res = await school.admin.graphql(SHOW, { id: path.id });
    expect(idsOf(res.data.path.courses)).toEqual([c2, c1]);
  });

  it("a path read through an enrollment keeps the enrollment's release rules for its courses' lessons", async () => {
    const courseId = await course(school);
    const [module] = await service.db.insert(courseModules).values({ schoolId: school.id, name: 'M' }).returning();
    await service.db.insert(courseModuleLinks).values({ schoolId: school.id, courseId, courseModuleId: module.id });
    const [released, later] = await service.db
      .insert(lessons)
      .values([
        { schoolId: school.id, courseModuleId: module.id, title: 'Now', type: 'Text', position: 0 },
        { schoolId: school.id, courseModuleId: module.id, title: 'Later', type: 'Text', position: 1, releaseAfter: 30 },
      ])
      .returning();
    const path = await createPath({ courseIds: [String(courseId)] });
    const productId = await product(school, [Number(path.id)]);
    const active = await enrollment(school, productId);
    const nested = graphql(`fragment PathLessons on Path { courses { modules { lessons { id locked } } } }`);
    const viaEnrollment = await school.admin.graphql(graphql(`query ($id: ID!) { enrollment(id: $id) { paths { ...PathLessons } } }`, [nested]), { id: String(active.id) });
    expect(viaEnrollment.errors).toBeUndefined();
    // Through the enrollment, the lesson not released yet is listed locked.
    const marked = [{ id: String(released.id), locked: false }, { id: String(later.id), locked: true }];
    expect(viaEnrollment.data.enrollment.paths[0].courses[0].modules[0].lessons).toEqual(marked);
    const viaScopedShow = await school.admin.graphql(graphql(`query ($id: ID!, $e: ID) { path(id: $id, enrollmentId: $e) { ...PathLessons } }`, [nested]), {
      id: path.id,
      e: String(active.id),
    });
    expect(viaScopedShow.data.path.courses[0].modules[0].lessons).toEqual(marked);
    // Staff reading the path itself see every lesson.
    const direct = await school.admin.graphql(graphql(`query ($id: ID!) { path(id: $id) { ...PathLessons } }`, [nested]), { id: path.id });
    expect(idsOf(direct.data.path.courses[0].modules[0].lessons)).toEqual([released.id, later.id]);
  });
});

describe('Course.paths in a scope', () => {
  it("read through a product or an enrollment, a course shows only that product's paths; read alone, all of them", async () => {
    const courseId = await course(school);
    const [offered, elsewhere] = [await createPath({ courseIds: [String(courseId)] }), await createPath({ courseIds: [String(courseId)] })];
    const productId = await product(school, [Number(offered.id)]);
    const active = await enrollment(school, productId);
    const query = graphql(`query ($p: ID, $e: ID) { courses(schoolProductId: $p, enrollmentId: $e) { nodes { id paths { id } } } }`);
    const viaProduct = await school.admin.graphql(query, { p: String(productId) });
    expect(viaProduct.errors).toBeUndefined();
    expect(idsOf(viaProduct.data.courses.nodes.find((c) => Number(c.id) === courseId)!.paths)).toEqual([Number(offered.id)]);
    const viaEnrollment = await school.admin.graphql(query, { e: String(active.id) });
    expect(idsOf(viaEnrollment.data.courses.nodes.find((c) => Number(c.id) === courseId)!.paths)).toEqual([Number(offered.id)]);
    const alone = await school.admin.graphql(graphql(`query ($id: ID!) { course(id: $id) { paths { id } } }`), { id: String(courseId) });
    expect(idsOf(alone.data.course.paths).sort((a, b) => a - b)).toEqual([Number(offered.id), Number(elsewhere.id)].sort((a, b) => a - b));
  });
});

describe('batching', () => {
  it('paths { courses { id } } costs the same number of statements for 30 paths as for 1', async () => {
    const s = await service.school('Batching paths');
    const query = graphql(`query ($first: Int) { paths(first: $first) { nodes { id courseIds courses { id } } } }`);
    await seedPaths(s, 1, 3);
    let small!: ReplyOf<typeof query>;
    const one = await service.countStatements(async () => {
      small = await s.admin.graphql(query, { first: 100 });
    });
    expect(small.errors).toBeUndefined();
    expect(small.data.paths.nodes).toHaveLength(1);
    expect(small.data.paths.nodes[0].courses).toHaveLength(3);

    await seedPaths(s, 29, 3);
    let large!: ReplyOf<typeof query>;
    const many = await service.countStatements(async () => {
      large = await s.admin.graphql(query, { first: 100 });
    });
    expect(large.errors).toBeUndefined();
    expect(large.data.paths.nodes).toHaveLength(30);
    expect(large.data.paths.nodes.every((p) => p.courses.length === 3 && p.courseIds.length === 3)).toBe(true);
    expect(many).toBe(one);
  });

  it('schoolProducts { paths { courses } } costs the same for many products as for one', async () => {
    const s = await service.school('Batching products');
    const query = graphql(`{ schoolProducts(first: 100) { nodes { id paths { id courses { id } } } } }`);
    const [first] = await seedPaths(s, 1, 2);
    await product(s, [first]);
    const one = await service.countStatements(() => s.admin.graphql(query));
    for (let i = 0; i < 10; i++) await product(s, await seedPaths(s, 2, 2));
    let large!: ReplyOf<typeof query>;
    const many = await service.countStatements(async () => {
      large = await s.admin.graphql(query);
    });
    expect(large.data.schoolProducts.nodes).toHaveLength(11);
    expect(large.data.schoolProducts.nodes.flatMap((p) => p.paths.flatMap((x) => x.courses))).toHaveLength(42);
    expect(many).toBe(one);
  });
});
