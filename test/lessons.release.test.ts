import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Fixtures, ids, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectNotFound } from './support/rest-assertions.js';

// What an enrollment's student sees of the lessons: /enrollments/:id/lessons/ and /:id, and the
// same rules through GraphQL (lessons(enrollmentId), Enrollment.lessons, and the lessons nested
// under Enrollment.courses). Lessons show once released: available, release_at passed,
// release_after days passed since the enrollment was activated; nothing unless the enrollment is active.

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
    lessons { id title }
    courses { id modules { id lessons { id } } }
  }
  lessons(enrollmentId: $id) { totalCount nodes { id module { lessons { id } } } }
}`;

/** What the student sees through every face: REST list, GraphQL root list, Enrollment.lessons, nested lessons. */
async function seen(enrollment: { id: number; student: { get: Function; graphql: Function } }) {
  const rest = ids(await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/`));
  const res = await enrollment.student.graphql(enrollmentQuery, { id: String(enrollment.id) });
  expect(res.errors).toBeUndefined();
  const root = res.data.lessons.nodes.map((l: any) => Number(l.id));
  const field = res.data.enrollment.lessons.map((l: any) => Number(l.id));
  const nested = res.data.enrollment.courses.flatMap((c: any) => c.modules.flatMap((m: any) => m.lessons.map((l: any) => Number(l.id))));
  const viaModule = [...new Set(res.data.lessons.nodes.flatMap((l: any) => l.module.lessons.map((x: any) => Number(x.id))))];
  // Every face applies the same rules.
  expect(root).toEqual(rest);
  expect(field).toEqual(rest);
  expect(nested).toEqual(rest);
  if (rest.length) expect(viaModule).toEqual(rest);
  expect(res.data.lessons.totalCount).toBe(rest.length);
  return rest;
}

describe('release rules', () => {
  it('a lesson with release_after: 3 is absent the day of activation and present three days later', async () => {
    const { product, lessons } = await productWith([{ title: 'Now' }, { title: 'In three days', release_after: 3 }]);
    const [now, later] = lessons;
    const enrollment = await f.enrollment(school, product.id);

    expect(await seen(enrollment)).toEqual([now.id]);
    expectNotFound(await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/${later.id}`));

    service.clock.advanceDays(2);
    expect(await seen(enrollment)).toEqual([now.id]);

    service.clock.advanceDays(1);
    expect(await seen(enrollment)).toEqual([now.id, later.id]);
    expect((await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/${later.id}`)).body.id).toBe(later.id);
  });

  it('release_after counts from each enrollment\'s own activation', async () => {
    const { product, lessons } = await productWith([{ release_after: 1 }]);
    const early = await f.enrollment(school, product.id, { activatedAt: new Date(service.clock.now().getTime() - 86_400_000) });
    const today = await f.enrollment(school, product.id);
    expect(await seen(early)).toEqual([lessons[0].id]);
    expect(await seen(today)).toEqual([]);
    // Both at once, batched: each enrollment keeps its own answer.
    const res = await school.admin.graphql(
      `query { a: enrollment(id: "${early.id}") { lessons { id } } b: enrollment(id: "${today.id}") { lessons { id } } }`,
    );
    expect(res.data.a.lessons.map((l: any) => Number(l.id))).toEqual([lessons[0].id]);
    expect(res.data.b.lessons).toEqual([]);
  });

  it('a lesson whose release_at is in the future is absent, then present once it passes', async () => {
    const at = new Date(service.clock.now().getTime() + 5 * 3_600_000);
    const { product, lessons } = await productWith([{ title: 'Scheduled', release_at: at.toISOString() }, { title: 'Open' }]);
    const enrollment = await f.enrollment(school, product.id);
    expect(await seen(enrollment)).toEqual([lessons[1].id]);
    expectNotFound(await enrollment.student.get(`/enrollments/${enrollment.id}/lessons/${lessons[0].id}`));
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

  it('lets staff read an enrollment as its student sees it', async () => {
    const { product, lessons } = await productWith([{ release_after: 10 }, {}]);
    const enrollment = await f.enrollment(school, product.id);
    expect(ids(await school.admin.get(`/enrollments/${enrollment.id}/lessons/`))).toEqual([lessons[1].id]);
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
