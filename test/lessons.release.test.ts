import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Fixtures, ids, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectNotFound } from './support/rest-assertions.js';

// What an enrollment's student sees of the lessons: /enrollments/:id/lessons/ and /:id, and the
// same rules through GraphQL (lessons(enrollmentId), Enrollment.lessons, and the lessons nested
// under Enrollment.courses). Lessons open once released: available, release_at passed,
// release_after days passed since the enrollment was activated; before that an available lesson is
// listed as locked (test/progress/completion.test.ts: its opening date, no content); an unavailable
// one is never listed; nothing unless the enrollment is active.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Release School', 'Release Other')));
afterAll(() => service?.stop());

/** A product with one course of one module holding lessons made from `specs`, in that order. */
async function productWith(specs: Record<string, unknown>[]) {
  const course = await make.course();
  const module = await make.module(course.id);
  const lessons = [];
  for (const spec of specs) lessons.push(await make.lesson({ course_module_id: module.id, ...spec }));
  const product = await f.product(school);
  await f.offer(product.id, [course.id]);
  return { course, module, product, lessons };
}

const enrollmentQuery = `query ($id: ID!) {
  enrollment(id: $id) {
    lessons { id title locked }
    courses { id modules { id lessons { id locked } } }
  }
  lessons(enrollmentId: $id) { totalCount nodes { id locked module { lessons { id } } } }
}`;

/**
 * What the student sees through every face (REST list, GraphQL root list, Enrollment.lessons, nested
 * lessons): the ids of the open lessons; `locked` the ids listed as locked.
 */
async function seen(enrollment: { id: number; student: { get: Function; graphql: Function } }, locked: number[] = []) {
  const list = await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/`);
  const rest = ids(list);
  const restLocked = list.body.filter((l: any) => l.locked).map((l: any) => l.id);
  const res = await enrollment.student.graphql(enrollmentQuery, { id: String(enrollment.id) });
  expect(res.errors).toBeUndefined();
  const idsOf = (rows: any[]) => rows.map((l) => Number(l.id));
  const lockedOf = (rows: any[]) => idsOf(rows.filter((l) => l.locked));
  const root = res.data.lessons.nodes;
  const field = res.data.enrollment.lessons;
  const nested = res.data.enrollment.courses.flatMap((c: any) => c.modules.flatMap((m: any) => m.lessons));
  const viaModule = [...new Set(res.data.lessons.nodes.flatMap((l: any) => l.module.lessons.map((x: any) => Number(x.id))))];
  // Every face applies the same rules.
  for (const face of [root, field, nested]) {
    expect(idsOf(face)).toEqual(rest);
    expect(lockedOf(face)).toEqual(restLocked);
  }
  if (rest.length) expect(viaModule).toEqual(rest);
  expect(res.data.lessons.totalCount).toBe(rest.length);
  expect(restLocked).toEqual(locked);
  return rest.filter((id) => !restLocked.includes(id));
}

/** The show of a lesson through the enrollment: 200, locked or not as said. */
async function shown(enrollment: { id: number; student: { get: Function } }, lessonId: number, locked: boolean) {
  const res = await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/${lessonId}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ id: lessonId, locked });
  return res.body;
}

describe('release rules', () => {
  it('a lesson with release_after: 3 is locked the day of activation and open three days later', async () => {
    const { product, lessons } = await productWith([{ title: 'Now' }, { title: 'In three days', release_after: 3 }]);
    const [now, later] = lessons;
    const enrollment = await f.enrollment(school, product.id);
    const opens = new Date(service.clock.now().getTime() + 3 * 86_400_000).toISOString();

    expect(await seen(enrollment, [later.id])).toEqual([now.id]);
    expect(await shown(enrollment, later.id, true)).toMatchObject({ released_at: opens });

    service.clock.advanceDays(2);
    expect(await seen(enrollment, [later.id])).toEqual([now.id]);

    service.clock.advanceDays(1);
    expect(await seen(enrollment)).toEqual([now.id, later.id]);
    expect(await shown(enrollment, later.id, false)).toMatchObject({ released_at: opens });
  });

  it('release_after counts from each enrollment\'s own activation', async () => {
    const { product, lessons } = await productWith([{ release_after: 1 }]);
    const early = await f.enrollment(school, product.id, { activatedAt: new Date(service.clock.now().getTime() - 86_400_000) });
    const today = await f.enrollment(school, product.id);
    expect(await seen(early)).toEqual([lessons[0].id]);
    expect(await seen(today, [lessons[0].id])).toEqual([]);
    // Both at once, batched: each enrollment keeps its own answer.
    const res = await school.admin.graphql(
      `query { a: enrollment(id: "${early.id}") { lessons { id locked } } b: enrollment(id: "${today.id}") { lessons { id locked } } }`,
    );
    expect(res.data.a.lessons).toEqual([{ id: String(lessons[0].id), locked: false }]);
    expect(res.data.b.lessons).toEqual([{ id: String(lessons[0].id), locked: true }]);
  });

  it('a lesson whose release_at is in the future is locked until then, then open once it passes', async () => {
    const at = new Date(service.clock.now().getTime() + 5 * 3_600_000);
    const { product, lessons } = await productWith([{ title: 'Scheduled', release_at: at.toISOString() }, { title: 'Open' }]);
    const enrollment = await f.enrollment(school, product.id);
    expect(await seen(enrollment, [lessons[0].id])).toEqual([lessons[1].id]);
    expect(await shown(enrollment, lessons[0].id, true)).toMatchObject({ released_at: at.toISOString() });
    service.clock.advanceDays(1);
    expect(await seen(enrollment)).toEqual([lessons[0].id, lessons[1].id]);
  });

  it('a lesson that is not available is absent, whatever its dates; staff still see it in the product', async () => {
    const { product, lessons } = await productWith([{ title: 'Hidden', available: false }, { title: 'Shown' }]);
    const enrollment = await f.enrollment(school, product.id);
    expect(await seen(enrollment)).toEqual([lessons[1].id]);
    expectNotFound(await school.admin.get(`/enrollments/${enrollment.id}/lessons/${lessons[0].id}`));
    expect(ids(await school.admin.get(`/school_products/${product.id}/lessons/`))).toEqual([lessons[0].id, lessons[1].id]);
    // Made available, it appears.
    await school.admin.patch(`/lesson/${lessons[0].id}`, { lesson: { available: true } });
    expect(await seen(enrollment)).toEqual([lessons[0].id, lessons[1].id]);
  });

  it.each([
    ['pending', { status: 'pending' as const }],
    ['deactivated', { status: 'deactivated' as const }],
    ['expired by date', { unlimited: false, availableUntil: new Date('2020-01-01T00:00:00Z') }],
  ])('an enrollment that is not active (%s) sees nothing', async (_n, fields) => {
    const { course, module, product, lessons } = await productWith([{ title: 'Any' }]);
    const enrollment = await f.enrollment(school, product.id, fields);
    expect(await seen(enrollment)).toEqual([]);
    expectNotFound(await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/${lessons[0].id}`));
    expect(ids(await enrollment.student.get(`/enrollments/${enrollment.id}/courses`))).toEqual([]);
    expectNotFound(await enrollment.student.get(`/enrollments/${enrollment.id}/courses/${course.id}`));
    expectNotFound(await enrollment.student.get(`/enrollments/${enrollment.id}/course_modules/${module.id}`));
    const res = await enrollment.student.graphql(`query { enrollment(id: "${enrollment.id}") { courses { id } lessons { id } } }`);
    expect(res.data.enrollment).toEqual({ courses: [], lessons: [] });
  });
});

