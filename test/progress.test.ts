import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examQuestionOptions, examQuestions } from '../src/modules/activities/activity.table.js';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { sweepExpiredEnrollments } from '../src/modules/progress/expiry.js';
import { api } from './support/courses.fixtures.js';
import { expectErrorBody, expectNotFound } from './support/rest-assertions.js';
import { type Service, startService, type TestSchool } from './support/service.js';
import { dataOf, graphql } from './support/graphql.js';

// The learning loop over HTTP, as a school runs it: a product of two courses and a path, a student
// enrolled, lessons and an exam done as that student, progress rising, the certificate issued once
// and verified publicly; attendance limits; expiry and its sweep; progress of 200 enrollments in
// one statement.

let service: Service;
let school: TestSchool;
let serial = 0;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Progress School');
});
afterAll(() => service?.stop());


/** A student with a registration, made as a school makes them (GraphQL: the spec has no REST route for these). */
async function person(s: TestSchool) {
  const n = ++serial;
  const created = await dataOf(s.admin, graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { code } } }'), {
    input: { fullName: `Learner ${n}`, email: `learner${n}@example.com` },
  });
  const studentId = Number(created.createStudent.student.id);
  const registered = await dataOf(s.admin, graphql('mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id } errors { code } } }'), {
    input: { studentId },
  });
  return { studentId, registrationId: Number(registered.createRegistration.registration.id), client: await service.token('student', s.id, studentId) };
}

/** A student enrolled in the product through POST /enrollments (active, unlimited unless `fields` say otherwise). */
async function enroll(s: TestSchool, productId: number, fields: Record<string, unknown> = {}) {
  const p = await person(s);
  const res = await s.admin.post('/enrollments', {
    enrollment: { registration_id: p.registrationId, school_product_id: productId, max_attendance_type: 'indeterminate', unlimited: true, status: 'active', ...fields },
  });
  expect(res.status, res.text).toBe(201);
  return { ...p, id: res.body.id as number };
}

/** A product with certification and its content: courses A (a video, an exam lesson) and B, and a path with course C. */
async function catalogue(s: TestSchool, product: Record<string, unknown> = {}) {
  const make = api(s.admin);
  const res = await s.admin.post('/school_products', { school_product: { title: `Course pack ${++serial}`, certification: true, certification_min_progress: 100, ...product } });
  expect(res.status, res.text).toBe(201);
  const productId: number = res.body.id;
  const lessonsOf = async (titles: string[], extra: Record<string, unknown>[] = []) => {
    const course = await make.course();
    const module = await make.module(course.id);
    const lessons = [];
    for (const [i, title] of titles.entries()) lessons.push(await make.lesson({ title, course_module_id: module.id, ...extra[i] }));
    return { course, lessons };
  };
  const a = await lessonsOf(['Intro video', 'Exam lesson'], [{}, { type: 'Exam', min_grade: 50 }]);
  const b = await lessonsOf(['Reading']);
  const c = await lessonsOf(['Path lesson']);
  // The product is composed through the API: two courses, and a path holding the third.
  const made = await dataOf(s.admin, `mutation { createPath(input: {name: "Path ${++serial}", description: "d", courseIds: [${c.course.id}]}) { path { id } errors { field code } } }`);
  expect(made.createPath.errors).toEqual([]);
  const composed = await s.admin.put(`/school_products/${productId}`, { school_product: { course_ids: [a.course.id, b.course.id], path_ids: [Number(made.createPath.path.id)] } });
  expect(composed.status, composed.text).toBe(200);
  const activity = await s.admin.post('/activities', {
    activity: { title: 'Final exam', type: 'exam', show_comments: 'always', exam_lesson_id: a.lessons[1].id, max_attempts: 5 },
    exam_questions_attributes: [
      { title: '2 + 2?', type: 'multiple_choice', options_attributes: [{ title: '4', correct: true }, { title: '5', correct: false }] },
      { title: 'Why?', type: 'essay' },
    ],
  });
  expect(activity.status, activity.text).toBe(201);
  const [question] = await service.db.select().from(examQuestions).where(and(eq(examQuestions.activityId, activity.body.id), eq(examQuestions.type, 'multiple_choice')));
  const options = await service.db.select().from(examQuestionOptions).where(eq(examQuestionOptions.examQuestionId, question.id));
  const essay = (await service.db.select().from(examQuestions).where(and(eq(examQuestions.activityId, activity.body.id), eq(examQuestions.type, 'essay'))))[0];
  return {
    productId,
    lessons: { video: a.lessons[0].id as number, exam: a.lessons[1].id as number, reading: b.lessons[0].id as number, path: c.lessons[0].id as number },
    activityId: activity.body.id as number,
    questionId: question.id,
    essayId: essay.id,
    right: options.find((o) => o.correct)!.id,
    wrong: options.find((o) => !o.correct)!.id,
  };
}

