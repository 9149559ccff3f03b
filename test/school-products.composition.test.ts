import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { media } from '../src/modules/media/media.table.js';
import { schoolProductCourses, schoolProductPaths } from '../src/modules/school-products/school-product-content.table.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { users } from '../src/modules/users/user.table.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { twoSchools } from './support/world.js';

// Products composed of content (issue 13): course_ids / path_ids on create and update, the
// add / remove / move mutations and their REST rows, and the product's content routes after it.

let service: Service;
let school: TestSchool;
let other: TestSchool;

twoSchools('Composition School', 'Composition Other', (w) => ({ service, school, other } = w));

let serial = 0;

/** Asks GraphQL and expects no UserError; returns the payload's object. */
async function ok(client: Client, query: string, key: string, inner: string) {
  const res = await client.graphql(query);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data[key].errors, JSON.stringify(res.data[key].errors)).toEqual([]);
  return res.data[key][inner];
}

/** A course of the school with one module holding one lesson (whose media is `mediaId`), made over the API. */
async function course(s: TestSchool, mediaId?: number) {
  const n = ++serial;
  const c = await ok(s.admin, `mutation { createCourse(input: {name: "Course ${n}", description: "d"}) { course { id } errors { field code } } }`, 'createCourse', 'course');
  const m = await ok(
    s.admin,
    `mutation { createCourseModule(courseId: ${c.id}, input: {name: "Module ${n}", description: "d"}) { courseModule { id } errors { field code } } }`,
    'createCourseModule',
    'courseModule',
  );
  const media = mediaId ? `, mediaId: ${mediaId}` : '';
  const l = await ok(
    s.admin,
    `mutation { createLesson(input: {title: "Lesson ${n}", type: "Text", description: "d", courseModuleId: ${m.id}${media}}) { lesson { id } errors { field code } } }`,
    'createLesson',
    'lesson',
  );
  return { id: Number(c.id), lessonId: Number(l.id) };
}

async function path(s: TestSchool, courseIds: number[]) {
  const p = await ok(
    s.admin,
    `mutation { createPath(input: {name: "Path ${++serial}", description: "d", courseIds: [${courseIds.join(',')}]}) { path { id } errors { field code } } }`,
    'createPath',
    'path',
  );
  return Number(p.id);
}

async function mediaItem(s: TestSchool) {
  const [row] = await service.db.insert(media).values({ schoolId: s.id, title: `Media ${++serial}` }).returning();
  return row.id;
}

/** The composition as stored, in order. */
async function stored(productId: number) {
  const c = await service.db
    .select({ id: schoolProductCourses.courseId, position: schoolProductCourses.position })
    .from(schoolProductCourses)
    .where(eq(schoolProductCourses.schoolProductId, productId))
    .orderBy(asc(schoolProductCourses.position));
  const p = await service.db
    .select({ id: schoolProductPaths.pathId, position: schoolProductPaths.position })
    .from(schoolProductPaths)
    .where(eq(schoolProductPaths.schoolProductId, productId))
    .orderBy(asc(schoolProductPaths.position));
  // Positions stay dense: 0..n-1.
  expect(c.map((r) => r.position)).toEqual(c.map((_, i) => i));
  expect(p.map((r) => r.position)).toEqual(p.map((_, i) => i));
  return { courses: c.map((r) => r.id), paths: p.map((r) => r.id) };
}

const ids = (list: { id: number }[]) => list.map((r) => Number(r.id));

