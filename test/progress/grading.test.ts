import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { examQuestionOptions, examQuestions } from '../../src/modules/activities/activity.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { activityAttempts, AWAITING_GRADING } from '../../src/modules/progress/progress.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { api } from '../support/courses.fixtures.js';
import { dataOf, graphql } from '../support/graphql.js';
import { expectErrorBody, expectNotFound } from '../support/rest-assertions.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Grading by hand (issue 30): staff grade an attempt's open answers (POST /activity_attempts/:id/grade,
// gradeAttempt); its score and pass/fail follow the submission's rule, then the exam lesson's
// completion, progress, the certificate, `attempt.graded` and the student's notification, all in
// the grading's transaction. The queue of attempts awaiting grading, oldest first, per course or
// product. A student reads its own grades and comments, never another's, and grades nothing.

let service: Service;
let school: TestSchool;
let other: TestSchool;
let serial = 0;
twoSchools('Grading School', 'Other Grading School', (w) => ({ service, school, other } = w));

/** A person of the school with a credential (a collaborator, or a student with a registration). */
async function person(s: TestSchool, type: 'Student' | 'Collaborator') {
  const n = ++serial;
  const [user] = await service.db
    .insert(users)
    .values({ schoolId: s.id, type, fullName: `${type} ${n}`, email: `grading-${type.toLowerCase()}${n}-${process.pid}@example.com` })
    .returning();
  return { id: user.id, client: await service.token(type === 'Student' ? 'student' : 'collaborator', s.id, user.id) };
}

/** A student enrolled in the product through the API (active, unlimited). */
async function enroll(s: TestSchool, productId: number) {
  const student = await person(s, 'Student');
  const registered = await dataOf(s.admin, graphql('mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id } errors { code } } }'), {
    input: { studentId: student.id },
  });
  const res = await s.admin.post('/enrollments', {
    enrollment: { registration_id: Number(registered.createRegistration.registration.id), school_product_id: productId, max_attendance_type: 'indeterminate', unlimited: true, status: 'active' },
  });
  expect(res.status, res.text).toBe(201);
  return { ...student, enrollmentId: res.body.id as number };
}

/**
 * A certifying product of one course: a video lesson and an exam lesson (min_grade 50) whose
 * activity asks a multiple-choice question and an essay worth 10 points.
 */
async function catalogue(s: TestSchool) {
  const make = api(s.admin);
  const product = await s.admin.post('/school_products', { school_product: { title: `Graded course ${++serial}`, certification: true, certification_min_progress: 100 } });
  expect(product.status, product.text).toBe(201);
  const course = await make.course();
  const module = await make.module(course.id);
  const video = await make.lesson({ title: 'Video', course_module_id: module.id });
  const exam = await make.lesson({ title: 'Exam', course_module_id: module.id, type: 'Exam', min_grade: 50 });
  const composed = await s.admin.put(`/school_products/${product.body.id}`, { school_product: { course_ids: [course.id] } });
  expect(composed.status, composed.text).toBe(200);
  const activity = await s.admin.post('/activities', {
    activity: { title: 'Final exam', type: 'exam', show_comments: 'always', exam_lesson_id: exam.id },
    exam_questions_attributes: [
      { title: '2 + 2?', type: 'multiple_choice', point: 2, options_attributes: [{ title: '4', correct: true }, { title: '5', correct: false }] },
      { title: 'Why?', type: 'essay', point: 10 },
    ],
  });
  expect(activity.status, activity.text).toBe(201);
  const questions = await service.db.select().from(examQuestions).where(eq(examQuestions.activityId, activity.body.id));
  const choice = questions.find((q) => q.type === 'multiple_choice')!;
  const options = await service.db.select().from(examQuestionOptions).where(eq(examQuestionOptions.examQuestionId, choice.id));
  return {
    productId: product.body.id as number,
    courseId: course.id as number,
    lessons: { video: video.id as number, exam: exam.id as number },
    activityId: activity.body.id as number,
    choiceId: choice.id,
    essayId: questions.find((q) => q.type === 'essay')!.id,
    wrong: options.find((o) => !o.correct)!.id,
  };
}

type Catalogue = Awaited<ReturnType<typeof catalogue>>;
type Learner = Awaited<ReturnType<typeof enroll>>;

/** The learner's attempt: the multiple-choice question wrong (score 0: not passed) and the essay written. */
async function submit(c: Catalogue, learner: Learner, essay = 'Because it is.') {
  const res = await learner.client.post(`/enrollments/${learner.enrollmentId}/activities/${c.activityId}/attempts`, {
    attempt: {
      answers: [
        { exam_question_id: c.choiceId, exam_question_option_id: c.wrong },
        { exam_question_id: c.essayId, text: essay },
      ],
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number } & Record<string, any>;
}

const grade = (client: TestSchool['admin'], attemptId: number, answers: unknown[]) => client.post(`/activity_attempts/${attemptId}/grade`, { grade: { answers } });
const queueIds = async (client: TestSchool['admin'], path: string) => {
  const res = await client.get(path);
  expect(res.status, res.text).toBe(200);
  return (res.body as { id: number }[]).map((a) => a.id);
};
const eventsOf = (names: string[], subjectIds: number[]) =>
  service.db.select().from(domainEvents).where(and(inArray(domainEvents.name, names), inArray(domainEvents.subjectId, subjectIds)));

describe('gradeAttempt: an essay graded by hand', () => {
  it('recomputes score and pass, completes the exam lesson, issues the certificate, emits attempt.graded and notifies the student', async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId);
    const done = await learner.client.put(`/enrollments/${learner.enrollmentId}/lessons/${c.lessons.video}/progress`, { progress: { completed: true } });
    expect(done.status, done.text).toBe(200);
    const attempt = await submit(c, learner);
    expect(attempt).toMatchObject({ score: 0, passed: false, correct_count: 0, gradable_count: 1, graded_at: null, awaiting_grading: true });
    const enrollment = async () => (await learner.client.get(`/enrollments/${learner.enrollmentId}`)).body;
    // 3 items: two lessons and the activity; the video done.
    expect(await enrollment()).toMatchObject({ progress: 33, certificate_code: null });

    // The queue, oldest first: whole, per course, per product.
    expect(await queueIds(school.admin, '/attempts_to_grade')).toContain(attempt.id);
    expect(await queueIds(school.admin, `/courses/${c.courseId}/attempts_to_grade`)).toEqual([attempt.id]);
    expect(await queueIds(school.admin, `/school_products/${c.productId}/attempts_to_grade`)).toEqual([attempt.id]);

    const collaborator = await person(school, 'Collaborator');
    const res = await grade(collaborator.client, attempt.id, [{ exam_question_id: c.essayId, points: 10, comment: ' Well argued. ' }]);
    expect(res.status, res.text).toBe(200);
    // Credit 0 (the option question) + 10/10 (the essay) of 2 questions: 50, the exam lesson's min grade.
    expect(res.body).toMatchObject({ id: attempt.id, score: 50, passed: true, correct_count: 1, gradable_count: 2, graded_by_id: collaborator.id, awaiting_grading: false });
    expect(res.body.graded_at).toEqual(expect.any(String));
    expect(res.body.answers).toEqual([
      { exam_question_id: c.choiceId, exam_question_option_id: c.wrong, text: null, correct: false, points: null, max_points: null, comment: null },
      { exam_question_id: c.essayId, exam_question_option_id: null, text: 'Because it is.', correct: null, points: 10, max_points: 10, comment: 'Well argued.' },
    ]);

    // Progress and the certificate follow: the exam lesson and the activity are done.
    const after = await enrollment();
    expect(after.progress).toBe(100);
    expect(after.certificate_code).toEqual(expect.any(String));
    const issued = (await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'certificate.issued'), eq(domainEvents.schoolId, school.id)))).filter(
      (e) => (e.payload as { enrollmentId: number }).enrollmentId === learner.enrollmentId,
    );
    expect(issued.length).toBe(1);
    const [certificate] = issued;
    expect(certificate.payload).toMatchObject({ enrollmentId: learner.enrollmentId, studentId: learner.id, progress: 100 });
    expect((await eventsOf(['enrollment.completed'], [learner.enrollmentId])).length).toBe(1);
    const [graded] = await eventsOf(['attempt.graded'], [attempt.id]);
    expect(graded).toMatchObject({ schoolId: school.id, subjectType: 'ActivityAttempt' });
    expect(graded.payload).toEqual({
      enrollmentId: learner.enrollmentId,
      studentId: learner.id,
      activityId: c.activityId,
      activityTitle: 'Final exam',
      gradedById: collaborator.id,
      score: 50,
      passed: true,
      complete: true,
    });

    // The student is notified, and reads its grade and the comment on its attempt.
    const notifications = await learner.client.get(`/students/${learner.id}/notifications`);
    expect(notifications.status, notifications.text).toBe(200);
    expect(notifications.body.notifications).toContainEqual(expect.objectContaining({ url: `/activity_attempts/${attempt.id}`, text: 'Your answers to "Final exam" were graded: 50%, passed' }));
    const mine = await learner.client.get(`/activity_attempts/${attempt.id}`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ score: 50, passed: true });
    expect(mine.body.answers[1]).toMatchObject({ points: 10, comment: 'Well argued.' });

    // Graded, it leaves the queue.
    expect(await queueIds(school.admin, `/courses/${c.courseId}/attempts_to_grade`)).toEqual([]);
  });

  it('through GraphQL: partial points give partial credit; an attempt stays queued until every open answer is graded; a regrade replaces the grade', async () => {
    const c = await catalogue(school);
    const first = await enroll(school, c.productId);
    const second = await enroll(school, c.productId);
    const older = await submit(c, first);
    const newer = await submit(c, second);
    const queue = `query ($course: ID!) { attemptsToGrade(courseId: $course, first: 10) { totalCount nodes { id awaitingGrading } } }`;
    const queued = await dataOf(school.admin, queue, { course: String(c.courseId) });
    expect(queued.attemptsToGrade.nodes.map((n: { id: string }) => Number(n.id))).toEqual([older.id, newer.id]);

    const GRADE = `mutation ($id: ID!, $input: AttemptGradingInput!) {
      gradeAttempt(id: $id, input: $input) { activityAttempt { score passed gradedAt awaitingGrading answers { points maxPoints comment } } errors { field code message } }
    }`;
    const graded = await dataOf(school.admin, GRADE, { id: String(newer.id), input: { answers: [{ examQuestionId: String(c.essayId), points: 5 }] } });
    expect(graded.gradeAttempt.errors).toEqual([]);
    // 0 + 5/10 of 2 questions: 25, under the min grade.
    expect(graded.gradeAttempt.activityAttempt).toMatchObject({ score: 25, passed: false, awaitingGrading: false });
    const regraded = await dataOf(school.admin, GRADE, { id: String(newer.id), input: { answers: [{ examQuestionId: String(c.essayId), points: 7.5, comment: 'Better' }] } });
    expect(regraded.gradeAttempt.activityAttempt).toMatchObject({ score: 38, passed: false });
    expect(regraded.gradeAttempt.activityAttempt.answers[1]).toEqual({ points: 7.5, maxPoints: 10, comment: 'Better' });
    // The stored counts stay those of the rule: the option question once, the essay once.
    const [row] = await service.db.select().from(activityAttempts).where(eq(activityAttempts.id, newer.id));
    expect(row).toMatchObject({ correctCount: 0, gradableCount: 2, score: 38 });
    expect((await dataOf(school.admin, queue, { course: String(c.courseId) })).attemptsToGrade.nodes.map((n: { id: string }) => Number(n.id))).toEqual([older.id]);
  });

  it('refuses with one 422 naming every problem: negative points, above the weight, an auto-graded question, one not answered, a repeat; nothing changes', async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId);
    const attempt = await submit(c, learner);
    const [before] = await service.db.select().from(activityAttempts).where(eq(activityAttempts.id, attempt.id));
    const res = await grade(school.admin, attempt.id, [
      { exam_question_id: c.essayId, points: -1 },
      { exam_question_id: c.choiceId, points: 1 },
      { exam_question_id: 2_000_000_000, points: 1 },
      { exam_question_id: c.essayId, points: 11 },
      { points: 1 },
    ]);
    expectErrorBody(res, 422);
    expect(res.body.details).toEqual({
      'answers[0].points': [{ error: 'greater_than_or_equal_to' }],
      'answers[1].exam_question_id': [{ error: 'auto_graded' }],
      'answers[2].exam_question_id': [{ error: 'not_found' }],
      'answers[3].exam_question_id': [{ error: 'duplicate' }],
      'answers[3].points': [{ error: 'less_than_or_equal_to' }],
      'answers[4].exam_question_id': [{ error: 'blank' }],
    });
    expect(res.body.errors['answers[3].points']).toEqual(['must be less than or equal to 10']);
    const empty = await grade(school.admin, attempt.id, []);
    expectErrorBody(empty, 422);
    expect(Object.keys(empty.body.details)).toEqual(['answers']);
    const [after] = await service.db.select().from(activityAttempts).where(eq(activityAttempts.id, attempt.id));
    expect(after).toEqual(before);
    expect(await eventsOf(['attempt.graded'], [attempt.id])).toEqual([]);
  });
});

