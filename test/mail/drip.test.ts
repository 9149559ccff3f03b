import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceReleasedLessons, startDripMailer } from '../../src/modules/mail/index.js';
import { lessonReleaseNotices, mails, mailSettings } from '../../src/modules/mail/mail.table.js';
import { unsubscribeToken } from '../../src/modules/mail/mail.links.js';
import { users } from '../../src/modules/users/user.table.js';
import { api, type Fixtures, next, startCourses } from '../support/courses.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';

// The lesson-released (drip) mail (issue 28): a periodic job, OFF in the test service, run here by
// runOnce at the TestClock's time. A lesson released later than the enrollment's start is announced
// once per enrollment, in the student's language, with a link; lessons open from day 0 never are.

let service: Service;
let school: TestSchool;
let f: Fixtures;
let make: ReturnType<typeof api>;

beforeAll(async () => ({ service, school, f, make } = await startCourses('Escola Gota', 'Other Drip School')));
afterAll(() => service?.stop());

/** A product titled `title` of one course of one module holding lessons made from `specs`. */
async function productWith(title: string, specs: Record<string, unknown>[]) {
  const course = await make.course();
  const module = await make.module(course.id);
  const lessons = [];
  for (const spec of specs) lessons.push(await make.lesson({ course_module_id: module.id, ...spec }));
  const product = await f.product(school, title);
  await f.offer(product.id, [course.id]);
  return { product, lessons };
}

/** An enrolled student (active, activated now) whose own language is `locale`. */
async function enrolled(productId: number, locale: string | null = null, fields: Record<string, unknown> = {}) {
  const [student] = await service.db
    .insert(users)
    .values({ schoolId: school.id, type: 'Student', fullName: `Drip ${next()}`, email: `drip${next()}@example.com`, locale })
    .returning();
  return f.enrollment(school, productId, { studentId: student.id, ...fields });
}

const dripMailsOf = (userId: number) =>
  service.db.select().from(mails).where(and(eq(mails.userId, userId), eq(mails.kind, 'lesson_released'))).orderBy(asc(mails.id));
const run = () => announceReleasedLessons(service.db, service.clock.now());

