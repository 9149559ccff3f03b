import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { parsePayload } from '../../src/modules/events/catalog.js';
import { ERASED_NAME, ERASED_TEXT, erasedEmail } from '../../src/db/personal-data.js';
import { dataOf } from '../support/graphql.js';
import { ERASE, EXPORT, identifiersIn, type PersonWithData, privacyFixtures } from '../support/privacy.fixtures.js';
import { Client, loggingApp, type Service, type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A person's own data (LGPD / GDPR), issue 26: the export holds every family of their data; the
// erasure leaves none of it readable anywhere (REST, GraphQL, posts' authorship, the event feed,
// the logs, the database itself) while the school's books (orders, certificates) stay whole.

let service: Service;
let school: TestSchool;
const world = twoSchools('Privacy School', 'Other Privacy School', (w) => ({ service, school } = w));
const f = privacyFixtures(world);

const tableModules = import.meta.glob<Record<string, unknown>>('../../src/**/*.table.ts', { eager: true });
const allTables = [...new Set(Object.values(tableModules).flatMap((m) => Object.values(m).filter((x): x is PgTable => is(x, PgTable))))];

/** Every row of every table, a line per table (its name first), as text: what "readable anywhere" in the database means. */
async function wholeDatabase(): Promise<string> {
  const parts: string[] = [];
  for (const table of allTables) {
    const rows = rowsOf(await service.db.execute(sql`select * from ${table}`));
    parts.push(`${getTableName(table)} ${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

const ids = (rows: unknown) => (rows as { id: number }[]).map((r) => r.id);

/** The school's books: what erasure must not change. */
async function books(admin: Client) {
  const res = await dataOf(admin, '{ orders(first: 100) { totalCount nodes { id total amountToPay } } }');
  const nodes = res.orders.nodes as { total: number; amountToPay: number }[];
  const certificates = rowsOf<{ n: number }>(await service.db.execute(sql`select count(*)::int as n from certificates where school_id = ${school.id}`))[0].n;
  return { orders: res.orders.totalCount, total: nodes.reduce((s, o) => s + o.total, 0), toPay: nodes.reduce((s, o) => s + o.amountToPay, 0), certificates };
}

describe('exportPerson', () => {
  let ana: PersonWithData;
  beforeAll(async () => {
    ana = await f.personWithData(school);
  });

  it('given a person with data in every family, then the GraphQL export holds each family, and no secret', async () => {
    const doc = (await dataOf(school.admin, EXPORT, { userId: String(ana.id) })).exportPerson as Record<string, any>;
    expect(doc).toMatchObject({ format: 'personal-data/1', userId: ana.id, schoolId: school.id, erasure: null });
    expect(doc.person).toMatchObject({ id: ana.id, type: 'Student', ...ana.identity });
    expect(doc.person).not.toHaveProperty('passwordHash');
    // Learning.
    expect(ids(doc.registrations)).toEqual([ana.registrationId]);
    // Their enrollment, and the one their paid order made (orders/: a paid order enrolls).
    expect(ids(doc.enrollments)).toContain(ana.enrollmentId);
    expect(doc.enrollments.filter((e: { orderId: number | null }) => e.orderId === ana.orderId)).toHaveLength(ids(doc.enrollments).length - 1);
    expect(doc.lessonProgress).toHaveLength(2);
    expect(doc.contentOpenings.length).toBeGreaterThan(0);
    expect(ids(doc.activityAttempts)).toEqual([ana.attemptId]);
    expect(JSON.stringify(doc.activityAttempts)).toContain(ana.identity.fullName);
    expect(ids(doc.examAnswers)).toEqual([ana.examAnswerId]);
    expect(doc.examQuestionAnswers).toEqual([expect.objectContaining({ id: ana.examQuestionAnswerId, text: `Written by ${ana.identity.fullName}` })]);
    expect(doc.certificates).toEqual([expect.objectContaining({ code: ana.certificateCode, enrollmentId: ana.enrollmentId })]);
    // Commerce.
    expect(ids(doc.orders)).toEqual([ana.orderId]);
    expect(doc.orderItems).toHaveLength(2);
    expect(doc.invoices).toHaveLength(2);
    expect(doc.payments).toHaveLength(3);
    expect(doc.payments.map((p: { cardholder: string | null }) => p.cardholder)).toContain(ana.identity.fullName.toUpperCase());
    // Communication and posts.
    expect(ids(doc.messages)).toEqual([ana.sentMessageId]);
    expect(doc.messageOwners).toEqual([expect.objectContaining({ messageId: ana.addressedMessageId, ownerType: 'Student', ownerId: ana.id })]);
    expect(doc.messagesReceived).toEqual([expect.objectContaining({ id: ana.addressedMessageId, subject: 'Your documents', text: 'Please send them' })]);
    expect(ids(doc.notifications)).toContain(ana.notificationId);
    expect(ids(doc.forumQuestions)).toEqual([ana.forumQuestionId]);
    expect(ids(doc.forumAnswers)).toEqual([ana.forumAnswerId]);
    expect(ids(doc.collaborativeComments)).toEqual([ana.commentId]);
    expect(doc.events.length).toBeGreaterThan(0);
    // Credentials: metadata, never the digest.
    expect(doc.tokens).toEqual([expect.objectContaining({ role: 'student', userId: ana.id, revokedAt: null })]);
    expect(doc.tokens[0]).not.toHaveProperty('tokenDigest');
    expect(JSON.stringify(doc)).not.toMatch(/argon2|tokenDigest|passwordHash/);
  });

  it('given GET /users/:id/personal_data by the person, then the same document over REST', async () => {
    const graphqlDoc = (await dataOf(school.admin, EXPORT, { userId: String(ana.id) })).exportPerson;
    const res = await ana.client.get(`/users/${ana.id}/personal_data`);
    expect(res.status, res.text).toBe(200);
    expect({ ...res.body, exportedAt: null }).toEqual({ ...graphqlDoc, exportedAt: null });
    expect((await ana.client.get(`/v1/users/${ana.id}/personal_data.json`)).status).toBe(200);
  });
});

describe('erasePerson', () => {
  let ana: PersonWithData;
  let logged: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    ana = await f.personWithData(school);
    logged = await loggingApp(service, lines);
  });
  afterAll(() => logged?.close());

  it('given the admin erases a person, then nothing of theirs is readable anywhere, their tokens answer 401, and the books are whole', async () => {
    // Someone else's data in the same families, which must stay as it was.
    const bruno = await f.personWithData(school);
    const before = await books(school.admin);
    const [lastEvent] = rowsOf<{ id: number }>(await service.db.execute(sql`select coalesce(max(id), 0)::int as id from domain_events`));
    expect((await ana.client.get(`/enrollments/${ana.enrollmentId}`)).status).toBe(200);

    // The erasure, through the logging instance: its log lines are checked below.
    const admin = new Client(logged, school.admin.token);
    const res = await admin.delete(`/users/${ana.id}/personal_data`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ user_id: ana.id, already_erased: false, revoked_tokens: 1 });
    expect(lines.length).toBeGreaterThan(0);
    expect(identifiersIn(lines.join('\n'), ana.identity)).toEqual([]);

    // Their credential answers 401 at once.
    expect((await ana.client.get(`/enrollments/${ana.enrollmentId}`)).status).toBe(401);
    expect((await ana.client.graphql('{ enrollments(first: 1) { totalCount } }')).status).toBe(401);

    // GraphQL and REST show the anonymised person; their posts' authorship and texts say nothing of them.
    const shown = await dataOf(admin, `{ student(id: ${ana.id}) { id fullName email document phone } }`);
    expect(shown.student).toEqual({ id: String(ana.id), fullName: ERASED_NAME, email: erasedEmail(ana.id), document: null, phone: null });
    const questions = await admin.get(`/users/${ana.id}/forum_questions`);
    expect(questions.status).toBe(200);
    expect(questions.body).toEqual([expect.objectContaining({ id: ana.forumQuestionId, title: ERASED_TEXT, description: ERASED_TEXT })]);
    const message = await admin.get(`/messages/${ana.sentMessageId}`);
    expect(message.body).toMatchObject({ subject: ERASED_TEXT, text: ERASED_TEXT });
    const sender = await dataOf(admin, `{ message(id: ${ana.sentMessageId}) { sender { id fullName email } } }`);
    expect(sender.message.sender).toEqual({ id: String(ana.id), fullName: ERASED_NAME, email: erasedEmail(ana.id) });
    const certificate = await service.anonymous.get(`/certificates/${ana.certificateCode}`);
    expect(certificate.status).toBe(200);
    expect(certificate.body.student_name).toBe(ERASED_NAME);
    const exported = await admin.get(`/users/${ana.id}/personal_data`);
    expect(exported.status).toBe(200);
    expect(exported.body.erasure).toMatchObject({ userId: ana.id });
    expect(exported.body.notifications).toEqual([]);
    expect(exported.body.tokens).toEqual([expect.objectContaining({ label: null, revokedAt: expect.any(String) })]);
    for (const reply of [questions, message, certificate, exported]) expect(identifiersIn(reply.text, ana.identity)).toEqual([]);

    // The event feed: the erasure's event names ids only, and no event names them any more.
    // On PostgreSQL an event shows once no older transaction of the server runs (modules/events): wait for it.
    let feed = await admin.get('/events');
    for (let tries = 0; tries < 200 && !(feed.body as { id: number }[]).some((e) => Number(e.id) > lastEvent.id); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      feed = await admin.get('/events');
    }
    expect(feed.status).toBe(200);
    expect(identifiersIn(feed.text, ana.identity)).toEqual([]);
    const fresh = (feed.body as { id: number; name: string; payload: unknown }[]).filter((e) => Number(e.id) > lastEvent.id);
    expect(fresh.map((e) => e.name)).toEqual(['USER_ERASED']);
    expect(fresh[0].payload).toEqual({ userId: ana.id, revokedTokenIds: [expect.any(Number)] });
    expect(parsePayload('user.erased', fresh[0].payload).success).toBe(true);

    // Nowhere in the database, while the other person's data is all there.
    const everything = await wholeDatabase();
    const leaks = everything.split('\n').filter((table) => identifiersIn(table, ana.identity).length);
    expect(leaks.map((table) => table.slice(0, table.indexOf(' ')))).toEqual([]);
    expect(identifiersIn(everything, bruno.identity).sort()).toEqual(Object.values(bruno.identity).sort());
    expect((await bruno.client.get(`/enrollments/${bruno.enrollmentId}`)).status).toBe(200);

    // The reads after the erasure went through the logging instance too: its lines name nothing of them.
    expect(identifiersIn(lines.join('\n'), ana.identity)).toEqual([]);

    // The books: the same orders, totals and certificates.
    expect(await books(school.admin)).toEqual(before);
  });

  it('given a person erased already, then a second erasure answers the first one’s record and changes nothing', async () => {
    const first = await dataOf(school.admin, ERASE, { userId: String(ana.id) });
    expect(first.erasePerson.errors).toEqual([]);
    expect(first.erasePerson.erasure).toMatchObject({ userId: String(ana.id), alreadyErased: true, revokedTokens: 0 });
    const events = rowsOf<{ n: number }>(await service.db.execute(sql`select count(*)::int as n from domain_events where name = 'user.erased' and subject_id = ${ana.id}`));
    expect(events[0].n).toBe(1);
  });

  it('given a person erases themselves over GraphQL, then their token answers 401 afterwards', async () => {
    const carla = await f.student(school, 'Carla Self');
    const erased = await dataOf(carla.client, ERASE, { userId: String(carla.id) });
    expect(erased.erasePerson.erasure).toMatchObject({ userId: String(carla.id), alreadyErased: false, revokedTokens: 1 });
    expect((await carla.client.graphql(EXPORT, { userId: String(carla.id) })).status).toBe(401);
    const shown = await dataOf(school.admin, `{ student(id: ${carla.id}) { fullName email } }`);
    expect(shown.student).toEqual({ fullName: ERASED_NAME, email: erasedEmail(carla.id) });
  });

  it('given two erasures of one person at once, then one erases and the other answers its record; one event', async () => {
    const dina = await f.student(school, 'Dina Twice');
    const [a, b] = await Promise.all([school.admin.delete(`/users/${dina.id}/personal_data`), service.platform.forSchool(school.id).delete(`/users/${dina.id}/personal_data`)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.already_erased, b.body.already_erased].sort()).toEqual([false, true]);
    expect(a.body.erased_at).toBe(b.body.erased_at);
    const events = rowsOf<{ n: number }>(await service.db.execute(sql`select count(*)::int as n from domain_events where name = 'user.erased' and subject_id = ${dina.id}`));
    expect(events[0].n).toBe(1);
  });
});
