import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, examQuestionAssertions, examQuestionOptions, examQuestions } from '../src/modules/activities/activity.table.js';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { schoolProductCourses } from '../src/modules/school-products/school-product-content.table.js';
import { api, type Fixtures, startCourses } from './support/courses.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectNotFound } from './support/rest-assertions.js';

// POST /courses/:id/duplicate and duplicateCourse(id): the deep copy of a course.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, other, f, make } = await startCourses('Duplicate School', 'Duplicate Other')));
afterAll(() => service?.stop());

/** A course of `moduleCount` modules of `lessonCount` lessons, each lesson with `activityCount` activities. */
async function deepCourse(fields: Record<string, unknown>, moduleCount: number, lessonCount: number, activityCount: number) {
  const course = await make.course(fields);
  const picture = await f.mediaItem(school);
  for (let m = 0; m < moduleCount; m++) {
    const module = await make.module(course.id, { name: `M${m}`, description: `Module ${m}` });
    for (let l = 0; l < lessonCount; l++) {
      const lesson = await make.lesson({
        title: `M${m} L${l}`,
        type: l % 2 ? 'Text' : 'Video',
        course_module_id: module.id,
        position: (lessonCount - l) * 10,
        media_id: picture.id,
        min_grade: 7,
        release_after: l,
        release_at: '2026-03-01T00:00:00Z',
        available: l !== 1,
        unlock_certificate: true,
        description: `Lesson ${l}`,
      });
      for (let a = 0; a < activityCount; a++) await f.activityOf(school, lesson.id, `M${m} L${l} A${a}`);
    }
  }
  return course;
}

/** The whole tree of a course, without ids, in order: what a copy must reproduce. */
async function tree(courseId: number) {
  const moduleIds = await f.moduleIdsOf(courseId);
  const modules = await Promise.all(moduleIds.map((id) => f.moduleRow(id)));
  const lessonRows = await f.lessonsOf(moduleIds);
  const lessonIds = lessonRows.map((l) => l.id);
  const acts = lessonIds.length ? await service.db.select().from(activities).where(inArray(activities.examLessonId, lessonIds)).orderBy(asc(activities.id)) : [];
  const questions = acts.length
    ? await service.db.select().from(examQuestions).where(inArray(examQuestions.activityId, acts.map((a) => a.id))).orderBy(asc(examQuestions.id))
    : [];
  const options = questions.length
    ? await service.db.select().from(examQuestionOptions).where(inArray(examQuestionOptions.examQuestionId, questions.map((q) => q.id))).orderBy(asc(examQuestionOptions.id))
    : [];
  const assertions = options.length
    ? await service.db.select().from(examQuestionAssertions).where(inArray(examQuestionAssertions.optionId, options.map((o) => o.id))).orderBy(asc(examQuestionAssertions.id))
    : [];
  const strip = <T extends object>(row: T) => {
    const { id: _i, createdAt: _c, updatedAt: _u, ...rest } = row as Record<string, unknown>;
    return rest;
  };
  const index = (list: { id: number }[], id: number) => list.findIndex((r) => r.id === id);
  return {
    ids: { modules: moduleIds, lessons: lessonIds, activities: acts.map((a) => a.id), questions: questions.map((q) => q.id), options: options.map((o) => o.id), assertions: assertions.map((a) => a.id) },
    shape: {
      modules: modules.map(strip),
      lessons: lessonRows.map((l) => ({ ...strip(l), courseModuleId: moduleIds.indexOf(l.courseModuleId!) })),
      activities: acts.map((a) => ({ ...strip(a), examLessonId: lessonIds.indexOf(a.examLessonId) })),
      questions: questions.map((q) => ({ ...strip(q), activityId: index(acts, q.activityId) })),
      options: options.map((o) => ({ ...strip(o), examQuestionId: index(questions, o.examQuestionId) })),
      assertions: assertions.map((a) => ({ ...strip(a), optionId: index(options, a.optionId) })),
    },
  };
}