describe('course_ids and path_ids over REST', () => {
  it('composes a product from two courses and a path; the product and its content routes show it, in order', async () => {
    const m = await mediaItem(school);
    const [c1, c2, c3, c4] = [await course(school, m), await course(school), await course(school), await course(school)];
    const p = await path(school, [c3.id, c4.id]);
    const res = await school.admin.post('/school_products', { school_product: { title: 'Composed', course_ids: [c2.id, c1.id], path_ids: [p] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ course_ids: [c2.id, c1.id], path_ids: [p] });
    expect(await stored(res.body.id)).toEqual({ courses: [c2.id, c1.id], paths: [p] });

    const id = res.body.id;
    // The product's own courses first, then its path's: a course of a path in the product is its content.
    const listed = await school.admin.get(`/school_products/${id}/courses`);
    expect(listed.status, listed.text).toBe(200);
    expect(ids(listed.body)).toEqual([c2.id, c1.id, c3.id, c4.id]);
    const shown = await school.admin.get(`/school_products/${id}/courses/${c4.id}`);
    expect(shown.status, shown.text).toBe(200);
    const lessons = await school.admin.get(`/school_products/${id}/lessons`);
    expect(ids(lessons.body)).toEqual([c2.lessonId, c1.lessonId, c3.lessonId, c4.lessonId]);
    const mediaList = await school.admin.get(`/school_products/${id}/media`);
    expect(ids(mediaList.body)).toEqual([m]);
    const pathsListed = await school.admin.get(`/school_products/${id}/paths`);
    expect(ids(pathsListed.body)).toEqual([p]);
  });

  it('replaces the whole list on update: a new order, absent = unchanged, empty = cleared; forms too', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const [p1, p2] = [await path(school, [c3.id]), await path(school, [])];
    const created = await school.admin.post('/school_products', { school_product: { title: 'Replaced', course_ids: [c1.id, c2.id], path_ids: [p1, p2] } });
    const id = created.body.id;

    let res = await school.admin.put(`/school_products/${id}`, { school_product: { course_ids: [c3.id, c1.id] } });
    expect(res.status, res.text).toBe(200);
    expect(await stored(id)).toEqual({ courses: [c3.id, c1.id], paths: [p1, p2] });

    res = await school.admin.patch(`/school_products/${id}`, { school_product: { title: 'Renamed' } });
    expect(res.status, res.text).toBe(200);
    expect(await stored(id)).toEqual({ courses: [c3.id, c1.id], paths: [p1, p2] });

    res = await school.admin.request('PUT', `/school_products/${id}`, { school_product: { path_ids: [p2, p1], course_ids: [c2.id] } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(await stored(id)).toEqual({ courses: [c2.id], paths: [p2, p1] });

    res = await school.admin.request('PUT', `/school_products/${id}`, { school_product: { course_ids: [c1.id] } }, { encoding: 'multipart' });
    expect(res.status, res.text).toBe(200);
    expect(await stored(id)).toEqual({ courses: [c1.id], paths: [p2, p1] });

    res = await school.admin.put(`/school_products/${id}`, { school_product: { course_ids: [], path_ids: [] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ course_ids: [], path_ids: [] });
    expect(await stored(id)).toEqual({ courses: [], paths: [] });
    expect((await school.admin.get(`/school_products/${id}/courses`)).body).toEqual([]);
  });

  it("another school's or a missing id: 422 naming the field, and nothing is written", async () => {
    const own = await course(school);
    const foreign = await course(other);
    const foreignPath = await path(other, []);
    const ownPath = await path(school, []);
    const before = await service.db.select({ id: schoolProducts.id }).from(schoolProducts);

    let res = await school.admin.post('/school_products', { school_product: { title: 'Foreign', course_ids: [own.id, foreign.id], path_ids: [ownPath] } });
    expectFieldError(res, 422, 'course_ids', 'not_found');
    expect(res.body.errors.course_ids[0]).toContain(String(foreign.id));
    res = await school.admin.post('/school_products', { school_product: { title: 'Foreign', path_ids: [foreignPath, 99999999] } });
    expectFieldError(res, 422, 'path_ids', 'not_found');
    expect(await service.db.select({ id: schoolProducts.id }).from(schoolProducts)).toHaveLength(before.length);

    const created = await school.admin.post('/school_products', { school_product: { title: 'Kept', course_ids: [own.id], path_ids: [ownPath] } });
    const id = created.body.id;
    res = await school.admin.put(`/school_products/${id}`, { school_product: { title: 'Changed', course_ids: [foreign.id], path_ids: [] } });
    expectFieldError(res, 422, 'course_ids', 'not_found');
    expect(await stored(id)).toEqual({ courses: [own.id], paths: [ownPath] });
    const [row] = await service.db.select().from(schoolProducts).where(eq(schoolProducts.id, id));
    expect(row.title).toBe('Kept');
  });
});

describe('one link at a time over REST', () => {
  it('adds (idempotently, at a position), moves and removes courses and paths; positions stay dense', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const [p1, p2] = [await path(school, [c3.id]), await path(school, [])];
    const id = (await school.admin.post('/school_products', { school_product: { title: 'One by one' } })).body.id;
    const base = `/school_products/${id}`;

    let res = await school.admin.post(`${base}/courses`, { course_id: c1.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, course_ids: [c1.id] });
    await school.admin.post(`${base}/courses`, { course_id: c2.id });
    res = await school.admin.post(`${base}/courses`, { course_id: c3.id, position: 0 });
    expect(res.body.course_ids).toEqual([c3.id, c1.id, c2.id]);
    // Again: nothing changes, still a success.
    res = await school.admin.post(`${base}/courses`, { course_id: c3.id, position: 2 });
    expect(res.status, res.text).toBe(200);
    expect(await stored(id)).toMatchObject({ courses: [c3.id, c1.id, c2.id] });

    res = await school.admin.put(`${base}/courses/${c3.id}`, { position: 2 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.course_ids).toEqual([c1.id, c2.id, c3.id]);
    res = await school.admin.request('PATCH', `${base}/courses/${c2.id}`, { position: '0' }, { encoding: 'form' });
    expect(res.body.course_ids).toEqual([c2.id, c1.id, c3.id]);

    res = await school.admin.delete(`${base}/courses/${c1.id}`);
    expect(res.status, res.text).toBe(204);
    expect(await stored(id)).toMatchObject({ courses: [c2.id, c3.id] });
    expectFieldError(await school.admin.delete(`${base}/courses/${c1.id}`), 422, 'course_id', 'inclusion');
    expectFieldError(await school.admin.put(`${base}/courses/${c1.id}`, { position: 0 }), 422, 'course_id', 'inclusion');
    expectFieldError(await school.admin.put(`${base}/courses/${c2.id}`, { position: -1 }), 422, 'position');
    expectFieldError(await school.admin.put(`${base}/courses/${c2.id}`, {}), 422, 'position', 'blank');
    expectFieldError(await school.admin.post(`${base}/courses`, {}), 422, 'course_id', 'blank');

    await school.admin.post(`${base}/paths`, { path_id: p1 });
    res = await school.admin.post(`${base}/paths`, { path_id: p2, position: 0 });
    expect(res.body.path_ids).toEqual([p2, p1]);
    res = await school.admin.put(`${base}/paths/${p2}`, { position: 5 });
    expect(res.body.path_ids).toEqual([p1, p2]);
    expect((await school.admin.delete(`${base}/paths/${p1}`)).status).toBe(204);
    expect(await stored(id)).toEqual({ courses: [c2.id, c3.id], paths: [p2] });
  });

  it("another school's course or path, or another school's product: refused, nothing written", async () => {
    const foreign = await course(other);
    const foreignPath = await path(other, []);
    const id = (await school.admin.post('/school_products', { school_product: { title: 'Guarded' } })).body.id;
    expectFieldError(await school.admin.post(`/school_products/${id}/courses`, { course_id: foreign.id }), 422, 'course_id', 'not_found');
    expectFieldError(await school.admin.post(`/school_products/${id}/paths`, { path_id: foreignPath }), 422, 'path_id', 'not_found');
    expect(await stored(id)).toEqual({ courses: [], paths: [] });
    const own = await course(school);
    expectErrorBody(await other.admin.post(`/school_products/${id}/courses`, { course_id: own.id }), 404);
    expectErrorBody(await other.admin.post(`/school_products/${id}/courses`, { course_id: foreign.id }), 404);
    expect(await stored(id)).toEqual({ courses: [], paths: [] });
  });
});

describe('composition over GraphQL', () => {
  const FIELDS = 'schoolProduct { id courseIds pathIds courses { id } paths { id } } errors { field code message }';

  it('composes, reorders and clears through the input and the one-link mutations', async () => {
    const [c1, c2, c3] = [await course(school), await course(school), await course(school)];
    const p = await path(school, [c3.id]);
    let product = await ok(
      school.admin,
      `mutation { createSchoolProduct(input: {title: "GraphQL composed", courseIds: [${c1.id}, ${c2.id}], pathIds: [${p}]}) { ${FIELDS} } }`,
      'createSchoolProduct',
      'schoolProduct',
    );
    expect(product.courseIds.map(Number)).toEqual([c1.id, c2.id]);
    expect(ids(product.courses)).toEqual([c1.id, c2.id, c3.id]);
    expect(ids(product.paths)).toEqual([p]);
    const id = product.id;

    product = await ok(school.admin, `mutation { updateSchoolProduct(id: ${id}, input: {courseIds: [${c2.id}, ${c1.id}]}) { ${FIELDS} } }`, 'updateSchoolProduct', 'schoolProduct');
    expect(ids(product.courses)).toEqual([c2.id, c1.id, c3.id]);

    product = await ok(school.admin, `mutation { moveCourseInSchoolProduct(id: ${id}, courseId: ${c1.id}, position: 0) { ${FIELDS} } }`, 'moveCourseInSchoolProduct', 'schoolProduct');
    expect(product.courseIds.map(Number)).toEqual([c1.id, c2.id]);
    product = await ok(school.admin, `mutation { removeCourseFromSchoolProduct(id: ${id}, courseId: ${c2.id}) { ${FIELDS} } }`, 'removeCourseFromSchoolProduct', 'schoolProduct');
    expect(ids(product.courses)).toEqual([c1.id, c3.id]);
    product = await ok(school.admin, `mutation { addCourseToSchoolProduct(id: ${id}, courseId: ${c2.id}, position: 1) { ${FIELDS} } }`, 'addCourseToSchoolProduct', 'schoolProduct');
    expect(product.courseIds.map(Number)).toEqual([c1.id, c2.id]);
    product = await ok(school.admin, `mutation { addCourseToSchoolProduct(id: ${id}, courseId: ${c2.id}) { ${FIELDS} } }`, 'addCourseToSchoolProduct', 'schoolProduct');
    expect(product.courseIds.map(Number)).toEqual([c1.id, c2.id]);

    const p2 = await path(school, []);
    product = await ok(school.admin, `mutation { addPathToSchoolProduct(id: ${id}, pathId: ${p2}, position: 0) { ${FIELDS} } }`, 'addPathToSchoolProduct', 'schoolProduct');
    expect(product.pathIds.map(Number)).toEqual([p2, p]);
    product = await ok(school.admin, `mutation { movePathInSchoolProduct(id: ${id}, pathId: ${p2}, position: 1) { ${FIELDS} } }`, 'movePathInSchoolProduct', 'schoolProduct');
    expect(product.pathIds.map(Number)).toEqual([p, p2]);
    product = await ok(school.admin, `mutation { removePathFromSchoolProduct(id: ${id}, pathId: ${p}) { ${FIELDS} } }`, 'removePathFromSchoolProduct', 'schoolProduct');
    expect(ids(product.courses)).toEqual([c1.id, c2.id]);

    product = await ok(school.admin, `mutation { updateSchoolProduct(id: ${id}, input: {courseIds: [], pathIds: []}) { ${FIELDS} } }`, 'updateSchoolProduct', 'schoolProduct');
    expect(product).toMatchObject({ courseIds: [], pathIds: [], courses: [], paths: [] });
    expect(await stored(Number(id))).toEqual({ courses: [], paths: [] });
  });

  it('a foreign id is a UserError naming the field, with nothing written', async () => {
    const foreign = await course(other);
    const own = await course(school);
    const id = (await school.admin.post('/school_products', { school_product: { title: 'GraphQL guarded', course_ids: [own.id] } })).body.id;
    const res = await school.admin.graphql(`mutation { updateSchoolProduct(id: ${id}, input: {courseIds: [${foreign.id}]}) { ${FIELDS} } }`);
    expect(res.data.updateSchoolProduct.schoolProduct).toBeNull();
    expect(res.data.updateSchoolProduct.errors).toContainEqual(expect.objectContaining({ field: ['courseIds'], code: 'not_found' }));
    const add = await school.admin.graphql(`mutation { addCourseToSchoolProduct(id: ${id}, courseId: ${foreign.id}) { ${FIELDS} } }`);
    expect(add.data.addCourseToSchoolProduct.errors).toContainEqual(expect.objectContaining({ field: ['courseId'], code: 'not_found' }));
    expect(await stored(id)).toEqual({ courses: [own.id], paths: [] });
  });
});

describe('who may compose', () => {
  it('a student is forbidden to compose (GraphQL and REST); a collaborator may', async () => {
    const c = await course(school);
    const id = (await school.admin.post('/school_products', { school_product: { title: 'Roles' } })).body.id;
    const [person] = await service.db
      .insert(users)
      .values({ schoolId: school.id, type: 'Student', fullName: 'Composer', email: `composer${++serial}@example.com` })
      .returning();
    const student = await service.token('student', school.id, person.id);
    const res = await student.graphql(`mutation { addCourseToSchoolProduct(id: ${id}, courseId: ${c.id}) { errors { code } } }`);
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expectErrorBody(await student.post(`/school_products/${id}/courses`, { course_id: c.id }), 403);
    expectErrorBody(await student.put(`/school_products/${id}`, { school_product: { course_ids: [c.id] } }), 403);
    expect(await stored(id)).toEqual({ courses: [], paths: [] });

    const collaborator = await service.token('collaborator', school.id, school.adminId);
    const added = await collaborator.post(`/school_products/${id}/courses`, { course_id: c.id });
    expect(added.status, added.text).toBe(200);
    expect(await stored(id)).toEqual({ courses: [c.id], paths: [] });
  });
});