describe('lesson released mails', () => {
  it('a lesson released by drip sends one mail in the student\u2019s language, naming it, with its link; a second run sends nothing', async () => {
    const { product, lessons } = await productWith('Curso de Espanhol', [{ title: 'Bienvenida' }, { title: 'Los verbos', release_after: 2 }]);
    const [, later] = lessons;
    const spanish = await enrolled(product.id, 'es');

    // Day 1: nothing released by drip yet; day 0's lesson is never announced.
    service.clock.advanceDays(1);
    expect(await run()).toBe(0);
    expect(await dripMailsOf(spanish.studentId)).toEqual([]);

    service.clock.advanceDays(1.5);
    expect(await run()).toBe(1);
    const [mail] = await dripMailsOf(spanish.studentId);
    expect(mail).toMatchObject({ locale: 'es', status: 'queued', subject: 'Nueva clase disponible: Los verbos' });
    expect(mail.text).toContain('La clase Los verbos de Curso de Espanhol ya está disponible.');
    expect(mail.text).toContain(`/lessons/${later.id}`);
    expect(mail.html).toContain(`/lessons/${later.id}`);
    expect(mail.headers['List-Unsubscribe']).toMatch(/^<https?:\/\/.+\/mails\/unsubscribe\?token=/);

    // The next run, and the next day's: nothing new.
    expect(await run()).toBe(0);
    service.clock.advanceDays(1);
    expect(await run()).toBe(0);
    expect(await dripMailsOf(spanish.studentId)).toHaveLength(1);
  });

  it('lessons released together make one mail naming each; the school\u2019s language when the person has none', async () => {
    const { product, lessons } = await productWith('Curso Junto', [
      { title: 'Primeira', release_after: 1 },
      { title: 'Segunda', release_after: 1 },
    ]);
    const person = await enrolled(product.id);
    service.clock.advanceDays(1);
    expect(await run()).toBe(1);
    const [mail] = await dripMailsOf(person.studentId);
    expect(mail.locale).toBe('pt-BR');
    expect(mail.subject).toBe('2 novas aulas liberadas em Curso Junto');
    expect(mail.text).toContain('- Primeira');
    expect(mail.text).toContain('- Segunda');
    expect(mail.text).toContain(`/lessons/${lessons[0].id}`);
    const notices = await service.db.select().from(lessonReleaseNotices).where(eq(lessonReleaseNotices.enrollmentId, person.id));
    expect(notices.map((n) => n.lessonId).sort()).toEqual(lessons.map((l) => l.id).sort());
  });

  it('a lesson with a release date announces itself to every enrollment that started before it', async () => {
    const releaseAt = new Date(service.clock.now().getTime() + 36 * 3600_000).toISOString();
    const { product } = await productWith('Curso Datado', [{ title: 'Ao vivo', release_at: releaseAt }]);
    const a = await enrolled(product.id);
    const b = await enrolled(product.id, 'en');
    service.clock.advanceDays(1);
    expect(await run()).toBe(0);
    service.clock.advanceDays(1);
    expect(await run()).toBe(2);
    expect((await dripMailsOf(a.studentId)).map((m) => m.subject)).toEqual(['Nova aula liberada: Ao vivo']);
    expect((await dripMailsOf(b.studentId)).map((m) => m.subject)).toEqual(['New lesson available: Ao vivo']);
  });

  it('lessons open from the start of the enrollment send nothing, whenever the run comes', async () => {
    const past = new Date(service.clock.now().getTime() - 3600_000).toISOString();
    const { product } = await productWith('Curso Aberto', [{ title: 'Livre' }, { title: 'Já datada', release_at: past }, { title: 'Zero', release_after: 0 }]);
    const person = await enrolled(product.id);
    expect(await run()).toBe(0);
    service.clock.advanceDays(2);
    expect(await run()).toBe(0);
    expect(await dripMailsOf(person.studentId)).toEqual([]);
  });

  it('a canceled (or pending, or unavailable) enrollment gets nothing', async () => {
    const { product } = await productWith('Curso Cancelado', [{ title: 'Depois', release_after: 1 }]);
    const canceled = await enrolled(product.id, null, { status: 'canceled' });
    const pending = await enrolled(product.id, null, { status: 'pending' });
    const lapsed = await enrolled(product.id, null, { unlimited: false, availableUntil: new Date(service.clock.now().getTime() + 12 * 3600_000) });
    service.clock.advanceDays(1);
    expect(await run()).toBe(0);
    for (const e of [canceled, pending, lapsed]) expect(await dripMailsOf(e.studentId)).toEqual([]);
  });

  it('two runners at once send each mail once', async () => {
    const { product } = await productWith('Curso Duplo', [{ title: 'Uma vez', release_after: 1 }]);
    const people = [await enrolled(product.id), await enrolled(product.id), await enrolled(product.id)];
    service.clock.advanceDays(1);
    const one = startDripMailer(service.database, { now: service.clock.now, poll: false, batchSize: 2 });
    const two = startDripMailer(service.database, { now: service.clock.now, poll: false, batchSize: 2 });
    // Rounds of both at once (on PostgreSQL they overlap: one waits on the other's claims, then skips them), until neither finds any.
    let total = 0;
    for (let round = 0; round < 5; round++) {
      const counts = await Promise.all([one.runOnce(), two.runOnce()]);
      total += counts[0] + counts[1];
      if (counts[0] + counts[1] === 0) break;
    }
    await Promise.all([one.stop(), two.stop()]);
    expect(total).toBe(3);
    for (const p of people) expect(await dripMailsOf(p.studentId)).toHaveLength(1);
  });

  it('the school turning the kind off, or the person unsubscribing, suppresses the mail', async () => {
    const { product } = await productWith('Curso Silencioso', [{ title: 'Quieta', release_after: 1 }]);
    const person = await enrolled(product.id);
    const subscribed = await enrolled(product.id);
    // The person unsubscribes through their link (a POST, as RFC 8058's one-click).
    const res = await service.anonymous.post(`/mails/unsubscribe?token=${encodeURIComponent(unsubscribeToken(school.id, person.studentId))}`, {});
    expect(res.status, res.text).toBe(200);
    service.clock.advanceDays(1);
    expect(await run()).toBe(2);
    expect((await dripMailsOf(person.studentId)).map((m) => m.status)).toEqual(['suppressed']);
    expect((await dripMailsOf(subscribed.studentId)).map((m) => m.status)).toEqual(['queued']);

    const { product: quiet } = await productWith('Curso Desligado', [{ title: 'Desligada', release_after: 1 }]);
    const off = await enrolled(quiet.id);
    await service.db.insert(mailSettings).values({ schoolId: school.id, disabledKinds: ['lesson_released'] });
    service.clock.advanceDays(1);
    expect(await run()).toBe(1);
    expect((await dripMailsOf(off.studentId)).map((m) => m.status)).toEqual(['suppressed']);
    await service.db.update(mailSettings).set({ disabledKinds: [] }).where(eq(mailSettings.schoolId, school.id));
  });

  it('notices older than the catch-up window are pruned by the run', async () => {
    const ids = (await service.db.select({ id: lessonReleaseNotices.id }).from(lessonReleaseNotices)).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    service.clock.advanceDays(10);
    expect(await run()).toBe(0);
    expect(await service.db.select().from(lessonReleaseNotices).where(inArray(lessonReleaseNotices.id, ids))).toEqual([]);
  });
});
