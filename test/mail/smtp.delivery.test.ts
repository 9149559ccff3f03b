import { and, eq } from 'drizzle-orm';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { emitEvents } from '../../src/modules/events/events.js';
import { startMailWorker } from '../../src/modules/mail/index.js';
import { mails } from '../../src/modules/mail/mail.table.js';
import { enrollmentRestFixtures } from '../support/enrollments.fixtures.js';
import { dataOf } from '../support/graphql.js';
import { CREATE_STUDENT, LoopbackSmtp, mailFixtures, rawHeader } from '../support/mail.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Transactional e-mail through a real SMTP server on loopback (issue 28): what is sent, in which
// language, with which headers; retries and failures; two workers on one outbox.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Escola Aurora', 'Other School', (w) => ({ service, school, other } = w));
const fixtures = enrollmentRestFixtures(world);
const smtp = new LoopbackSmtp();
const { logged, fast, deliver, student, mailsOf } = mailFixtures(world, smtp);

beforeAll(async () => {
  await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});

describe('invitation mails', () => {
  it('welcomes each new student once, in their language, with text and HTML parts and the headers', async () => {
    await student(school, 'ana@example.com');
    await student(school, 'john@example.com', 'en-US');
    await student(school, 'lucia@example.com', 'es');
    await deliver();

    const [ana] = smtp.to('ana@example.com');
    const [john] = smtp.to('john@example.com');
    const [lucia] = smtp.to('lucia@example.com');
    expect([smtp.to('ana@example.com').length, smtp.to('john@example.com').length, smtp.to('lucia@example.com').length]).toEqual([1, 1, 1]);
    expect(ana.subject).toBe('Boas-vindas a Escola Aurora');
    expect(john.subject).toBe('Welcome to Escola Aurora');
    expect(lucia.subject).toBe('Bienvenido a Escola Aurora');
    expect(ana.text).toContain('Defina sua senha');
    expect(ana.text).toContain('O link vale por 7 dias.');
    expect(john.text).toContain('The link is valid for 7 days.');
    expect(ana.html).toContain('<html lang="pt-BR">');
    expect(ana.html).toContain('Definir minha senha');
    // The set-password link, in both parts; nothing else secret.
    const link = /https?:\/\/[^\s"]+\/users\/password\/edit\?reset_password_token=[\w.%-]+/.exec(ana.text!)?.[0];
    expect(link).toBeTruthy();
    // Handlebars escapes `=` in the HTML part (&#x3D;), which every client decodes.
    expect(String(ana.html).replace(/&#x3D;/g, '=')).toContain(`href="${link}"`);
    for (const mail of [ana, john, lucia]) {
      expect(mail.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
      expect(mail.date).toBeInstanceOf(Date);
      expect(rawHeader(mail, 'Auto-Submitted')).toBe('auto-generated');
      expect(mail.from?.value[0]).toEqual({ name: 'Escola Aurora', address: 'no-reply@localhost' });
      // Essential: no unsubscribe.
      expect(rawHeader(mail, 'List-Unsubscribe')).toBeUndefined();
    }
    const [row] = await service.db.select().from(mails).where(eq(mails.recipient, 'ana@example.com'));
    expect(row).toMatchObject({ kind: 'invitation', status: 'sent', attempts: 1, locale: 'pt-BR', messageId: ana.messageId });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(logged.some((l) => l.message === 'mail sent' && l.fields.mailId === row.id)).toBe(true);
  });

  it("falls back to the school's language, and an unknown language gives English", async () => {
    const updated = await other.admin.put(`/schools/${other.id}`, { school: { locale: 'es-419' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.locale).toBe('es-419');
    await student(other, 'sin-idioma@example.com');
    await student(other, 'francois@example.com', 'fr-FR');
    await deliver();
    expect(smtp.to('sin-idioma@example.com').map((m) => m.subject)).toEqual(['Bienvenido a Other School']);
    expect(smtp.to('francois@example.com').map((m) => m.subject)).toEqual(['Welcome to Other School']);
    const refused = await dataOf(other.admin, CREATE_STUDENT, { input: { fullName: 'X', email: 'x@example.com', locale: 'not a tag!' } });
    expect(refused.createStudent.errors).toEqual([{ field: ['locale'], code: 'invalid' }]);
  });

  it('sendWelcomeMail sends it again on demand (REST POST /users/:id/welcome_mail), with the school’s sender name and reply-to', async () => {
    const id = await student(school, 'again@example.com');
    const settings = await school.admin.put('/mail_settings', { mail_settings: { sender_name: 'Aurora Team', reply_to: 'help@aurora.example' } });
    expect(settings.status, settings.text).toBe(200);
    const res = await school.admin.post(`/users/${id}/welcome_mail`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ kind: 'invitation', status: 'queued', recipient: 'again@example.com' });
    await deliver();
    const received = smtp.to('again@example.com');
    expect(received).toHaveLength(2);
    expect(received[1].from?.value[0]).toEqual({ name: 'Aurora Team', address: 'no-reply@localhost' });
    expect(received[1].replyTo?.value[0].address).toBe('help@aurora.example');
    // Another school's person is a 404.
    const foreign = await student(other, 'foreign@example.com');
    expect((await school.admin.post(`/users/${foreign}/welcome_mail`, {})).status).toBe(404);
  });
});

describe('mails of the learning loop', () => {
  it('an activated enrollment mails the student, with the one-click unsubscribe headers (RFC 8058)', async () => {
    const person = await fixtures.student(school);
    await service.db.update(mails).set({ status: 'kept' }).where(eq(mails.userId, person.studentId)); // its invitation: not this test's
    const productId = await fixtures.product(school);
    await fixtures.enroll(person, productId, { status: 'active' });
    await deliver();
    const [row] = (await mailsOf(person.studentId)).filter((m) => m.kind === 'enrollment_activated');
    expect(row.status).toBe('sent');
    const received = smtp.received.filter((m) => m.messageId === row.messageId);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.subject).toMatch(/^Sua matrícula em Product \d+ está ativa$/);
    expect(mail.text).toContain('Seu acesso vai até 31 de dezembro de 2026.');
    const unsubscribe = rawHeader(mail, 'List-Unsubscribe');
    expect(unsubscribe).toMatch(/^<http:\/\/localhost:\d+\/mails\/unsubscribe\?token=[\w.%-]+>$/);
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(rawHeader(mail, 'Auto-Submitted')).toBe('auto-generated');
  });

  it('an issued certificate mails the public verification link', async () => {
    const person = await fixtures.student(school);
    const productId = await fixtures.product(school);
    // The event as the progress writes emit it (progress/progress.write.ts), in one transaction.
    await service.db.transaction((tx) =>
      emitEvents(tx, [
        {
          schoolId: school.id,
          name: 'certificate.issued',
          subjectType: 'Certificate',
          subjectId: 1,
          payload: { enrollmentId: 1, studentId: person.studentId, schoolProductId: productId, progress: 100, code: 'CERT-123' },
        },
      ]),
    );
    await deliver();
    const [row] = (await mailsOf(person.studentId)).filter((m) => m.kind === 'certificate_issued');
    const [mail] = smtp.received.filter((m) => m.messageId === row.messageId);
    expect(mail.subject).toMatch(/^Seu certificado de Product \d+$/);
    expect(mail.text).toMatch(/http:\/\/localhost:\d+\/certificates\/CERT-123/);
    expect(mail.text).toContain('Código de verificação: CERT-123');
  });

  it('a confirmed (paid) order mails its receipt, money and dates in the person’s locale', async () => {
    const id = await student(school, 'buyer@example.com', 'en');
    // Sold as a school sells (orders/): an option's price, the order's invoice paid by a confirmed payment.
    const option = await dataOf(school.admin, 'mutation ($input: PaymentOptionInput!) { createPaymentOption(input: $input) { paymentOption { id } } }', {
      input: { name: 'Full', price: 129990, installmentsMax: 1 },
    });
    const created = await school.admin.post('/orders', { order: { student_id: id, items_attributes: [{ payment_option_id: Number(option.createPaymentOption.paymentOption.id) }] } });
    expect(created.status, created.text).toBe(201);
    const paying = await school.admin.post(`/invoices/${created.body.invoice_ids[0]}/payments`, { payment: { kind: 0, installments: 1 } });
    expect(paying.status, paying.text).toBe(201);
    const confirmed = await school.admin.put(`/payments/${paying.body.id}/confirm`);
    expect(confirmed.status, confirmed.text).toBe(200);
    await deliver();
    const [row] = (await mailsOf(id)).filter((m) => m.kind === 'order_receipt');
    const [mail] = smtp.received.filter((m) => m.messageId === row.messageId);
    expect(mail.subject).toBe(`Receipt for order #${created.body.id}`);
    expect(mail.text).toContain('Total (1 item): R$1,299.90');
    expect(mail.text).toContain('Paid on January 15, 2026.');
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('a new message mails the people it notifies (not the sender), in Spanish for a Spanish speaker', async () => {
    const reader = await student(school, 'lector@example.com', 'es');
    const created = await dataOf(school.admin, `mutation ($input: ChannelInput!) { createChannel(input: $input) { channel { id } errors { code } } }`, { input: { name: 'News' } });
    const res = await school.admin.post(`/channels/${created.createChannel.channel.id}/messages`, {
      message: { subject: 'Hello', text: 'Classes start on Monday', sender_id: school.adminId, owners: [{ id: reader, type: 'Student' }, { id: school.adminId, type: 'Admin' }] },
    });
    expect(res.status, res.text).toBe(201);
    await deliver();
    const rows = await service.db.select().from(mails).where(eq(mails.kind, 'new_message'));
    expect(rows.map((r) => r.userId)).toEqual([reader]);
    const [mail] = smtp.received.filter((m) => m.messageId === rows[0].messageId);
    expect(mail.subject).toMatch(/^Nuevo mensaje de /);
    expect(mail.text).toContain('te envió un mensaje nuevo');
    // The message itself stays in the service: the mail only says there is one.
    expect(mail.text).not.toContain('Classes start on Monday');
  });

  it('a rolled-back change leaves no mail', async () => {
    const before = (await service.db.select({ id: mails.id }).from(mails)).length;
    const res = await dataOf(school.admin, CREATE_STUDENT, { input: { fullName: 'Dup', email: 'ana@example.com' } });
    expect(res.createStudent.errors[0].code).toBe('taken');
    expect((await service.db.select({ id: mails.id }).from(mails)).length).toBe(before);
  });
});

describe('SMTP failures', () => {
  it('a 4xx refusal is retried: exactly one delivery, the attempts recorded', async () => {
    const id = await student(school, 'retry@example.com');
    smtp.refusals.push(451);
    await deliver();
    expect(smtp.to('retry@example.com')).toHaveLength(1);
    const [row] = await mailsOf(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(logged.some((l) => l.message === 'mail deferred' && l.fields.mailId === row.id && l.fields.responseCode === 451)).toBe(true);
  });

  it('a 5xx refusal is a permanent failure, recorded and not retried', async () => {
    const id = await student(school, 'bounce@example.com');
    smtp.refusals.push(550);
    await deliver();
    expect(smtp.to('bounce@example.com')).toHaveLength(0);
    const [row] = await mailsOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toContain('Mailbox unavailable');
    expect(logged.some((l) => l.message === 'mail failed' && l.fields.mailId === row.id && l.fields.responseCode === 550)).toBe(true);
    const [event] = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'mail.failed'), eq(domainEvents.subjectId, row.id)));
    expect(event).toMatchObject({ schoolId: school.id, subjectType: 'Mail', payload: { userId: id, kind: 'invitation', attempts: 1, responseCode: 550 } });
  });

  it('an unreachable server is temporary: retried until the schedule runs out, then failed', async () => {
    const id = await student(school, 'nowhere@example.com');
    await deliver([startMailWorker(service.database, { ...fast(), smtpUrl: 'smtp://127.0.0.1:1' })]);
    const [row] = await mailsOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
  });
});

describe('two workers on one outbox', () => {
  it('send each mail exactly once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push(await student(school, `pair${i}@example.com`));
    const before = smtp.received.length;
    // Two instances: on PostgreSQL the second worker has a connection pool of its own, as another process would.
    const second = service.databaseUrl ? await openDatabase({ url: service.databaseUrl, maxConnections: 2 }) : service.database;
    // Small batches so that both workers claim at once, round after round.
    try {
      await deliver([startMailWorker(service.database, { ...fast(), batchSize: 3 }), startMailWorker(second, { ...fast(), batchSize: 3 })]);
    } finally {
      if (second !== service.database) await second.close();
    }
    const got = smtp.received.slice(before).map((m) => m.messageId);
    expect(got).toHaveLength(12);
    expect(new Set(got).size).toBe(12);
    for (const id of ids) expect((await mailsOf(id))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });
});