const eventsOf = async (name: string, subjectIds: number[]) =>
  service.db.select().from(domainEvents).where(and(eq(domainEvents.name, name), inArray(domainEvents.subjectId, subjectIds)));

describe('the learning loop', () => {
  it('a student opens and completes lessons and an exam, progress rises, the certificate is issued once and verified publicly', async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId);
    const me = learner.client;
    const progressOf = async () => {
      const res = await me.get(`/enrollments/${learner.id}`);
      expect(res.status, res.text).toBe(200);
      return res.body.progress as number;
    };
    expect(await progressOf()).toBe(0);

    // Opening a lesson: started, position kept, not completed.
    const url = (lesson: number) => `/enrollments/${learner.id}/lessons/${lesson}/progress`;
    const opened = await me.put(url(c.lessons.video), { progress: { last_position: 30, time_spent: 60 } });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toMatchObject({ enrollment_id: learner.id, student_id: learner.studentId, lesson_id: c.lessons.video, last_position: 30, time_spent: 60, completed_at: null });
    expect(await progressOf()).toBe(0);

    // 5 required items: 4 released lessons and the exam's activity. Completing twice is one completion.
    const done = await me.put(url(c.lessons.video), { progress: { completed: true, time_spent: 90 } });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ last_position: 30, time_spent: 90, completed_at: expect.any(String) });
    const again = await me.put(url(c.lessons.video), { progress: { completed: true, time_spent: 45 } });
    expect(again.body).toMatchObject({ id: done.body.id, completed_at: done.body.completed_at, time_spent: 90 });
    expect(await progressOf()).toBe(20);

    // The exam: a wrong attempt scores 0 and does not pass (the lesson's min_grade is 50); a right one passes and completes the exam lesson.
    const attempts = `/enrollments/${learner.id}/activities/${c.activityId}/attempts`;
    const wrong = await me.post(attempts, { attempt: { answers: [{ exam_question_id: c.questionId, exam_question_option_id: c.wrong }] } });
    expect(wrong.status, wrong.text).toBe(201);
    expect(wrong.body).toMatchObject({ score: 0, passed: false, correct_count: 0, gradable_count: 1 });
    expect(await progressOf()).toBe(20);
    const answers = [
      { exam_question_id: c.questionId, exam_question_option_id: c.right },
      { exam_question_id: c.essayId, text: 'Because.' },
    ];
    const right = await me.post(attempts, { attempt: { key: 'try-2', answers } });
    expect(right.status, right.text).toBe(201);
    expect(right.body).toMatchObject({ score: 100, passed: true, key: 'try-2' });
    expect(right.body.answers).toEqual([
      // Not graded by hand (grading.test.ts): no points, no comment.
      { exam_question_id: c.questionId, exam_question_option_id: c.right, text: null, correct: true, points: null, max_points: null, comment: null },
      { exam_question_id: c.essayId, exam_question_option_id: null, text: 'Because.', correct: null, points: null, max_points: null, comment: null },
    ]);
    // The same key again is the same attempt (a retried request).
    const retried = await me.post(attempts, { attempt: { key: 'try-2', answers } });
    expect(retried.body.id).toBe(right.body.id);
    expect(await progressOf()).toBe(60);

    // An answer naming a question of another activity is a 422 naming it.
    const stray = await me.post(attempts, { attempt: { answers: [{ exam_question_id: 2_000_000_000 }] } });
    expectErrorBody(stray, 422);

    await me.put(url(c.lessons.reading), { progress: { completed: true } });
    expect(await progressOf()).toBe(80);
    const before = await me.get(`/enrollments/${learner.id}`);
    expect(before.body.certificate_code).toBeNull();
    await me.put(url(c.lessons.path), { progress: { completed: true } });
    const after = await me.get(`/enrollments/${learner.id}`);
    expect(after.body.progress).toBe(100);
    const code: string = after.body.certificate_code;
    expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);

    // Issued once, with its events, however often completion is reported again.
    await me.put(url(c.lessons.path), { progress: { completed: true } });
    expect((await me.get(`/enrollments/${learner.id}`)).body.certificate_code).toBe(code);
    expect(await eventsOf('enrollment.completed', [learner.id])).toHaveLength(1);
    const issued = await service.db.select().from(domainEvents).where(eq(domainEvents.name, 'certificate.issued'));
    expect(issued.filter((e) => e.payload.enrollmentId === learner.id)).toHaveLength(1);

    // Anyone verifies it by its code: name, product, date, nothing else.
    const verified = await service.anonymous.get(`/certificates/${code}`);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ code, student_name: expect.stringMatching(/^Learner /), product_title: expect.stringMatching(/^Course pack /), issued_at: expect.any(String) });
    const viaGraphql = await service.anonymous.graphql('query ($code: String!) { certificate(code: $code) { code studentName productTitle issuedAt } }', { code });
    expect(viaGraphql.data.certificate).toMatchObject({ code, studentName: verified.body.student_name });
    expectNotFound(await service.anonymous.get('/certificates/not-a-code'));

    // Staff read it per enrollment, per student and per product.
    const perEnrollment = await school.admin.get(`/enrollments/${learner.id}/lesson_progress`);
    expect(perEnrollment.body.map((r: any) => r.lesson_id).sort()).toEqual(Object.values(c.lessons).sort());
    expect((await school.admin.get(`/students/${learner.studentId}/lesson_progress`)).body).toHaveLength(4);
    expect((await school.admin.get(`/school_products/${c.productId}/activity_attempts`)).body).toHaveLength(2);
    const staff = await dataOf(school.admin, `{ activityAttempts(enrollmentId: ${learner.id}) { totalCount nodes { score passed answers { correct } } } }`);
    expect(staff.activityAttempts.totalCount).toBe(2);
  });

  it("a student cannot write or read another student's progress; a collaborator may not write it", async () => {
    const c = await catalogue(school);
    const owner = await enroll(school, c.productId);
    const intruder = await enroll(school, c.productId);
    const url = `/enrollments/${owner.id}/lessons/${c.lessons.video}/progress`;
    expectNotFound(await intruder.client.put(url, { progress: { completed: true } }));
    expectNotFound(await intruder.client.post(`/enrollments/${owner.id}/activities/${c.activityId}/attempts`, { attempt: { answers: [] } }));
    expectNotFound(await intruder.client.get(`/enrollments/${owner.id}/lesson_progress`));
    const gqlWrite = await intruder.client.graphql(`mutation { recordLessonProgress(enrollmentId: ${owner.id}, lessonId: ${c.lessons.video}, input: {completed: true}) { errors { code } } }`);
    expect(gqlWrite.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const invalid = await owner.client.graphql(
      `mutation { recordLessonProgress(enrollmentId: ${owner.id}, lessonId: ${c.lessons.video}, input: {lastPosition: -1}) { lessonProgress { id } errors { field code } } }`,
    );
    expect(invalid.data.recordLessonProgress).toEqual({ lessonProgress: null, errors: [{ field: ['lastPosition'], code: 'greater_than_or_equal_to' }] });
    const collaborator = await service.token('collaborator', school.id, school.adminId);
    expectErrorBody(await collaborator.put(url, { progress: { completed: true } }), 403);
    expect((await school.admin.get(`/enrollments/${owner.id}/lesson_progress`)).body).toEqual([]);
    // The intruder's own list holds only its own rows; an app credential writes for the student.
    const app = await service.token('app', school.id);
    expect((await app.put(url, { progress: { completed: true } })).status).toBe(200);
    expect((await intruder.client.get('/lesson_progress')).body).toEqual([]);
    expect((await owner.client.get('/lesson_progress')).body).toHaveLength(1);
  });
});

