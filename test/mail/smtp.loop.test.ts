import { and, eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../../src/db/school.table.js';
import { announceReleasedLessons } from '../../src/modules/mail/index.js';
import { certificateUrl, schoolSite } from '../../src/modules/mail/mail.links.js';
import { mails } from '../../src/modules/mail/mail.table.js';
import { api } from '../support/courses.fixtures.js';
import { answer, question, section } from '../support/forums.fixtures.js';
import { dataOf, graphql } from '../support/graphql.js';
import { clickUnsubscribe, LoopbackSmtp, mailFixtures, rawHeader } from '../support/mail.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Issue 28's loop, over HTTP, with a real SMTP server on loopback (smtp-server, parsed by
// mailparser): a school sells a course and a student learns it. Every mail the loop causes reaches
// the server once, in the person's language, with its link, a text and an HTML part and the
// headers providers expect; the one-click unsubscribe link of a received mail stops the optional
// ones. Errors of the API follow Accept-Language (pt-BR); an unknown language gives English.

let service: Service;
let school: TestSchool;
const world = twoSchools('Escola Laço', 'Other Loop School', (w) => ({ service, school } = w));
const smtp = new LoopbackSmtp();
const { deliver, mailsOf } = mailFixtures(world, smtp);

beforeAll(async () => {
  await smtp.start();
});
afterAll(async () => {
  await smtp.stop();
});

const ESSENTIAL = new Set(['invitation', 'password_reset']);

/** The checks every mail of the loop passes: one text and one HTML part, both carrying `link`, and the headers. */
function expectWellFormed(mail: ParsedMail, kind: string, link: string) {
  expect(mail.text, kind).toContain(link);
  expect(String(mail.html).replace(/&#x3D;/g, '='), kind).toContain(`href="${link}"`);
  expect(mail.html, kind).toContain('<html lang="pt-BR">');
  expect(mail.messageId, kind).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
  expect(mail.date, kind).toBeInstanceOf(Date);
  expect(rawHeader(mail, 'Auto-Submitted'), kind).toBe('auto-generated');
  if (ESSENTIAL.has(kind)) {
    expect(rawHeader(mail, 'List-Unsubscribe'), kind).toBeUndefined();
    expect(rawHeader(mail, 'List-Unsubscribe-Post'), kind).toBeUndefined();
  } else {
    expect(rawHeader(mail, 'List-Unsubscribe'), kind).toMatch(/^<http:\/\/localhost:\d+\/mails\/unsubscribe\?token=[\w.%-]+>$/);
    expect(rawHeader(mail, 'List-Unsubscribe-Post'), kind).toBe('List-Unsubscribe=One-Click');
  }
  // No secret beyond the single-use link the mail exists to carry.
  expect(mail.text, kind).not.toMatch(/whsec_|Bearer /);
}

describe('the sell-and-learn loop through SMTP', () => {
  it('sends each mail once, in Portuguese, with its link, both parts and the headers; one click stops the optional ones', async () => {
    const pt = service.client(school.admin.token, { 'accept-language': 'pt-BR' });
    const app = await service.token('app', school.id);

    // The catalogue: a certified product of 12 months, one lesson open at once and one after 2 days.
    const make = api(school.admin);
    const course = await make.course();
    const module = await make.module(course.id);
    const first = await make.lesson({ course_module_id: module.id, title: 'Abertura' });
    const later = await make.lesson({ course_module_id: module.id, title: 'Segunda semana', release_after: 2 });
    const product = await school.admin.post('/school_products', {
      school_product: { title: 'Curso Vendido', course_ids: [course.id], certification: true, available_time_type: 'time', available_time_length: 12, available_time_unit: 'months' },
    });
    expect(product.status, product.text).toBe(201);
    const billing = await dataOf(
      school.admin,
      graphql(`mutation ($option: PaymentOptionInput!, $coupon: CouponInput!, $gateway: GatewayCredentialInput!) {
        createPaymentOption(input: $option) { paymentOption { id } errors { field code } }
        createCoupon(input: $coupon) { coupon { id } errors { field code } }
        createGatewayCredential(input: $gateway) { gatewayCredential { id signingSecret } errors { field code } }
      }`),
      { option: { name: 'À vista', price: 49700, installmentsMax: 1, schoolProductId: String(product.body.id) }, coupon: { code: 'LACO30', discountPercent: 30 }, gateway: { gateway: 'pagarme' } },
    );
    const gateway = billing.createGatewayCredential.gatewayCredential;

    // The admin's request in Portuguese: its refusals read Portuguese.
    const refused = await pt.graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { field code message } } }', { input: { fullName: 'Sem e-mail' } });
    expect(refused.data.createStudent.errors).toContainEqual({ field: ['email'], code: 'blank', message: 'não pode ficar em branco' });

    // 1. The student (no language of its own: the school's, Portuguese): the invitation.
    const email = 'bia.laco@example.com';
    const made = await pt.graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { field code } } }', { input: { fullName: 'Bia Laço', email } });
    expect(made.data.createStudent.errors).toEqual([]);
    const studentId = Number(made.data.createStudent.student.id);
    const student = await service.token('student', school.id, studentId);

    // 2. The sale: an order at 30 % off, paid by card, confirmed by the gateway's signed callback: the receipt and the enrollment.
    const order = await pt.post('/orders', { order: { student_id: studentId, coupon_id: Number(billing.createCoupon.coupon.id), items_attributes: [{ payment_option_id: Number(billing.createPaymentOption.paymentOption.id) }] } });
    expect(order.status, order.text).toBe(201);
    expect(order.body.amount_to_pay).toBe(34790);
    const paying = await pt.post(`/invoices/${order.body.invoice_ids[0]}/payments`, { payment: { kind: 0, installments: 1 } });
    expect(paying.status, paying.text).toBe(201);
    const callback = JSON.stringify({ type: 'payment.status', data: { payment_id: paying.body.id, status: 'confirmed' } });
    const at = service.clock.now();
    const confirmed = await service.anonymous.post(`/gateways/${gateway.id}/notifications`, undefined, {
      raw: callback,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_loop_1',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(gateway.signingSecret).sign('evt_loop_1', at, callback),
      },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    const [enrollment] = (await app.get(`/students/${studentId}/enrollments`)).body;
    expect(enrollment).toMatchObject({ order_id: order.body.id, status: 'active' });

    // 3. Two and a half days on, the drip job announces the second lesson.
    service.clock.advanceDays(2.5);
    expect(await announceReleasedLessons(service.db, service.clock.now())).toBe(1);

    // 4. A password reset asked anonymously (its link lives an hour or so: asked now, used below).
    const reset = await service.anonymous.post('/users/password', { user: { email, school_id: school.id } });
    expect(reset.status, reset.text).toBe(200);

    // 5. The student completes both lessons: the certificate.
    for (const lesson of [first, later]) {
      const done = await student.put(`/enrollments/${enrollment.id}/lessons/${lesson.id}/progress`, { progress: { completed: true } });
      expect(done.status, done.text).toBe(200);
    }
    const code = (await student.get(`/enrollments/${enrollment.id}`)).body.certificate_code as string;
    expect(code).toBeTruthy();

    // 6. The student asks in the forum; the staff answer.
    const asked = await question(student, (await section(school.admin, school.forumId)).id, { title: 'Onde fica o material?' });
    await answer(school.admin, asked.id, { text: 'Na primeira aula.' });

    // 7. The staff write to the student.
    const channel = await dataOf(school.admin, 'mutation ($input: ChannelInput!) { createChannel(input: $input) { channel { id } errors { code } } }', { input: { name: 'Avisos' } });
    const channelId = channel.createChannel.channel.id;
    const message = await school.admin.post(`/channels/${channelId}/messages`, {
      message: { subject: 'Olá', text: 'Segredo da turma: 4321', sender_id: school.adminId, owners: [{ id: studentId, type: 'Student' }] },
    });
    expect(message.status, message.text).toBe(201);

    await deliver();

    // Each kind once, in the order of the loop, to the student, in Portuguese.
    const received = smtp.to(email);
    const rows = await mailsOf(studentId);
    expect(rows.map((r) => [r.kind, r.status, r.locale])).toEqual(
      ['invitation', 'order_receipt', 'enrollment_activated', 'lesson_released', 'password_reset', 'certificate_issued', 'forum_question_answered', 'new_message'].map((k) => [k, 'sent', 'pt-BR']),
    );
    expect(received).toHaveLength(rows.length);
    const byKind = new Map(rows.map((r) => [r.kind, received.find((m) => m.messageId === r.messageId)!]));
    for (const r of rows) expect(byKind.get(r.kind), r.kind).toBeDefined();
    const m = (kind: string) => byKind.get(kind as never)!;

    expect(m('invitation').subject).toBe('Boas-vindas a Escola Laço');
    expect(m('password_reset').subject).toBe('Redefinição de senha em Escola Laço');
    expect(m('order_receipt').subject).toBe(`Recibo do pedido nº ${order.body.id}`);
    expect(m('order_receipt').text).toContain('R$\u00a0347,90');
    expect(m('enrollment_activated').subject).toBe('Sua matrícula em Curso Vendido está ativa');
    expect(m('lesson_released').subject).toBe('Nova aula liberada: Segunda semana');
    expect(m('certificate_issued').subject).toBe('Seu certificado de Curso Vendido');
    expect(m('certificate_issued').text).toContain(`Código de verificação: ${code}`);
    expect(m('forum_question_answered').subject).toBe('Sua pergunta foi respondida: Onde fica o material?');
    expect(m('new_message').subject).toMatch(/^Nova mensagem de /);
    // The message stays in the service: the mail only says there is one.
    expect(m('new_message').text).not.toContain('4321');

    // The links: set-password (invitation, reset), each a different single-use token; the order, the lesson, the certificate, the question.
    const passwordLink = (mail: ParsedMail) => /https?:\/\/[^\s"]+\/users\/password\/edit\?reset_password_token=[\w.%-]+/.exec(mail.text!)?.[0] ?? '';
    const [welcomeLink, resetLink] = [passwordLink(m('invitation')), passwordLink(m('password_reset'))];
    expect(welcomeLink).not.toBe('');
    expect(resetLink).not.toBe('');
    expect(resetLink).not.toBe(welcomeLink);
    // The school's site (no site of its own: its subdomain) for the mails whose link is the school itself.
    const site = schoolSite((await service.db.select().from(schools).where(eq(schools.id, school.id)))[0]);
    const links: Record<string, string> = {
      invitation: welcomeLink,
      password_reset: resetLink,
      order_receipt: `${site}/orders/${order.body.id}`,
      enrollment_activated: site,
      lesson_released: `${site}/lessons/${later.id}`,
      certificate_issued: certificateUrl(code),
      forum_question_answered: `${site}/forum_questions/${asked.id}`,
      new_message: site,
    };
    for (const r of rows) expectWellFormed(m(r.kind), r.kind, links[r.kind]);
    // The reset link works: the student sets a password with it.
    const token = decodeURIComponent(new URL(resetLink).searchParams.get('reset_password_token')!);
    const set = await service.anonymous.graphql('mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) { errors { field code } } }', {
      input: { resetPasswordToken: token, password: 'uma senha bem longa 2026' },
    });
    expect(set.data.resetPassword.errors).toEqual([]);

    // One click on the link of a received mail (RFC 8058: a POST with no credential): no further optional mail.
    const clicked = await clickUnsubscribe(service.app, rawHeader(m('new_message'), 'List-Unsubscribe')!);
    expect(clicked.statusCode, clicked.body).toBe(200);
    const again = await school.admin.post(`/channels/${channelId}/messages`, {
      message: { subject: 'De novo', text: 'Outra', sender_id: school.adminId, owners: [{ id: studentId, type: 'Student' }] },
    });
    expect(again.status, again.text).toBe(201);
    expect((await service.anonymous.post('/users/password', { user: { email, school_id: school.id } })).status).toBe(200);
    await deliver();
    expect(smtp.to(email).slice(received.length).map((mail) => mail.subject)).toEqual(['Redefinição de senha em Escola Laço']);
    const latest = await service.db.select().from(mails).where(and(eq(mails.userId, studentId), eq(mails.kind, 'new_message'))).orderBy(mails.id);
    expect(latest.map((r) => r.status)).toEqual(['sent', 'suppressed']);
  });

  it('an unknown language gives English: the errors of a request in German, the mails of a person whose language is German', async () => {
    const de = service.client(school.admin.token, { 'accept-language': 'de-DE' });
    const refused = await de.graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { field code message } } }', { input: { fullName: 'Ohne' } });
    expect(refused.data.createStudent.errors).toContainEqual({ field: ['email'], code: 'blank', message: "can't be blank" });
    const rest = await de.post('/orders', { order: {} });
    expect(JSON.stringify(rest.body.errors)).not.toMatch(/não|vazio|branco/);
    const made = await de.graphql('mutation ($input: PersonInput!) { createStudent(input: $input) { student { id } errors { field code } } }', {
      input: { fullName: 'Greta', email: 'greta.laco@example.com', locale: 'de-DE' },
    });
    expect(made.data.createStudent.errors).toEqual([]);
    expect((await service.anonymous.post('/users/password', { user: { email: 'greta.laco@example.com', school_id: school.id } }, { headers: { 'accept-language': 'de' } })).status).toBe(200);
    await deliver();
    const got = smtp.to('greta.laco@example.com');
    expect(got.map((mail) => mail.subject).sort()).toEqual(['Reset your password at Escola Laço', 'Welcome to Escola Laço']);
    for (const mail of got) expect(mail.html).toContain('<html lang="en">');
  });
});
