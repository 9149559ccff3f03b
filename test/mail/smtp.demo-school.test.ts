import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailWorker } from '../../src/modules/mail/index.js';
import { mails } from '../../src/modules/mail/mail.table.js';
import { seed, type SeedResult } from '../../src/tools/seed.js';
import { type Service, startService } from '../support/service.js';
import { LoopbackSmtp, rawHeader } from '../support/mail.fixtures.js';

// The sell-and-learn loop of the demo school (npm run seed: people, enrollments, paid orders, forum
// answers, messages) through the API, its mails delivered to a real SMTP server on loopback.

let service: Service;
let seeded: SeedResult;
const smtp = new LoopbackSmtp();
beforeAll(async () => {
  await smtp.start();
  service = await startService();
  seeded = await seed(service.database, () => {});
});
afterAll(async () => {
  await service?.stop();
  await smtp.stop();
});

describe('the demo school’s mails', () => {
  it('are kept readable through GET /mails with no SMTP server (the README example)', async () => {
    const admin = service.client(seeded.tokens.admin);
    const res = await admin.get('/mails?kind=invitation');
    expect(res.status, res.text).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(6);
    expect(res.body[0]).toMatchObject({ kind: 'invitation', locale: 'pt-BR', status: 'queued' });
    expect(res.body[0].subject).toMatch(/^Boas-vindas a /);
  });

  it('each go out once: welcome, enrollment, answered question', async () => {
    const queued = await service.db.select().from(mails).where(eq(mails.status, 'queued'));
    const kinds = new Set(queued.map((m) => m.kind));
    // The demo orders are imports with created_at (no callbacks, so no receipts) and its messages go to a
    // product's channel (nobody notified): test/mail/delivery.test.ts sends those two.
    for (const kind of ['invitation', 'enrollment_activated', 'forum_question_answered'] as const) expect(kinds, kind).toContain(kind);
    const worker = startMailWorker(service.database, { smtpUrl: smtp.url, poll: false, batchSize: 100 });
    while ((await worker.runOnce()) > 0);
    await worker.stop();
    const ids = smtp.received.map((m) => m.messageId);
    expect(ids).toHaveLength(queued.length);
    expect(new Set(ids)).toEqual(new Set(queued.map((m) => m.messageId)));
    const [{ n }] = await service.db.select({ n: count() }).from(mails).where(eq(mails.status, 'queued'));
    expect(Number(n)).toBe(0);

    const answered = smtp.received.find((m) => m.subject?.startsWith('Sua pergunta foi respondida'))!;
    expect(rawHeader(answered, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(answered.html).toContain('recebeu uma resposta da equipe');
  });
});
