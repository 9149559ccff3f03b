import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, examQuestionOptions, examQuestions } from '../src/modules/activities/activity.table.js';
import { courseModuleLinks, courseModules, courses, lessons } from '../src/modules/courses/course.table.js';
import { schoolProductCourses } from '../src/modules/school-products/school-product-content.table.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { api, type Fixtures, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';

// GraphQL face of Course, CourseModule and Lesson: queries with their scopes, mutations with
// UserError payloads, relation fields through loaders, and the statement count of nested content.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('GraphQL Courses', 'GraphQL Courses Other')));
afterAll(() => service?.stop());

const numbers = (list: { id: string }[]) => list.map((x) => Number(x.id));

describe('queries', () => {
  it('course, courses (a connection with cursors), courseModule, courseModules(courseId), lesson, lessons(courseModuleId)', async () => {
    const course = await make.course({ name: 'Q course', code: 'QC' });
    await make.course({ name: 'Q course 2' });
    const [m1, m2] = [await make.module(course.id), await make.module(course.id)];
    const [l2, l1] = [await make.lesson({ course_module_id: m1.id, position: 2 }), await make.lesson({ course_module_id: m1.id, position: 1 })];
    const data = await dataOf(
      school.admin,
      graphql(`query ($id: ID!, $m: ID!, $l: ID!) {
        course(id: $id) { id name code courseModulesIds }
        courses(first: 1) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } }
        courseModule(id: $m) { id name }
        courseModules(courseId: $id) { totalCount nodes { id } }
        lesson(id: $l) { id title position courseModuleId }
        lessons(courseModuleId: $m) { nodes { id } }
      }`),
      { id: String(course.id), m: String(m1.id), l: String(l1.id) },
    );
    expect(data.course).toEqual({ id: String(course.id), name: 'Q course', code: 'QC', courseModulesIds: [String(m1.id), String(m2.id)] });
    expect(data.courses.edges).toHaveLength(1);
    expect(data.courses.pageInfo.hasNextPage).toBe(true);
    expect(data.courseModule.id).toBe(String(m1.id));
    expect(numbers(data.courseModules.nodes)).toEqual([m1.id, m2.id]);
    expect(data.lesson).toMatchObject({ id: String(l1.id), position: 1, courseModuleId: String(m1.id) });
    expect(numbers(data.lessons.nodes)).toEqual([l1.id, l2.id]);
  });

  it("walks a product's courses page by page with first/after in the product's order", async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await make.course()).id);
    const product = await f.product(school);
    await f.offer(product.id, made, [4, 3, 2, 1, 0]);
    const expected = [...made].reverse();
    const seen: number[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const data: any = await dataOf(school.admin, graphql(`query ($p: ID!, $after: String) { courses(schoolProductId: $p, first: 2, after: $after) { totalCount nodes { id } pageInfo { hasNextPage endCursor } } }`), {
        p: String(product.id),
        after,
      });
      expect(data.courses.totalCount).toBe(5);
      seen.push(...numbers(data.courses.nodes));
      if (!data.courses.pageInfo.hasNextPage) break;
      after = data.courses.pageInfo.endCursor;
    }
    expect(seen).toEqual(expected);
  });

  it("scopes: a course outside the product is NOT_FOUND; another school's course too", async () => {
    const inside = await make.course();
    const outside = await make.course();
    const product = await f.product(school);
    await f.offer(product.id, [inside.id]);
    const ok = await dataOf(school.admin, `query { course(id: "${inside.id}", schoolProductId: "${product.id}") { id } }`);
    expect(ok.course.id).toBe(String(inside.id));
    const out = await school.admin.graphql(`query { course(id: "${outside.id}", schoolProductId: "${product.id}") { id } }`);
    expect(out.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const foreign = await api(other.admin).course();
    const theirs = await school.admin.graphql(`query { course(id: "${foreign.id}") { id } }`);
    expect(theirs.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('mutations', () => {
  it('createCourse, updateCourse and deleteCourse, with UserErrors for invalid input', async () => {
    const m = await make.module((await make.course()).id);
    const created = await dataOf(school.admin, graphql(`mutation ($input: CourseInput!) { createCourse(input: $input) { errors { field code } course { id name courseModulesIds modules { id } } } }`), {
      input: { name: 'GQL', courseModulesIds: [String(m.id)], duration: 2 },
    });
    expect(created.createCourse.errors).toEqual([]);
    const id = created.createCourse.course.id;
    expect(created.createCourse.course).toMatchObject({ name: 'GQL', courseModulesIds: [String(m.id)], modules: [{ id: String(m.id) }] });

    const invalid = await dataOf(school.admin, graphql(`mutation { createCourse(input: { name: "", duration: -1 }) { errors { field code } course { id } } }`));
    expect(invalid.createCourse.course).toBeNull();
    expect(invalid.createCourse.errors).toEqual(
      expect.arrayContaining([
        { field: ['name'], code: 'blank' },
        { field: ['duration'], code: 'greater_than_or_equal_to' },
      ]),
    );

    await make.course({ code: 'GQL-TAKEN' });
    const taken = await dataOf(school.admin, graphql(`mutation ($id: ID!) { updateCourse(id: $id, input: { code: "GQL-TAKEN" }) { errors { field code } } }`), { id });
    expect(taken.updateCourse.errors).toEqual([{ field: ['code'], code: 'taken' }]);

    const updated = await dataOf(school.admin, graphql(`mutation ($id: ID!) { updateCourse(id: $id, input: { name: "GQL 2", courseModulesIds: [] }) { errors { code } course { name courseModulesIds } } }`), { id });
    expect(updated.updateCourse.course).toEqual({ name: 'GQL 2', courseModulesIds: [] });

    const deleted = await dataOf(school.admin, graphql(`mutation ($id: ID!) { deleteCourse(id: $id) { errors { code } course { id } } }`), { id });
    expect(deleted.deleteCourse.course.id).toBe(id);
    expect(await f.courseRow(Number(id))).toBeUndefined();
  });

  it('createCourseModule appends to the course; updateCourseModule, deleteCourseModule', async () => {
    const course = await make.course();
    const first = await make.module(course.id);
    const created = await dataOf(school.admin, graphql(`mutation ($c: ID!) { createCourseModule(courseId: $c, input: { name: "N", description: "D" }) { errors { code } courseModule { id name } } }`), {
      c: String(course.id),
    });
    const id = Number(created.createCourseModule.courseModule.id);
    expect(await f.moduleIdsOf(course.id)).toEqual([first.id, id]);
    const blank = await dataOf(school.admin, graphql(`mutation ($c: ID!) { createCourseModule(courseId: $c, input: { name: "N" }) { errors { field code } } }`), { c: String(course.id) });
    expect(blank.createCourseModule.errors).toEqual([{ field: ['description'], code: 'blank' }]);
    const updated = await dataOf(school.admin, `mutation { updateCourseModule(id: "${id}", input: { name: "N2" }) { courseModule { name description } } }`);
    expect(updated.updateCourseModule.courseModule).toEqual({ name: 'N2', description: 'D' });
    await dataOf(school.admin, `mutation { deleteCourseModule(id: "${id}") { errors { code } } }`);
    expect(await f.moduleIdsOf(course.id)).toEqual([first.id]);
    const foreign = await school.admin.graphql(`mutation { createCourseModule(courseId: "${(await api(other.admin).course()).id}", input: { name: "x", description: "y" }) { errors { code } } }`);
    expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('createLesson, updateLesson, deleteLesson, with UserErrors', async () => {
    const m = await make.module((await make.course()).id);
    const picture = await f.mediaItem(school);
    const created = await dataOf(
      school.admin,
      graphql(`mutation ($input: LessonInput!) { createLesson(input: $input) { errors { code } lesson { id title releaseAt module { id } media { id title } } } }`),
      { input: { title: 'L', type: 'Video', courseModuleId: String(m.id), mediaId: String(picture.id), releaseAt: '2026-05-01T00:00:00Z' } },
    );
    const lesson = created.createLesson.lesson;
    expect(lesson).toMatchObject({ title: 'L', module: { id: String(m.id) }, media: { id: String(picture.id), title: picture.title } });
    const invalid = await dataOf(school.admin, graphql(`mutation { createLesson(input: { title: "x", type: "", minGrade: -1 }) { errors { field code } lesson { id } } }`));
    expect(invalid.createLesson.errors).toEqual(expect.arrayContaining([{ field: ['type'], code: 'blank' }, { field: ['minGrade'], code: 'greater_than_or_equal_to' }]));
    const updated = await dataOf(school.admin, `mutation { updateLesson(id: "${lesson.id}", input: { releaseAfter: 4, mediaId: null }) { lesson { releaseAfter media { id } } } }`);
    expect(updated.updateLesson.lesson).toEqual({ releaseAfter: 4, media: null });
    await dataOf(school.admin, `mutation { deleteLesson(id: "${lesson.id}") { errors { code } } }`);
    expect(await f.lessonRow(Number(lesson.id))).toBeUndefined();
  });

  it('refuses a student (FORBIDDEN) and a missing credential (UNAUTHENTICATED)', async () => {
    const student = await f.studentClient(school);
    const res = await student.graphql(`mutation { createCourse(input: { name: "x" }) { errors { code } } }`);
    expect(res.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const anon = await service.anonymous.graphql(`query { courses { nodes { id } } }`);
    expect(anon.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('fields', () => {
  it('Course.modules and CourseModule.lessons in order, Lesson.module, Course.paths, SchoolProduct.courses', async () => {
    const course = await make.course();
    const [m1, m2] = [await make.module(course.id), await make.module(course.id)];
    await school.admin.put(`/courses/${course.id}`, { course: { course_modules_ids: [m2.id, m1.id] } });
    const [a, b] = [await make.lesson({ course_module_id: m1.id, position: 9 }), await make.lesson({ course_module_id: m1.id, position: 3 })];
    const direct = await make.course();
    const product = await f.product(school);
    await f.offer(product.id, [direct.id]);
    const path = await f.pathOf(school, [course.id], product.id);
    const data = await dataOf(
      school.admin,
      graphql(`query ($c: ID!, $l: ID!, $p: ID!) {
        course(id: $c) { modules { id lessons { id } } paths { id } }
        lesson(id: $l) { module { id } }
        schoolProduct(id: $p) { courses { id } }
      }`),
      { c: String(course.id), l: String(a.id), p: String(product.id) },
    );
    expect(data.course.modules.map((m) => Number(m.id))).toEqual([m2.id, m1.id]);
    expect(numbers(data.course.modules[1].lessons)).toEqual([b.id, a.id]);
    expect(numbers(data.course.paths)).toEqual([path.id]);
    expect(data.lesson.module.id).toBe(String(m1.id));
    expect(numbers(data.schoolProduct.courses)).toEqual([direct.id, course.id]);
  });

  it("CourseModule.lessons reads only the columns asked for, and answers as a read of every column does", async () => {
    // Given a module with two lessons, one with a description and a release date
    const course = await make.course();
    const module = await make.module(course.id);
    const at = '2030-01-02T03:04:05.000Z';
    await make.lesson({ course_module_id: module.id, position: 2, title: 'Second', description: 'Two', release_at: at });
    await make.lesson({ course_module_id: module.id, position: 1, title: 'First' });
    const ask = async (fields: string) =>
      (await dataOf(school.admin, `query ($m: ID!) { courseModule(id: $m) { lessons { ${fields} } } }`, { m: String(module.id) })).courseModule.lessons;

    // When plain fields are asked (the second run is the compiled one), alone and beside fields that compute
    const narrow = `__typename id title position`;
    const first = await ask(narrow);
    const compiled = await ask(narrow);
    const full = await ask(`${narrow} type description releaseAt createdAt module { id } locked`);

    // Then each reply holds what a read of every column gives
    expect(compiled).toEqual(first);
    expect(first).toEqual(full.map((l: any) => ({ __typename: 'Lesson', id: l.id, title: l.title, position: l.position })));
    expect(full.map((l: any) => [l.title, l.description, l.releaseAt, l.module.id, l.locked])).toEqual([
      ['First', null, null, String(module.id), false],
      ['Second', 'Two', at, String(module.id), false],
    ]);
    expect(await ask('title description')).toEqual([
      { title: 'First', description: null },
      { title: 'Second', description: 'Two' },
    ]);
    expect(await ask('... on Lesson { title } id')).toEqual(full.map((l: any) => ({ title: l.title, id: l.id })));
  });

  it('Course.modules reads only the columns asked for (the id for the lessons), and answers as a read of every column does', async () => {
    const course = await make.course();
    const [m1, m2] = [await make.module(course.id), await make.module(course.id)];
    await make.lesson({ course_module_id: m2.id, position: 1, title: 'In the second' });
    const ask = async (fields: string) =>
      (await dataOf(school.admin, `query ($c: ID!) { course(id: $c) { modules { ${fields} } } }`, { c: String(course.id) })).course.modules;
    const narrow = await ask('id name lessons { title }');
    const compiled = await ask('id name lessons { title }');
    const full = await ask('... on CourseModule { id name description createdAt lessons { title } }');
    expect(compiled).toEqual(narrow);
    expect(narrow).toEqual(full.map((m: any) => ({ id: m.id, name: m.name, lessons: m.lessons })));
    expect(full.map((m: any) => [m.id, m.lessons.map((l: any) => l.title)])).toEqual([[String(m1.id), []], [String(m2.id), ['In the second']]]);
    expect(full.every((m: any) => typeof m.description === 'string' && typeof m.createdAt === 'string')).toBe(true);
  });

  it("SchoolProduct.courses reads only the columns asked for (the id for the modules), and answers as a read of every column does, in its school alone, for staff and for a student", async () => {
    // Given a product with a course of its own (a module, a lesson) and one through a path, and another school's product and course
    const own = await make.course({ name: 'Own', code: `OWN-${Date.now()}`, description: 'Mine' });
    const viaPath = await make.course({ name: 'Via path' });
    const module = await make.module(own.id);
    await make.lesson({ course_module_id: module.id, title: 'Only lesson' });
    const product = await f.product(school);
    await f.offer(product.id, [own.id]);
    await f.pathOf(school, [viaPath.id], product.id, 1);
    const foreignCourse = await api(other.admin).course({ name: 'Foreign' });
    const foreignProduct = await f.product(other);
    await f.offer(foreignProduct.id, [foreignCourse.id]);
    const fields = 'id name code modules { id name lessons { title } }';
    // A fragment reads every column.
    const read = async (client: typeof school.admin, productId: number, narrow: boolean) => {
      const { data, errors } = await client.graphql(`query ($p: ID!) { schoolProduct(id: $p) { courses { ${narrow ? fields : `... on Course { ${fields} }`} } } }`, {
        p: String(productId),
      });
      return { data, errors };
    };
    const same = async (client: typeof school.admin, productId: number) => {
      const [narrow, compiled, full] = [await read(client, productId, true), await read(client, productId, true), await read(client, productId, false)];
      expect(compiled).toEqual(narrow);
      expect(narrow).toEqual(full);
      return narrow;
    };

    // Then staff read the same courses, in the product's order
    const mine = await same(school.admin, product.id);
    expect(mine.errors).toBeUndefined();
    expect(mine.data.schoolProduct.courses).toEqual([
      { id: String(own.id), name: 'Own', code: own.code, modules: [{ id: String(module.id), name: module.name, lessons: [{ title: 'Only lesson' }] }] },
      { id: String(viaPath.id), name: 'Via path', code: null, modules: [] },
    ]);
    // And beside fields that compute or read other columns, the same rows
    const full = await dataOf(school.admin, `query ($p: ID!) { schoolProduct(id: $p) { courses { ${fields} description createdAt paths { id } } } }`, { p: String(product.id) });
    expect(full.schoolProduct.courses.map(({ description: _d, createdAt: _c, paths: _p, ...c }: any) => c)).toEqual(mine.data.schoolProduct.courses);
    expect(full.schoolProduct.courses[0].description).toBe('Mine');

    // And another school's rows never appear: its product is not found to this school, its own is its own
    const crossed = await same(school.admin, foreignProduct.id);
    expect(JSON.stringify(crossed)).not.toContain('Foreign');
    const theirs = await same(other.admin, foreignProduct.id);
    expect(theirs.data.schoolProduct.courses).toEqual([{ id: String(foreignCourse.id), name: 'Foreign', code: null, modules: [] }]);
    expect(JSON.stringify(await same(other.admin, product.id))).not.toMatch(/Own|Via path|Only lesson/);
    // And the platform across schools reads each product's own courses
    expect((await same(service.platform, foreignProduct.id)).data.schoolProduct.courses.map((c: any) => c.id)).toEqual([String(foreignCourse.id)]);

    // And a student enrolled in the product reads what a read of every column gives it
    const { student } = await f.enrollment(school, product.id);
    await same(student, product.id);
    await same(student, foreignProduct.id);
  });

  it('Enrollment.courses and Enrollment.lessons (a lesson not released yet is locked)', async () => {
    const course = await make.course();
    const m = await make.module(course.id);
    const open = await make.lesson({ course_module_id: m.id });
    const later = await make.lesson({ course_module_id: m.id, release_after: 2 });
    const product = await f.product(school);
    await f.offer(product.id, [course.id]);
    const enrollment = await f.enrollment(school, product.id);
    const data = await dataOf(enrollment.student, `query { enrollment(id: "${enrollment.id}") { courses { id modules { lessons { id locked } } } lessons { id locked } } }`);
    expect(numbers(data.enrollment.courses)).toEqual([course.id]);
    const marked = [{ id: String(open.id), locked: false }, { id: String(later.id), locked: true }];
    expect(data.enrollment.lessons).toEqual(marked);
    expect(data.enrollment.courses[0].modules[0].lessons).toEqual(marked);
  });
});

/** `size` products × `size` courses × `size` modules × `size` lessons, each lesson with an activity of 1 question of 2 options. */
async function seed(target: TestSchool, size: number) {
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  const products = await service.db
    .insert(schoolProducts)
    .values(range(size).map((i) => ({ schoolId: target.id, title: `P${i}` })))
    .returning();
  const made = await service.db
    .insert(courses)
    .values(products.flatMap((p) => range(size).map((i) => ({ schoolId: target.id, name: `${p.title} C${i}` }))))
    .returning();
  await service.db.insert(schoolProductCourses).values(made.map((c, i) => ({ schoolId: target.id, schoolProductId: products[Math.floor(i / size)].id, courseId: c.id, position: i % size })));
  const mods = await service.db
    .insert(courseModules)
    .values(made.flatMap((c) => range(size).map((i) => ({ schoolId: target.id, name: `${c.name} M${i}` }))))
    .returning();
  await service.db.insert(courseModuleLinks).values(mods.map((m, i) => ({ schoolId: target.id, courseId: made[Math.floor(i / size)].id, courseModuleId: m.id, position: i % size })));
  const les = await service.db
    .insert(lessons)
    .values(mods.flatMap((m) => range(size).map((i) => ({ schoolId: target.id, courseModuleId: m.id, position: i, title: `L${i}`, type: 'Video' }))))
    .returning();
  const acts = await service.db
    .insert(activities)
    .values(les.map((l) => ({ schoolId: target.id, title: 'A', type: 'Exam', showComments: 'always' as const, examLessonId: l.id })))
    .returning();
  const questions = await service.db
    .insert(examQuestions)
    .values(acts.map((a) => ({ schoolId: target.id, activityId: a.id, title: 'Q' })))
    .returning();
  await service.db.insert(examQuestionOptions).values(questions.flatMap((q) => [0, 1].map((p) => ({ schoolId: target.id, examQuestionId: q.id, position: p, title: `O${p}` }))));
}

describe('nested content is batched', () => {
  const nested = graphql(`query {
    schoolProducts(first: 100) { nodes { id courses { id modules { id lessons { id activities { id questions { id options { id } } } } } } } }
  }`);

  it('schoolProducts { courses { modules { lessons { activities { questions { options } } } } } } costs the same for 5×5×5×5 as for 1×1×1×1', async () => {
    const small = await service.school('Batch small');
    const large = await service.school('Batch large');
    await seed(small, 1);
    await seed(large, 5);

    let smallData: any;
    const smallCount = await service.countStatements(async () => {
      smallData = await dataOf(small.admin, nested);
    });
    let largeData: any;
    const largeCount = await service.countStatements(async () => {
      largeData = await dataOf(large.admin, nested);
    });

    const lessonsOf = (data: any) => data.schoolProducts.nodes.flatMap((p: any) => p.courses.flatMap((c: any) => c.modules.flatMap((m: any) => m.lessons)));
    expect(lessonsOf(smallData)).toHaveLength(1);
    expect(lessonsOf(largeData)).toHaveLength(625);
    expect(largeData.schoolProducts.nodes.every((p: any) => p.courses.length === 5 && p.courses.every((c: any) => c.modules.length === 5))).toBe(true);
    const options = lessonsOf(largeData).flatMap((l: any) => l.activities.flatMap((a: any) => a.questions.flatMap((q: any) => q.options)));
    expect(options).toHaveLength(1250);
    expect(largeCount).toBe(smallCount);
    // credential, products, courses, modules, lessons, activities, questions, options.
    expect(largeCount).toBeLessThanOrEqual(8);
  });
});
