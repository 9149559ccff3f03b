import { and, eq, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainEvents } from '../src/modules/events/domain-event.table.js';
import { type Service, startService, type TestSchool } from './support/service.js';

// The events completed for issue 14 that test/events.test.ts does not make: invoice and payment
// events of an import, forum_question.answered, an enrollment expired by hand; none for history.

let service: Service;
let school: TestSchool;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Emitters School');
});
afterAll(() => service?.stop());

/** The events this school recorded after `since` (an event id), in order. */
async function eventsSince(since: number) {
  return service.db
    .select({ name: domainEvents.name, subjectType: domainEvents.subjectType, subjectId: domainEvents.subjectId, payload: domainEvents.payload })
    .from(domainEvents)
    .where(and(eq(domainEvents.schoolId, school.id), gt(domainEvents.id, since)))
    .orderBy(domainEvents.id);
}
async function lastEventId(): Promise<number> {
  const [row] = await service.db.select({ id: max(domainEvents.id) }).from(domainEvents);
  return row.id ?? 0;
}

async function student(): Promise<string> {
  const r = await school.admin.graphql(`mutation { createStudent(input: { fullName: "Eva", email: "eva${Math.random()}@example.com" }) { student { id } errors { code } } }`);
  return r.data.createStudent.student.id;
}

async function registration(): Promise<string> {
  const r = await school.admin.graphql(`mutation ($s: ID!) { createRegistration(input: { studentId: $s }) { registration { id } errors { code } } }`, { s: await student() });
  return r.data.createRegistration.registration.id;
}

const IMPORT = `mutation ($input: ImportOrderInput!) { importOrder(input: $input) { order { id } errors { field code message } } }`;

describe('an imported order', () => {
  it('records order.imported, invoice.paid for each paid invoice and payment.confirmed / refunded for each such payment', async () => {
    const since = await lastEventId();
    const res = await school.admin.graphql(IMPORT, {
      input: {
        schoolId: school.id,
        uuid: `emit-${Date.now()}`,
        studentId: await student(),
        status: 'confirmed',
        total: 300,
        amountToPay: 300,
        invoicesAttributes: [
          { schoolId: school.id, amount: 100, occurrence: 1, status: 'paid', paymentsAttributes: [{ schoolId: school.id, kind: 2, status: 'confirmed', amount: 100 }] },
          { schoolId: school.id, amount: 200, occurrence: 2, status: 'open', paymentsAttributes: [{ schoolId: school.id, kind: 2, status: 'refunded', amount: 200 }] },
        ],
      },
    });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data.importOrder.errors).toEqual([]);
    const names = (await eventsSince(since)).map((e) => `${e.name}:${e.subjectType}`);
    expect(names.sort()).toEqual(['invoice.paid:Invoice', 'order.imported:Order', 'payment.confirmed:Payment', 'payment.refunded:Payment']);
  });

  it('records nothing when the order is history (created_at given): its invoices and payments inherit it', async () => {
    const since = await lastEventId();
    const res = await school.admin.graphql(IMPORT, {
      input: {
        schoolId: school.id,
        uuid: `history-${Date.now()}`,
        studentId: await student(),
        status: 'confirmed',
        createdAt: '2024-01-01T00:00:00Z',
        invoicesAttributes: [{ schoolId: school.id, amount: 100, occurrence: 1, status: 'paid', paymentsAttributes: [{ schoolId: school.id, kind: 2, status: 'confirmed', amount: 100 }] }],
      },
    });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data.importOrder.errors).toEqual([]);
    expect(await eventsSince(since)).toEqual([]);
  });
});

describe('a forum question', () => {
  it('is answered (forum_question.answered) by its first staff answer only; a student answer does not count', async () => {
    const section = await school.admin.graphql(`mutation ($forumId: ID) { createForumSection(forumId: $forumId, input: { title: "Help", description: "Questions and answers" }) { forumSection { id } errors { field code } } }`, {
      forumId: school.forumId,
    });
    expect(section.data.createForumSection.errors).toEqual([]);
    const sectionId = section.data.createForumSection.forumSection.id;
    const studentId = await student();
    const asStudent = await service.token('student', school.id, Number(studentId));
    const question = await asStudent.graphql(`mutation ($s: ID) { createForumQuestion(forumSectionId: $s, input: { title: "How?", description: "How does it work?" }) { forumQuestion { id } errors { field code } } }`, {
      s: sectionId,
    });
    const questionId = question.data.createForumQuestion.forumQuestion.id;
    const answer = `mutation ($q: ID!, $text: String) { createForumAnswer(forumQuestionId: $q, input: { text: $text }) { forumAnswer { id } errors { code } } }`;
    const since = await lastEventId();
    await asStudent.graphql(answer, { q: questionId, text: 'me too' });
    await school.admin.graphql(answer, { q: questionId, text: 'Like this.' });
    await school.admin.graphql(answer, { q: questionId, text: 'And also this.' });
    const events = await eventsSince(since);
    // The author's own answer notifies nobody; each staff answer notifies the author (notification.created).
    expect(events.map((e) => e.name)).toEqual([
      'forum_answer.created',
      'forum_answer.created',
      'notification.created',
      'forum_question.answered',
      'forum_answer.created',
      'notification.created',
    ]);
    expect(events[3]).toMatchObject({ subjectType: 'ForumQuestion', subjectId: Number(questionId) });
  });
});

describe('an enrollment', () => {
  it('expired by hand records enrollment.expired; canceled records enrollment.canceled; given created_at, nothing', async () => {
    const product = await school.admin.graphql(`mutation { createSchoolProduct(input: { title: "Emitted" }) { schoolProduct { id } errors { code } } }`);
    const productId = product.data.createSchoolProduct.schoolProduct.id;
    const enroll = async () => {
      const r = await school.admin.graphql(
        `mutation ($input: EnrollmentInput!) { createEnrollment(input: $input) { enrollment { id } errors { field code message } } }`,
        { input: { registrationId: await registration(), schoolProductId: productId, status: 'active', maxAttendanceType: 'indeterminate', unlimited: true } },
      );
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(r.data.createEnrollment.errors).toEqual([]);
      return r.data.createEnrollment.enrollment.id as string;
    };
    const update = `mutation ($id: ID!, $input: EnrollmentInput!) { updateEnrollment(id: $id, input: $input) { enrollment { status } errors { field code message } } }`;
    const a = await enroll();
    const b = await enroll();
    const c = await enroll();
    const since = await lastEventId();
    expect((await school.admin.graphql(update, { id: a, input: { status: 'expired' } })).data.updateEnrollment.errors).toEqual([]);
    expect((await school.admin.graphql(update, { id: b, input: { status: 'canceled' } })).data.updateEnrollment.errors).toEqual([]);
    expect((await school.admin.graphql(update, { id: c, input: { status: 'canceled', createdAt: '2024-01-01T00:00:00Z' } })).data.updateEnrollment.errors).toEqual([]);
    const events = (await eventsSince(since)).map((e) => `${e.name}:${e.subjectId}`);
    expect(events).toEqual([`enrollment.updated:${a}`, `enrollment.expired:${a}`, `enrollment.updated:${b}`, `enrollment.canceled:${b}`]);
  });
});
