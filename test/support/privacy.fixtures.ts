import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { examQuestionOptions, examQuestions } from '../../src/modules/activities/activity.table.js';
import { api } from './courses.fixtures.js';
import { answer, discussion, question, section } from './forums.fixtures.js';
import { dataOf, graphql } from './graphql.js';
import { fixtures as messageFixtures } from './messages.fixtures.js';
import { orderFixtures, orderImportFixtures } from './orders.fixtures.js';
import type { Client, TestSchool } from './service.js';
import type { World } from './world.js';

/**
 * The privacy family's fixtures (test/privacy/): a person with data in every family the service
 * keeps, each piece carrying something that identifies them (their name, e-mail, phone, document),
 * made through the API as a school makes it. The world is read when a fixture runs.
 */

/** What identifies the person: none of it may be readable after their erasure. */
export interface Identity {
  fullName: string;
  email: string;
  phone: string;
  document: string;
}

export interface PersonWithData {
  id: number;
  identity: Identity;
  /** Their own student credential. */
  client: Client;
  enrollmentId: number;
  registrationId: number;
  certificateCode: string;
  orderId: number;
  sentMessageId: number;
  addressedMessageId: number;
  notificationId: number;
  forumQuestionId: number;
  forumAnswerId: number;
  commentId: number;
  examAnswerId: number;
  examQuestionAnswerId: number;
  attemptId: number;
}

export const EXPORT = graphql('query ($userId: ID!) { exportPerson(userId: $userId) }');
export const ERASE = graphql(`mutation ($userId: ID!) {
  erasePerson(userId: $userId) { erasure { userId erasedAt alreadyErased revokedTokens } errors { field code message } }
}`);

let serial = 0;