describe('attendance limits', () => {
  it('attempts: a write that would open one more lesson than max_attendance_length is refused, and from the next day every content read', async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId, { max_attendance_type: 'attempts', max_attendance_length: 1 });
    const me = learner.client;
    expect((await me.get(`/enrollments/${learner.id}/lessons`)).status).toBe(200);
    expect((await me.put(`/enrollments/${learner.id}/lessons/${c.lessons.video}/progress`, { progress: { last_position: 5 } })).status).toBe(200);
    // The same lesson the same day is the same opening.
    expect((await me.put(`/enrollments/${learner.id}/lessons/${c.lessons.video}/progress`, { progress: { completed: true } })).status).toBe(200);
    expect((await me.get(`/enrollments/${learner.id}/lessons`)).status).toBe(200);
    const second = await me.put(`/enrollments/${learner.id}/lessons/${c.lessons.reading}/progress`, { progress: { completed: true } });
    expectErrorBody(second, 403);
    expect(JSON.stringify(second.body.errors)).toContain('used its 1 content openings');

    service.clock.advanceDays(1);
    const refused = await me.get(`/enrollments/${learner.id}/lessons`);
    expectErrorBody(refused, 403);
    expect(JSON.stringify(refused.body.errors)).toContain('max_attendance_type attempts');
    const viaGraphql = await me.graphql(`{ lessons(enrollmentId: ${learner.id}) { totalCount } }`);
    expect(viaGraphql.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expectErrorBody(await me.get(`/enrollments/${learner.id}/activities`), 403);
  });

  it('time: past max_attendance_length minutes of time spent, content reads answer 403', async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId, { max_attendance_type: 'time', max_attendance_length: 2 });
    const me = learner.client;
    expect((await me.put(`/enrollments/${learner.id}/lessons/${c.lessons.video}/progress`, { progress: { time_spent: 90 } })).status).toBe(200);
    expect((await me.get(`/enrollments/${learner.id}/lessons`)).status).toBe(200);
    expect((await me.put(`/enrollments/${learner.id}/lessons/${c.lessons.video}/progress`, { progress: { time_spent: 120 } })).status).toBe(200);
    const refused = await me.get(`/enrollments/${learner.id}/media`);
    expectErrorBody(refused, 403);
    expect(JSON.stringify(refused.body.errors)).toContain('used its 2 minutes');
  });
});