describe('scope of an enrollment', () => {
  it("lists the lessons of the product's courses only, in the product's order; drafts and other courses stay out", async () => {
    const first = await productWith([{ position: 2 }, { position: 1 }]);
    const second = await make.course();
    const secondLesson = await make.lesson({ course_module_id: (await make.module(second.id)).id });
    await f.pathOf(school, [second.id], first.product.id);
    await make.lesson(); // a draft
    await productWith([{}]); // another product
    const enrollment = await f.enrollment(school, first.product.id);
    expect(await seen(enrollment)).toEqual([first.lessons[1].id, first.lessons[0].id, secondLesson.id]);
  });

  it("given another student's enrollment, another school's enrollment, or none, then 404", async () => {
    const { product, lessons } = await productWith([{}]);
    const mine = await f.enrollment(school, product.id);
    const theirs = await f.enrollment(school, product.id);
    expectNotFound(await mine.student.get(`/enrollments/${theirs.id}/lessons/`));
    expectNotFound(await mine.student.get(`/enrollments/${theirs.id}/lessons/${lessons[0].id}`));
    const foreignProduct = await f.product(other);
    const foreign = await f.enrollment(other, foreignProduct.id);
    expectNotFound(await school.admin.get(`/enrollments/${foreign.id}/lessons/`));
    expectNotFound(await school.admin.get('/enrollments/999999/lessons/'));
    expectErrorBody(await service.anonymous.get(`/enrollments/${mine.id}/lessons/`), 401);
  });

  it('lets staff read an enrollment as its student sees it, locked lessons marked (with their content)', async () => {
    const { product, lessons } = await productWith([{ release_after: 10, description: 'Later' }, {}]);
    const enrollment = await f.enrollment(school, product.id);
    const list = await school.admin.get(`/enrollments/${enrollment.id}/lessons/`);
    expect(ids(list)).toEqual([lessons[0].id, lessons[1].id]);
    expect(list.body.map((l: any) => [l.locked, l.description])).toEqual([[true, 'Later'], [false, null]]);
  });

  it('a student reading the whole school or a product through GraphQL is refused; module lessons outside an enrollment are hidden', async () => {
    const { course, product } = await productWith([{}]);
    const enrollment = await f.enrollment(school, product.id);
    const refused = await enrollment.student.graphql(`query { lessons { nodes { id } } }`);
    expect(refused.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const viaCatalogue = await enrollment.student.graphql(`query { course(id: "${course.id}") { modules { lessons { id } } } }`);
    expect(viaCatalogue.errors).toBeUndefined();
    expect(viaCatalogue.data.course.modules[0].lessons).toEqual([]);
  });
});