export function privacyFixtures(world: World) {
  const service = () => world.service;

  /** A student of `s` with a profile, a registration and a credential of their own. */
  async function student(s: TestSchool, name = 'Ana Quintela'): Promise<{ id: number; identity: Identity; client: Client; registrationId: number }> {
    const tag = `${++serial}${randomBytes(4).toString('hex')}`;
    const identity: Identity = {
      fullName: `${name} ${tag}`,
      email: `ana.${tag}@example.com`,
      phone: `+55 11 9${tag}`,
      document: `CPF-${tag}`,
    };
    const created = await dataOf(
      s.admin,
      graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { field code } } }'),
      { input: { ...identity, password: `pw-${tag}-long-enough` } },
    );
    expect(created.createStudent.errors).toEqual([]);
    const id = Number(created.createStudent.student!.id);
    const registered = await dataOf(
      s.admin,
      graphql('mutation ($input: RegistrationInput!) { createRegistration(input: $input) { registration { id } errors { code } } }'),
      { input: { studentId: id } },
    );
    return { id, identity, client: await service().token('student', s.id, id), registrationId: Number(registered.createRegistration.registration!.id) };
  }

  /** A certified product: a course with a video lesson and an exam lesson, whose activity has a choice and an essay. */
  async function catalogue(s: TestSchool) {
    const make = api(s.admin);
    const product = await s.admin.post('/school_products', { school_product: { title: `Privacy pack ${++serial}`, certification: true, certification_min_progress: 100 } });
    expect(product.status, product.text).toBe(201);
    const course = await make.course();
    const module = await make.module(course.id);
    const video = await make.lesson({ title: 'Video', course_module_id: module.id });
    const exam = await make.lesson({ title: 'Exam', type: 'Exam', course_module_id: module.id, min_grade: 50 });
    const composed = await s.admin.put(`/school_products/${product.body.id}`, { school_product: { course_ids: [course.id] } });
    expect(composed.status, composed.text).toBe(200);
    const activity = await s.admin.post('/activities', {
      activity: { title: 'Final', type: 'exam', show_comments: 'always', exam_lesson_id: exam.id, max_attempts: 5 },
      exam_questions_attributes: [
        { title: '2 + 2?', type: 'multiple_choice', options_attributes: [{ title: '4', correct: true }, { title: '5', correct: false }] },
        { title: 'Who are you?', type: 'essay' },
      ],
    });
    expect(activity.status, activity.text).toBe(201);
    const questions = await service().db.select().from(examQuestions).where(eq(examQuestions.activityId, activity.body.id));
    const choice = questions.find((q) => q.type === 'multiple_choice')!;
    const essay = questions.find((q) => q.type === 'essay')!;
    const [right] = await service()
      .db.select()
      .from(examQuestionOptions)
      .where(and(eq(examQuestionOptions.examQuestionId, choice.id), eq(examQuestionOptions.correct, true)));
    return { productId: product.body.id as number, lessons: { video: video.id as number, exam: exam.id as number }, activityId: activity.body.id as number, choice, essay, right };
  }

  /** A student with data in every family: learning, exams, commerce, messages, notifications, forum, comments. */
  async function personWithData(s: TestSchool): Promise<PersonWithData> {
    const p = await student(s);
    const { fullName } = p.identity;
    const me = p.client;

    // Learning: an enrollment, progress, an attempt with an essay naming them, and the certificate.
    const c = await catalogue(s);
    const enrolled = await s.admin.post('/enrollments', {
      enrollment: { registration_id: p.registrationId, school_product_id: c.productId, max_attendance_type: 'indeterminate', unlimited: true, status: 'active' },
    });
    expect(enrolled.status, enrolled.text).toBe(201);
    const enrollmentId: number = enrolled.body.id;
    const progress = await me.put(`/enrollments/${enrollmentId}/lessons/${c.lessons.video}/progress`, { progress: { completed: true, time_spent: 60 } });
    expect(progress.status, progress.text).toBe(200);
    const attempt = await me.post(`/enrollments/${enrollmentId}/activities/${c.activityId}/attempts`, {
      attempt: {
        answers: [
          { exam_question_id: c.choice.id, exam_question_option_id: c.right.id },
          { exam_question_id: c.essay.id, text: `I am ${fullName}, reach me at ${p.identity.email}` },
        ],
      },
    });
    expect(attempt.status, attempt.text).toBe(201);
    await me.put(`/enrollments/${enrollmentId}/lessons/${c.lessons.exam}/progress`, { progress: { completed: true } });
    const shown = await me.get(`/enrollments/${enrollmentId}`);
    const certificateCode: string = shown.body.certificate_code;
    expect(certificateCode, shown.text).toBeTruthy();

    // The older exam model: an attempt made by the admin, the essay answered with their name.
    const examAnswer = await dataOf(
      s.admin,
      'mutation ($input: CreateExamAnswerInput!) { createExamAnswer(input: $input) { examAnswer { id } errors { field code } } }',
      { input: { activityId: c.activityId, studentId: p.id } },
    );
    const examAnswerId = Number(examAnswer.createExamAnswer.examAnswer.id);
    const essay = await s.admin.post(`/exam_questions/${c.essay.id}/exam_question_answers`, {
      exam_question_answer: { exam_answer_id: examAnswerId, text: `Written by ${fullName}` },
    });
    expect(essay.status, essay.text).toBe(201);

    // Commerce: an imported, paid order whose card holder is them.
    const refs = await orderFixtures(() => world.service).importRefs(s.id);
    const body = orderImportFixtures(() => world.service).importBody({ ...refs, student: { id: p.id } }, (o) => {
      o.response = JSON.stringify({ customer: { name: fullName, email: p.identity.email, document: p.identity.document } });
      o.invoices_attributes[0].payments_attributes[0].cardholder = fullName.toUpperCase();
      o.invoices_attributes[0].payments_attributes[1].response = `{"holder":"${fullName}"}`;
    });
    const imported = await s.admin.post('/orders/import', body);
    expect(imported.status, imported.text).toBe(201);

    // Messages: one they sent, one addressed to them (which notifies them).
    const messages = messageFixtures(world.service);
    const channel = await messages.channel(s);
    const sent = await messages.message(s, channel, { sender_id: p.id, subject: `From ${fullName}`, text: `Call me on ${p.identity.phone}` });
    const addressed = await messages.message(s, channel, { subject: 'Your documents', text: 'Please send them', owners: [{ id: p.id, type: 'Student' }] });

    // A notification naming them.
    const notified = await s.admin.post(`/students/${p.id}/notifications`, { notification: { text: `Welcome, ${fullName}`, url: 'https://school.example/welcome' } });
    expect(notified.status, notified.text).toBe(201);

    // Posts: a forum question and answer, and a comment, each naming them.
    const sectionId = (await section(s.admin, s.forumId)).id;
    const asked = await question(me, sectionId, { title: `${fullName} asks`, description: `My document is ${p.identity.document}` });
    const answered = await answer(me, asked.id, { text: `Thanks, ${fullName}` });
    const thread = await discussion(s.admin);
    const commented = await me.post(`/collaborative_discussions/${thread}/collaborative_comments`, { collaborative_comment: { text: `${fullName} agrees`, user_id: p.id } });
    expect(commented.status, commented.text).toBe(201);

    return {
      id: p.id,
      identity: p.identity,
      client: me,
      enrollmentId,
      registrationId: p.registrationId,
      certificateCode,
      orderId: imported.body.id,
      sentMessageId: sent.id,
      addressedMessageId: addressed.id,
      notificationId: notified.body.id,
      forumQuestionId: asked.id,
      forumAnswerId: Number(answered.id),
      commentId: commented.body.id,
      examAnswerId,
      examQuestionAnswerId: essay.body.id,
      attemptId: attempt.body.id,
    };
  }

  return { student, catalogue, personWithData };
}

/** Whether any of the person's identifying values appears in `text` (case-insensitive): the ones found. */
export function identifiersIn(text: string, identity: Identity): string[] {
  const lower = text.toLowerCase();
  return Object.values(identity).filter((v) => lower.includes(v.toLowerCase()));
}
