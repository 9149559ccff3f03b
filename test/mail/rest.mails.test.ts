import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorker } from '../../src/modules/mail/index.js';
import { mails } from '../../src/modules/mail/mail.table.js';
import { enrollmentRestFixtures } from '../support/enrollments.fixtures.js';
import { dataOf } from '../support/graphql.js';
import { clickUnsubscribe, LoopbackSmtp, mailFixtures } from '../support/mail.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Mails' settings, one-click unsubscribing (RFC 8058) and reading the outbox (GET /mails), with a
// real SMTP server on loopback (issue 28).

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Escola Aurora', 'Other School', (w) => ({ service, school, other } = w));
const fixtures = enrollmentRestFixtures(world);
const smtp = new LoopbackSmtp();
const { fast, deliver, student, mailsOf } = mailFixtures(world, smtp);

beforeAll(async () => {
  await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});

describe('unsubscribing and settings', () => {
  it('one click unsubscribes: no further non-essential mail, essential ones still go', async () => {
    const person = await fixtures.student(school);
    const productId = await fixtures.product(school);
    await fixtures.enroll(person, productId, { status: 'active' });
    await deliver();
    const [row] = (await mailsOf(person.studentId)).filter((m) => m.kind === 'enrollment_activated');
    const res = await clickUnsubscribe(service.app, row.headers['List-Unsubscribe']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unsubscribed: true, locale: 'pt-BR', school_name: 'Escola Aurora' });
    // Twice is fine.
    const url = new URL(row.headers['List-Unsubscribe'].slice(1, -1));
    expect((await service.anonymous.post(`${url.pathname}${url.search}`, {})).status).toBe(200);

    const sent = smtp.received.length;
    await fixtures.enroll(person, await fixtures.product(school), { status: 'active' });
    await dataOf(school.admin, `mutation ($id: ID!) { sendWelcomeMail(userId: $id) { mail { id } errors { code } } }`, { id: person.studentId });
    await deliver();
    const kinds = smtp.received.slice(sent).map((m) => m.subject);
    expect(kinds).toEqual(['Boas-vindas a Escola Aurora']);
    const rows = await mailsOf(person.studentId);
    expect(rows.filter((m) => m.kind === 'enrollment_activated').map((m) => m.status)).toEqual(['sent', 'suppressed']);
  });

  it('a forged or foreign token unsubscribes nobody (422, GraphQL errors)', async () => {
    const res = await service.anonymous.post('/mails/unsubscribe?token=abc.def', {});
    expect(res.status).toBe(422);
    const data = await dataOf(service.anonymous, `mutation { unsubscribeFromMails(token: "x") { unsubscription { unsubscribed } errors { field code } } }`);
    expect(data.unsubscribeFromMails.errors).toEqual([{ field: ['token'], code: 'invalid' }]);
  });

  it('a kind the school turned off is not sent; essential kinds cannot be turned off', async () => {
    const refused = await school.admin.put('/mail_settings', { mail_settings: { disabled_kinds: ['invitation'] } });
    expect(refused.status).toBe(422);
    const res = await school.admin.put('/mail_settings', { mail_settings: { disabled_kinds: ['enrollment_activated', 'new_message'] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.disabled_kinds).toEqual(['enrollment_activated', 'new_message']);
    expect((await school.admin.get('/mail_settings')).body).toMatchObject({ disabled_kinds: ['enrollment_activated', 'new_message'] });

    const person = await fixtures.student(school);
    const sent = smtp.received.length;
    await fixtures.enroll(person, await fixtures.product(school), { status: 'active' });
    await deliver();
    const rows = await mailsOf(person.studentId);
    expect(rows.find((m) => m.kind === 'enrollment_activated')?.status).toBe('suppressed');
    // Only the (essential) invitation went out.
    expect(smtp.received.slice(sent).map((m) => m.subject)).toEqual(['Boas-vindas a Escola Aurora']);
    await school.admin.put('/mail_settings', { mail_settings: { disabled_kinds: [] } });
  });
});

describe('reading mails', () => {
  it('with no SMTP server mails are kept, readable by the admin and the platform (GET /mails, GET /mails/:id)', async () => {
    const id = await student(school, 'kept@example.com');
    await deliver([startMailWorker(service.database, { ...fast(), smtpUrl: null })]);
    const list = await school.admin.get(`/mails?user_id=${id}&kind=invitation&status=kept`);
    expect(list.status, list.text).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ recipient: 'kept@example.com', kind: 'invitation', status: 'kept', locale: 'pt-BR' });
    const one = await school.admin.get(`/mails/${list.body[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.text).toContain('/users/password/edit?reset_password_token=');
    expect(one.body.html).toContain('<html lang="pt-BR">');
    expect((await service.platform.get(`/mails/${list.body[0].id}`)).status).toBe(200);
    const paged = await school.admin.get('/mails?page=1&per_page=2');
    expect(paged.body).toHaveLength(2);
    expect(Number(paged.headers['x-total-count'])).toBeGreaterThan(2);
  });

  it("another school's admin gets a 404 and an empty list; collaborators and students are refused", async () => {
    const [row] = await service.db.select().from(mails).where(and(eq(mails.schoolId, school.id), eq(mails.recipient, 'kept@example.com')));
    expect((await other.admin.get(`/mails/${row.id}`)).status).toBe(404);
    const list = await other.admin.get(`/mails?recipient=kept@example.com`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    const collaborator = await service.token('collaborator', school.id);
    const studentToken = await service.token('student', school.id, row.userId);
    for (const client of [collaborator, studentToken]) {
      expect((await client.get('/mails')).status).toBe(403);
      expect((await client.get(`/mails/${row.id}`)).status).toBe(403);
      expect((await client.get('/mail_settings')).status).toBe(403);
      expect((await client.put('/mail_settings', { mail_settings: { sender_name: 'x' } })).status).toBe(403);
    }
  });
});