describe('expiry', () => {
  it('an enrollment past available_until reads as expired everywhere at once, refuses progress, and the sweep records one event', async () => {
    const c = await catalogue(school);
    const until = new Date(service.clock.now().getTime() + 2 * 86_400_000).toISOString();
    const learner = await enroll(school, c.productId, { unlimited: false, available_until: until });
    expect((await school.admin.get(`/enrollments/${learner.id}`)).body.status).toBe('active');
    // Nothing has run out yet (no other enrollment of this file has an end date): the sweep claims nothing.
    expect(await sweepExpiredEnrollments(service.db, service.clock.now())).toBe(0);
    expect(await eventsOf('enrollment.expired', [learner.id])).toHaveLength(0);

    service.clock.advanceDays(3);
    expect((await school.admin.get(`/enrollments/${learner.id}`)).body.status).toBe('expired');
    expect((await learner.client.get(`/enrollments/${learner.id}`)).body.status).toBe('expired');
    const listed = await dataOf(school.admin, `{ expired: enrollments(status: expired, studentId: ${learner.studentId}) { nodes { id status } } active: enrollments(status: active, studentId: ${learner.studentId}) { totalCount } }`);
    expect(listed.expired.nodes).toEqual([{ id: String(learner.id), status: 'expired' }]);
    expect(listed.active.totalCount).toBe(0);
    expect((await school.admin.get(`/enrollments?status=expired`)).body.map((e: any) => e.id)).toContain(learner.id);
    expect((await school.admin.get(`/students/${learner.studentId}/enrollments/${learner.id}`)).body).toMatchObject({ status: 'expired', active: false });
    expect((await learner.client.get(`/enrollments/${learner.id}/lessons`)).body).toEqual([]);
    const write = await learner.client.put(`/enrollments/${learner.id}/lessons/${c.lessons.video}/progress`, { progress: { completed: true } });
    expectErrorBody(write, 403);
    expect(JSON.stringify(write.body.errors)).toContain('expired');

    // Two sweeps at once (as two instances run them) claim the enrollment once between them; later sweeps claim nothing.
    const sweep = () => sweepExpiredEnrollments(service.db, service.clock.now());
    expect((await Promise.all([sweep(), sweep()])).sort()).toEqual([0, 1]);
    expect(await sweep()).toBe(0);
    expect(await sweep()).toBe(0);
    const events = await eventsOf('enrollment.expired', [learner.id]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ schoolId: school.id, subjectType: 'Enrollment', payload: { availableUntil: until } });
  });
});