describe('POST /courses/:id/duplicate', () => {
  it('copies the course, its modules, lessons, activities, questions, options and assertions, and replies 201 with the copy', async () => {
    const source = await deepCourse({ name: 'Physics', code: 'PHY', description: 'Mechanics', duration: 30, ready: true, image_url: 'https://x.example/p.png' }, 2, 3, 1);
    const before = await tree(source.id);
    expect(before.ids.lessons).toHaveLength(6);
    expect(before.ids.assertions).toHaveLength(12);

    const res = await school.admin.post(`/courses/${source.id}/duplicate`);

    expect(res.status, res.text).toBe(201);
    const copy = res.body;
    expect(res.headers.location).toBe(`/courses/${copy.id}`);
    expect(copy).toMatchObject({
      school_id: school.id,
      name: 'Physics (copy)',
      code: 'PHY-copy',
      description: 'Mechanics',
      duration: 30,
      ready: true,
      image_url: 'https://x.example/p.png',
    });
    expect(copy.id).not.toBe(source.id);

    const after = await tree(copy.id);
    // The same tree, in the same order...
    expect(after.shape).toEqual(before.shape);
    expect(copy.course_modules_ids).toEqual(after.ids.modules);
    // ...made of new rows only.
    for (const key of Object.keys(before.ids) as (keyof typeof before.ids)[]) {
      expect(after.ids[key]).toHaveLength(before.ids[key].length);
      expect(after.ids[key].filter((id) => before.ids[key].includes(id))).toEqual([]);
    }
    // The source is untouched.
    expect(await tree(source.id)).toEqual(before);
    // The copy is in no product; its creation is an event.
    expect(await service.db.select().from(schoolProductCourses).where(eq(schoolProductCourses.courseId, copy.id))).toEqual([]);
    const [event] = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'course.created'), eq(domainEvents.subjectId, copy.id)));
    expect(event.payload).toMatchObject({ duplicatedFromId: source.id, code: 'PHY-copy' });
  });

  it('gives each further copy the next free code: -copy, -copy-2, -copy-3; a course without code gives copies without code', async () => {
    const source = await make.course({ name: 'Chem', code: 'CHEM' });
    await make.course({ name: 'Squatter', code: 'CHEM-copy-2' });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const res = await school.admin.post(`/courses/${source.id}/duplicate`);
      expect(res.status, res.text).toBe(201);
      codes.push(res.body.code);
      expect(res.body.name).toBe('Chem (copy)');
    }
    expect(codes).toEqual(['CHEM-copy', 'CHEM-copy-3', 'CHEM-copy-4']);
    const copyOfCopy = await school.admin.post(`/courses/${(await school.admin.get('/courses')).body.find((c: any) => c.code === 'CHEM-copy').id}/duplicate`);
    expect(copyOfCopy.body).toMatchObject({ name: 'Chem (copy) (copy)', code: 'CHEM-copy-copy' });

    const uncoded = await make.course({ name: 'No code' });
    const copies = [await school.admin.post(`/courses/${uncoded.id}/duplicate`), await school.admin.post(`/courses/${uncoded.id}/duplicate`)];
    expect(copies.map((c) => c.body.code)).toEqual([null, null]);
  });

  it('copies a module shared with another course as a new module; the other course keeps the original', async () => {
    const source = await make.course({ name: 'Shared source' });
    const module = await make.module(source.id);
    const neighbour = await make.course({ name: 'Neighbour', course_modules_ids: [module.id] });
    const copy = (await school.admin.post(`/courses/${source.id}/duplicate`)).body;
    expect(copy.course_modules_ids).toHaveLength(1);
    expect(copy.course_modules_ids[0]).not.toBe(module.id);
    expect(await f.moduleIdsOf(neighbour.id)).toEqual([module.id]);
  });

  it('costs a fixed number of statements whatever the size of the course', async () => {
    const small = await deepCourse({ name: 'Small', code: 'SMALL' }, 1, 1, 1);
    const large = await deepCourse({ name: 'Large', code: 'LARGE' }, 3, 4, 2);
    const smallCount = await service.countStatements(() => school.admin.post(`/courses/${small.id}/duplicate`));
    const largeCount = await service.countStatements(() => school.admin.post(`/courses/${large.id}/duplicate`));
    expect((await tree(large.id)).ids.assertions).toHaveLength(3 * 4 * 2 * 2);
    expect(largeCount).toBe(smallCount);
  });

  it('copies an empty course', async () => {
    const source = await make.course({ name: 'Empty', code: 'EMPTY' });
    const res = await school.admin.post(`/courses/${source.id}/duplicate`);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Empty (copy)', code: 'EMPTY-copy', course_modules_ids: [] });
  });

  it("given another school's course or none, then 404 and nothing copied; no credential 401; a student 403", async () => {
    const foreign = await api(other.admin).course({ name: 'Theirs' });
    const count = async () => (await service.db.select().from((await import('../src/modules/courses/course.table.js')).courses)).length;
    const before = await count();
    expectNotFound(await school.admin.post(`/courses/${foreign.id}/duplicate`));
    expectNotFound(await school.admin.post('/courses/999999/duplicate'));
    const own = await make.course();
    expectErrorBody(await service.anonymous.post(`/courses/${own.id}/duplicate`), 401);
    expectErrorBody(await (await f.studentClient(school)).post(`/courses/${own.id}/duplicate`), 403);
    expect(await count()).toBe(before + 1);
  });

  it('answers the GraphQL mutation duplicateCourse(id) with the copy and its modules', async () => {
    const source = await deepCourse({ name: 'Graph', code: 'GQL' }, 2, 1, 0);
    const res = await school.admin.graphql(
      `mutation ($id: ID!) { duplicateCourse(id: $id) { errors { code } course { id name code modules { name lessons { title } } } } }`,
      { id: String(source.id) },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.duplicateCourse.errors).toEqual([]);
    expect(res.data.duplicateCourse.course).toMatchObject({
      name: 'Graph (copy)',
      code: 'GQL-copy',
      modules: [
        { name: 'M0', lessons: [{ title: 'M0 L0' }] },
        { name: 'M1', lessons: [{ title: 'M1 L0' }] },
      ],
    });
    const missing = await school.admin.graphql(`mutation { duplicateCourse(id: "999999") { course { id } } }`);
    expect(missing.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
