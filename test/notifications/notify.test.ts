import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { createClient, type Client as WsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { subscriptionServers } from '../../src/app.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { notifications } from '../../src/modules/notifications/notification.table.js';
import { answer, notificationsWithUrl, person, question, section } from '../support/forums.fixtures.js';
import { type Service, startService, type TestSchool } from '../support/service.js';

// Notifications without holes (issue 28): every notification is written by notify()
// (src/modules/notifications/notification.notify.ts), which emits notification.created and so feeds
// notificationReceived; the forum's question and answer callbacks go through it.

const SRC = join(import.meta.dirname, '../../src');
const NOTIFY = 'modules/notifications/notification.notify.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.(ts|mts|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** Every write into the notifications table that src/ holds: a drizzle insert of the table, or SQL text inserting into it. */
function notificationInserts(text: string): number[] {
  // The drizzle table's local names in this file (`import { notifications as n }`), and the table itself.
  const names = new Set(['notifications']);
  for (const m of text.matchAll(/\bnotifications\s+as\s+(\w+)/g)) names.add(m[1]);
  const lines: number[] = [];
  const patterns = [
    ...[...names].map((n) => new RegExp(String.raw`\.insert\(\s*${n}\s*\)`, 'g')),
    /insert\s+into\s+"?(?:public"?\."?)?notifications"?\b/gi,
    /insert\s+into\s+\$\{\s*notifications\s*\}/gi,
  ];
  for (const pattern of patterns)
    for (const m of text.matchAll(pattern)) lines.push(text.slice(0, m.index).split('\n').length);
  return lines;
}

describe('the notifications table is written only by notify()', () => {
  it('no file of src/ but notify\'s inserts into notifications', () => {
    const bypasses = sourceFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), lines: notificationInserts(readFileSync(file, 'utf8')) }))
      .filter((f) => f.file !== NOTIFY && f.lines.length > 0)
      .map((f) => `src/${f.file}:${f.lines.join(',')}`);
    expect(bypasses, 'write notifications through notify() (notification.notify.ts), which emits notification.created').toEqual([]);
  });

  it('the scan finds what it looks for: notify() itself, an aliased table, and SQL text', () => {
    expect(notificationInserts(readFileSync(join(SRC, NOTIFY), 'utf8')).length).toBeGreaterThan(0);
    expect(notificationInserts('import { notifications as n } from "x";\nawait tx.insert(n).values({})')).toEqual([2]);
    expect(notificationInserts('await tx.execute(sql`INSERT INTO notifications (user_id) values (1)`)')).toEqual([1]);
    expect(notificationInserts('await tx.execute(sql`insert into ${notifications} (user_id) values (1)`)')).toEqual([1]);
    expect(notificationInserts('await tx.insert(notificationsArchive).values({})')).toEqual([]);
  });
});

describe('forum notifications', () => {
  let service: Service;
  let school: TestSchool;
  let url: string;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    service = await startService();
    url = `${(await service.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
    school = await service.school('Forum Notices');
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await service?.stop();
  });

  const eventsOfNotifications = (ids: number[]) =>
    service.db
      .select({ name: domainEvents.name, subjectId: domainEvents.subjectId, payload: domainEvents.payload })
      .from(domainEvents)
      .where(and(eq(domainEvents.subjectType, 'Notification'), inArray(domainEvents.subjectId, ids.length ? ids : [0])));

  async function until(check: () => boolean, what: string, ms = 5000) {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** notificationReceived for the credential's own person; resolves once the service listens. */
  async function listen(token: string) {
    const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: true });
    clients.push(client);
    const results: any[] = [];
    const subscribers = () => subscriptionServers.get(service.app)!.events.subscribers;
    const before = subscribers();
    let done = false;
    client.subscribe({ query: 'subscription { notificationReceived { id userId text url } }' }, { next: (r) => results.push(r), error: () => (done = true), complete: () => (done = true) });
    await until(() => done || subscribers() > before, 'the subscription to start');
    return { results, next: (n: number) => until(() => results.length >= n, `${n} notification(s)`) };
  }

  it("a student's question notifies each collaborator and admin through notify(): rows and notification.created events", async () => {
    const teacher = await person(service, school, 'Collaborator');
    const student = await person(service, school, 'Student');
    const s = await section(school.admin, school.forumId);
    const q = await question(student.client, s.id, { title: 'Past simple?' });
    const notified = await notificationsWithUrl(service, `/forum_questions/${q.id}`);
    expect(notified.map((n) => n.userId)).toContain(teacher.user.id);
    expect(notified.map((n) => n.userId)).not.toContain(student.user.id);
    expect(notified.every((n) => n.text === 'New forum question: Past simple?')).toBe(true);
    const events = await eventsOfNotifications(notified.map((n) => n.id));
    expect(events.map((e) => e.subjectId).sort()).toEqual(notified.map((n) => n.id).sort());
    expect(events.every((e) => e.name === 'notification.created')).toBe(true);
    const forTeacher = notified.find((n) => n.userId === teacher.user.id)!;
    expect(events.find((e) => e.subjectId === forTeacher.id)!.payload).toEqual({ userId: teacher.user.id, text: 'New forum question: Past simple?', url: `/forum_questions/${q.id}` });
  });

  it("staff answering a student's question notify the student (row, notification.created, notificationReceived); the student's own answer does not", async () => {
    const student = await person(service, school, 'Student');
    const teacher = await person(service, school, 'Collaborator');
    const s = await section(school.admin, school.forumId);
    const q = await question(student.client, s.id, { title: 'Used to?' });
    const feed = await listen(student.client.token!);
    const ofStudent = () =>
      service.db.select().from(notifications).where(and(eq(notifications.userId, student.user.id), eq(notifications.url, `/forum_questions/${q.id}`)));

    await answer(student.client, q.id, { text: 'Anyone?' });
    expect(await ofStudent()).toEqual([]);

    await answer(teacher.client, q.id, { text: 'A habit that is over.' });
    const rows = await ofStudent();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ schoolId: school.id, text: 'New answer to your question: Used to?', read: false });
    expect((await eventsOfNotifications([rows[0].id])).map((e) => e.name)).toEqual(['notification.created']);
    await feed.next(1);
    expect(feed.results[0]).toEqual({
      data: { notificationReceived: { id: String(rows[0].id), userId: String(student.user.id), text: 'New answer to your question: Used to?', url: `/forum_questions/${q.id}` } },
    });
    // The teacher, who answered, is told nothing of its own answer.
    expect(
      await service.db.select().from(notifications).where(and(eq(notifications.userId, teacher.user.id), eq(notifications.text, 'New answer to your question: Used to?'))),
    ).toEqual([]);
  });

  it('an answer by another student notifies the author too; a question with no author notifies nobody when answered', async () => {
    const author = await person(service, school, 'Student');
    const peer = await person(service, school, 'Student');
    const s = await section(school.admin, school.forumId);
    const q = await question(author.client, s.id, { title: 'Peers?' });
    await answer(peer.client, q.id, { text: 'Same question here.' });
    const rows = await service.db.select().from(notifications).where(eq(notifications.text, 'New answer to your question: Peers?'));
    expect(rows.map((r) => r.userId)).toEqual([author.user.id]);

    // An admin credential bound to no user asks a question with no author.
    const unbound = await service.token('admin', school.id);
    const orphan = await question(unbound, s.id, { title: 'Nobody asked' });
    expect(orphan.user_id).toBeNull();
    await answer(school.admin, orphan.id, { text: 'Still answered.' });
    expect(await service.db.select().from(notifications).where(eq(notifications.text, 'New answer to your question: Nobody asked'))).toEqual([]);
  });
});