describe('progress of many enrollments', () => {
  it('Enrollment.progress and completion of 200 enrollments cost the statements of 2', async () => {
    const measure = async (perProduct: number) => {
      const s = await service.school(`Batch school ${++serial}`);
      const p = await person(s);
      const products = [];
      for (let i = 0; i < 2; i++) products.push((await catalogue(s)).productId);
      const inputs = products.flatMap((productId) =>
        Array.from({ length: perProduct }, () => ({ registration_id: p.registrationId, school_product_id: productId, max_attendance_type: 'indeterminate', unlimited: true, status: 'active' })),
      );
      const batch = await s.admin.post('/enrollments/batch', { enrollments: inputs });
      expect(batch.status, batch.text).toBe(201);
      // One enrollment has progress: it keeps its own figure in the batch.
      const first = batch.body[0].id;
      const lessons = await s.admin.get(`/enrollments/${first}/lessons`);
      await s.admin.put(`/enrollments/${first}/lessons/${lessons.body[0].id}/progress`, { progress: { completed: true } });
      const query = graphql('{ schoolProducts(first: 10) { nodes { enrollments(first: 100) { nodes { id progress completion certificateCode } } } } }');
      let data: any;
      const statements = await service.countStatements(async () => (data = await dataOf(s.admin, query)));
      const nodes = data.schoolProducts.nodes.flatMap((n: any) => n.enrollments.nodes);
      expect(nodes).toHaveLength(2 * perProduct);
      // Progress and completion come from one statement (every lesson is released here: the same figure).
      expect(nodes.find((n: any) => Number(n.id) === first)).toMatchObject({ progress: 20, completion: 20 });
      expect(nodes.filter((n: any) => n.progress !== 0)).toHaveLength(1);
      return statements;
    };
    const few = await measure(1);
    const many = await measure(100);
    expect(many).toBe(few);
    // The products page, the enrollments pages of both products, progress, certificates (and counts, if asked).
    expect(many).toBeLessThanOrEqual(5);
  });
});