describe('who grades and who reads grades', () => {
  it('a student grades nothing and reads no queue (403), never another student’s attempt (404) nor its grades in a list', async () => {
    const c = await catalogue(school);
    const graded = await enroll(school, c.productId);
    const nosy = await enroll(school, c.productId);
    const attempt = await submit(c, graded);
    expect((await grade(school.admin, attempt.id, [{ exam_question_id: c.essayId, points: 9, comment: 'Private remark' }])).status).toBe(200);

    expectErrorBody(await grade(graded.client, attempt.id, [{ exam_question_id: c.essayId, points: 10 }]), 403);
    expectErrorBody(await nosy.client.get('/attempts_to_grade'), 403);
    expectErrorBody(await nosy.client.get(`/courses/${c.courseId}/attempts_to_grade`), 403);
    expectNotFound(await nosy.client.get(`/activity_attempts/${attempt.id}`));
    const list = await nosy.client.get('/activity_attempts');
    expect(list.status, list.text).toBe(200);
    expect(list.text).not.toContain('Private remark');
    expect(list.body.map((a: { id: number }) => a.id)).not.toContain(attempt.id);
    const gql = await nosy.client.graphql(`{ activityAttempt(id: "${attempt.id}") { id } }`);
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    // Its own attempt's grade it reads, in the list too.
    const own = await graded.client.get('/activity_attempts');
    expect(own.body.find((a: { id: number }) => a.id === attempt.id).answers[1]).toMatchObject({ points: 9, comment: 'Private remark' });
  });

  it("another school's staff: the attempt is 404 to grade and to read, its course 404 to queue, and nothing changes", async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId);
    const attempt = await submit(c, learner);
    expectNotFound(await grade(other.admin, attempt.id, [{ exam_question_id: c.essayId, points: 10 }]));
    expectNotFound(await other.admin.get(`/activity_attempts/${attempt.id}`));
    expectNotFound(await other.admin.get(`/courses/${c.courseId}/attempts_to_grade`));
    expectNotFound(await other.admin.get(`/school_products/${c.productId}/attempts_to_grade`));
    expect(await queueIds(other.admin, '/attempts_to_grade')).toEqual([]);
    const [row] = await service.db.select().from(activityAttempts).where(eq(activityAttempts.id, attempt.id));
    expect(row).toMatchObject({ gradedAt: null, score: 0 });
  });

  it('the queue reads through its partial index, in statements that do not grow with the attempts', async () => {
    const c = await catalogue(school);
    const learner = await enroll(school, c.productId);
    await submit(c, learner);
    const path = `/courses/${c.courseId}/attempts_to_grade`;
    const few = await service.countStatements(() => school.admin.get(path));
    for (let i = 0; i < 3; i++) await submit(c, await enroll(school, c.productId));
    expect(await service.countStatements(() => school.admin.get(path))).toBe(few);
    // Whatever the table's size, the planner can answer the queue from the partial index alone.
    const plan = await service.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain select id from activity_attempts where school_id = ${school.id} and ${AWAITING_GRADING} order by id limit 26`);
    });
    expect(JSON.stringify(plan)).toContain('activity_attempts_awaiting_grading_idx');
  });
});
