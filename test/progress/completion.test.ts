import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { extraContents } from '../../src/modules/extra-contents/extra-content.table.js';
import { api, fixtures } from '../support/courses.fixtures.js';
import { expectErrorBody, expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Completion a school recognises: an enrollment reports `progress` (of what is released) and
// `completion` (of the whole product, drip-locked lessons included); the certificate follows
// completion unless the product's certificate_rule says released_progress; a student's lesson list
// shows locked lessons with when they open, and none of their content until then.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Completion School', 'Completion Other', (w) => ({ service, school, other } = w));

const DAY = 86_400_000;

/**
 * A product with certification (certification_min_progress unset: 100) of one course holding five
 * lessons: three open from the start, `week` released 3 days after activation, `exam` on a date
 * 5 days away, with an activity (one multiple-choice question) and an extra content. Required
 * items, counted by hand: 5 lessons + 1 activity = 6; released at the start: 3.
 */
async function dripProduct(s: TestSchool, product: Record<string, unknown> = {}) {
  const make = api(s.admin);
  const f = fixtures(service);
  const res = await s.admin.post('/school_products', { school_product: { title: `Drip pack ${Math.random()}`, certification: true, ...product } });
  expect(res.status, res.text).toBe(201);
  const course = await make.course();
  const module = await make.module(course.id);
  const video = await f.mediaItem(s);
  const lesson = (fields: Record<string, unknown>) => make.lesson({ course_module_id: module.id, description: 'The body', ...fields });
  const open = [await lesson({ title: 'One', media_id: video.id }), await lesson({ title: 'Two' }), await lesson({ title: 'Three' })];
  const week = await lesson({ title: 'Four', release_after: 3, media_id: video.id });
  const examAt = new Date(service.clock.now().getTime() + 5 * DAY);
  const exam = await lesson({ title: 'Five', type: 'Exam', min_grade: 50, release_at: examAt.toISOString() });
  const activity = await s.admin.post('/activities', {
    activity: { title: 'Final', type: 'exam', show_comments: 'always', exam_lesson_id: exam.id },
    exam_questions_attributes: [{ title: '2 + 2?', type: 'multiple_choice', options_attributes: [{ title: '4', correct: true }, { title: '5', correct: false }] }],
  });
  expect(activity.status, activity.text).toBe(201);
  await service.db.insert(extraContents).values({ schoolId: s.id, resourceType: 'Lesson', resourceId: exam.id, mediaId: video.id, order: 0, available: true, title: 'Slides' });
  const composed = await s.admin.put(`/school_products/${res.body.id}`, { school_product: { course_ids: [course.id] } });
  expect(composed.status, composed.text).toBe(200);
  return { productId: res.body.id as number, open, week, exam, examAt, activityId: activity.body.id as number };
}

/** The question and right option of the product's activity, as staff read them. */
async function rightAnswer(activityId: number) {
  const data = await school.admin.graphql(`{ activity(id: "${activityId}") { questions { id options { id correct } } } }`);
  const [question] = data.data.activity.questions;
  return { exam_question_id: Number(question.id), exam_question_option_id: Number(question.options.find((o: any) => o.correct).id) };
}

const figures = async (e: { id: number; student: { get: Function; graphql: Function } }) => {
  const rest = await e.student.get(`/enrollments/${e.id}`);
  expect(rest.status, rest.text).toBe(200);
  const gql = await e.student.graphql(`{ enrollment(id: "${e.id}") { progress completion certificateCode } }`);
  expect(gql.errors).toBeUndefined();
  // Both faces report the same figures.
  expect(gql.data.enrollment).toEqual({ progress: rest.body.progress, completion: rest.body.completion, certificateCode: rest.body.certificate_code });
  return { progress: rest.body.progress as number, completion: rest.body.completion as number, certificate: rest.body.certificate_code as string | null };
};

const completeLesson = (e: { id: number; student: { put: Function } }, lessonId: number) =>
  e.student.put(`/enrollments/${e.id}/lessons/${lessonId}/progress`, { progress: { completed: true } });

const eventsOf = (name: string, subjectIds: number[]) =>
  service.db.select().from(domainEvents).where(and(eq(domainEvents.name, name), inArray(domainEvents.subjectId, subjectIds)));

describe('completion and the certificate', () => {
  it('a product with drip-locked lessons issues no certificate before they open and are completed; both figures follow, counted by hand', async () => {
    const p = await dripProduct(school);
    const e = await fixtures(service).enrollment(school, p.productId);
    expect(await figures(e)).toEqual({ progress: 0, completion: 0, certificate: null });

    for (const lesson of p.open) expect((await completeLesson(e, lesson.id)).status).toBe(200);
    // Everything released is done (3 of 3), but 3 of the product's 6 items are still locked.
    expect(await figures(e)).toEqual({ progress: 100, completion: 50, certificate: null });

    // A locked lesson cannot be completed early: 403 saying when it opens.
    const early = await completeLesson(e, p.week.id);
    expectErrorBody(early, 403);
    expect(early.text).toContain(new Date(service.clock.now().getTime() + 3 * DAY).toISOString());
    expectErrorBody(await e.student.post(`/enrollments/${e.id}/activities/${p.activityId}/attempts`, { attempt: { answers: [] } }), 403);

    // Three days on, the fourth lesson opens: released 4 items, 3 done (75); completed, 4 of 4 and 4 of 6 (66).
    service.clock.advanceDays(3);
    expect(await figures(e)).toEqual({ progress: 75, completion: 50, certificate: null });
    expect((await completeLesson(e, p.week.id)).status).toBe(200);
    expect(await figures(e)).toEqual({ progress: 100, completion: 66, certificate: null });

    // Two more days, the exam lesson and its activity open (released 6): the lesson done is 5 of 6 (83).
    service.clock.advanceDays(2);
    expect(await figures(e)).toEqual({ progress: 66, completion: 66, certificate: null });
    expect((await completeLesson(e, p.exam.id)).status).toBe(200);
    expect(await figures(e)).toEqual({ progress: 83, completion: 83, certificate: null });
    expect(await eventsOf('enrollment.completed', [e.id])).toEqual([]);

    // The passed attempt completes the whole product: the certificate is issued then, once.
    const attempt = await e.student.post(`/enrollments/${e.id}/activities/${p.activityId}/attempts`, { attempt: { answers: [await rightAnswer(p.activityId)] } });
    expect(attempt.status, attempt.text).toBe(201);
    expect(attempt.body.passed).toBe(true);
    const done = await figures(e);
    expect(done).toMatchObject({ progress: 100, completion: 100, certificate: expect.any(String) });
    const completed = await eventsOf('enrollment.completed', [e.id]);
    expect(completed).toHaveLength(1);
    expect(completed[0].payload).toMatchObject({ enrollmentId: e.id, progress: 100, completion: 100 });
    expect((await service.anonymous.get(`/certificates/${done.certificate}`)).status).toBe(200);
  });

  it('per product, certificate_rule released_progress issues it on the progress of what is released (the older rule)', async () => {
    const p = await dripProduct(school, { certificate_rule: 'released_progress' });
    const product = await school.admin.get(`/school_products/${p.productId}`);
    expect(product.body.certificate_rule).toBe('released_progress');
    const e = await fixtures(service).enrollment(school, p.productId);
    for (const lesson of p.open) await completeLesson(e, lesson.id);
    expect(await figures(e)).toMatchObject({ progress: 100, completion: 50, certificate: expect.any(String) });
    const [issued] = (await eventsOf('enrollment.completed', [e.id])).map((row) => row.payload);
    expect(issued).toMatchObject({ progress: 100, completion: 50 });
  });

  it('certificate_rule defaults to completion; it may be changed, not cleared, and takes only its two values', async () => {
    const made = await school.admin.post('/school_products', { school_product: { title: 'Default rule' } });
    expect(made.body.certificate_rule).toBe('completion');
    const gql = await school.admin.graphql(`{ schoolProduct(id: "${made.body.id}") { certificateRule } }`);
    expect(gql.data.schoolProduct.certificateRule).toBe('completion');
    const changed = await school.admin.put(`/school_products/${made.body.id}`, { school_product: { certificate_rule: 'released_progress' } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.certificate_rule).toBe('released_progress');
    expectFieldError(await school.admin.put(`/school_products/${made.body.id}`, { school_product: { certificate_rule: null } }), 422, 'certificate_rule', 'blank');
    expectFieldError(await school.admin.put(`/school_products/${made.body.id}`, { school_product: { certificate_rule: 'whenever' } }), 422, 'certificate_rule', 'inclusion');
    // Another school's product is not found.
    expectNotFound(await other.admin.put(`/school_products/${made.body.id}`, { school_product: { certificate_rule: 'completion' } }));
  });
});

const lessonFields = 'id title locked releasedAt description mediaId media { id } activities { id } extraContents { id }';

describe("a student's lesson list", () => {
  it('shows locked lessons with their opening date and no content, on both faces; the content shows once they open', async () => {
    const p = await dripProduct(school);
    const e = await fixtures(service).enrollment(school, p.productId);
    const weekAt = new Date(service.clock.now().getTime() + 3 * DAY).toISOString();

    const list = await e.student.get(`/enrollments/${e.id}/lessons`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((l: any) => [l.title, l.locked, l.released_at])).toEqual([
      ['One', false, null],
      ['Two', false, null],
      ['Three', false, null],
      ['Four', true, weekAt],
      ['Five', true, p.examAt.toISOString()],
    ]);
    for (const locked of list.body.slice(3)) expect(locked).toMatchObject({ description: null, media_id: null });
    expect(list.body[0]).toMatchObject({ description: 'The body', media_id: expect.any(Number) });
    // The show of a locked lesson reads the same: who it is and when it opens, no content.
    const show = await e.student.get(`/enrollments/${e.id}/lessons/${p.exam.id}`);
    expect(show.status, show.text).toBe(200);
    expect(show.body).toMatchObject({ id: p.exam.id, locked: true, released_at: p.examAt.toISOString(), description: null, media_id: null });
    // Nor are its activity, its extra contents or its media readable some other way.
    expectNotFound(await e.student.get(`/enrollments/${e.id}/activities/${p.activityId}`));

    const query = `query ($id: ID!) {
      lessons(enrollmentId: $id) { nodes { ${lessonFields} } }
      enrollment(id: $id) { lessons { ${lessonFields} } courses { modules { lessons { ${lessonFields} } } } }
      lesson(id: "${p.exam.id}", enrollmentId: $id) { ${lessonFields} }
    }`;
    const res = await e.student.graphql(query, { id: String(e.id) });
    expect(res.errors).toBeUndefined();
    const faces = [res.data.lessons.nodes, res.data.enrollment.lessons, res.data.enrollment.courses[0].modules[0].lessons];
    for (const face of faces) {
      expect(face.map((l: any) => l.locked)).toEqual([false, false, false, true, true]);
      expect(face[4]).toEqual({
        id: String(p.exam.id), title: 'Five', locked: true, releasedAt: p.examAt.toISOString(),
        description: null, mediaId: null, media: null, activities: [], extraContents: [],
      });
      expect(face[3]).toMatchObject({ releasedAt: weekAt, description: null, mediaId: null, media: null });
      expect(face[0]).toMatchObject({ description: 'The body', media: { id: expect.any(String) } });
    }
    expect(res.data.lesson).toEqual(faces[0][4]);

    // Staff reading the same enrollment see the same marks, and the content.
    const staff = await school.admin.graphql(query, { id: String(e.id) });
    expect(staff.data.lesson).toMatchObject({ locked: true, description: 'The body', activities: [{ id: String(p.activityId) }], extraContents: [{ id: expect.any(String) }] });

    // Once open, the content shows.
    service.clock.advanceDays(5);
    const opened = await e.student.graphql(query, { id: String(e.id) });
    expect(opened.data.lesson).toMatchObject({ locked: false, releasedAt: p.examAt.toISOString(), description: 'The body', activities: [{ id: String(p.activityId) }] });
  });

  it('another school cannot read the enrollment, its lessons or its figures; a student reads no other enrollment', async () => {
    const p = await dripProduct(school);
    const e = await fixtures(service).enrollment(school, p.productId);
    const stranger = await fixtures(service).enrollment(school, p.productId);
    for (const path of [`/enrollments/${e.id}`, `/enrollments/${e.id}/lessons`, `/enrollments/${e.id}/lessons/${p.week.id}`]) {
      expectNotFound(await other.admin.get(path));
      expectNotFound(await stranger.student.get(path));
    }
    const gql = await other.admin.graphql(`{ enrollment(id: "${e.id}") { progress completion } }`);
    expect(gql.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expectNotFound(await stranger.student.put(`/enrollments/${e.id}/lessons/${p.week.id}/progress`, { progress: { completed: true } }));
  });
});
