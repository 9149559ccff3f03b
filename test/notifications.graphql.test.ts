import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../src/modules/notifications/notification.table.js';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';

// GraphQL face of Notification: notifications(studentId, collaboratorId, unread) with unreadCount,
// createNotification, toggleNotificationRead, Student.notifications / Collaborator.notifications.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('GraphQL Notifications', 'GraphQL Notifications Other')));
afterAll(() => service?.stop());

const create = graphql(`mutation ($s: ID, $c: ID, $input: NotificationInput!) {
  createNotification(studentId: $s, collaboratorId: $c, input: $input) { notification { id userId text url read readAt } errors { field code message } }
}`);
const toggle = graphql(`mutation ($id: ID!) { toggleNotificationRead(id: $id) { notification { id read readAt } errors { code } } }`);
const list = graphql(`query ($s: ID, $c: ID, $unread: Boolean) {
  notifications(studentId: $s, collaboratorId: $c, unread: $unread, first: 100) { totalCount unreadCount nodes { id read } }
}`);

async function notify(userId: number, kind: 's' | 'c' = 's', text = 'Hi') {
  const res = await school.admin.graphql(create, { [kind]: userId, input: { text } });
  expect(res.data.createNotification.errors, JSON.stringify(res)).toEqual([]);
  return Number(res.data.createNotification.notification.id);
}

describe('createNotification', () => {
  it('notifies a student or a collaborator', async () => {
    const student = await f.person(school, 'Student');
    const teacher = await f.person(school, 'Collaborator');
    const a = await school.admin.graphql(create, { s: student.id, input: { text: 'For the student', url: '/a' } });
    expect(a.data.createNotification).toMatchObject({
      errors: [],
      notification: { userId: String(student.id), text: 'For the student', url: '/a', read: false, readAt: null },
    });
    const b = await school.admin.graphql(create, { c: teacher.id, input: {} });
    expect(b.data.createNotification.notification).toMatchObject({ userId: String(teacher.id), text: null, url: null });
  });

  it('needs exactly one recipient of the school', async () => {
    const student = await f.person(school, 'Student');
    const teacher = await f.person(school, 'Collaborator');
    const none = await f.expectNoWrite(() => school.admin.graphql(create, { input: { text: 'x' } }));
    expect(none.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const both = await f.expectNoWrite(() => school.admin.graphql(create, { s: student.id, c: teacher.id, input: { text: 'x' } }));
    expect(both.errors![0].extensions.code).toBe('BAD_USER_INPUT');
    const stranger = await f.person(other, 'Student');
    const foreign = await f.expectNoWrite(() => school.admin.graphql(create, { s: stranger.id, input: { text: 'x' } }));
    expect(foreign.errors![0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('notifications and unreadCount', () => {
  it("lists a student's notifications, filters by unread, and counts the unread whatever the filter", async () => {
    const student = await f.person(school, 'Student');
    const [n1, n2, n3] = [await notify(student.id), await notify(student.id), await notify(student.id)];
    await notify((await f.person(school, 'Student')).id);
    await school.admin.graphql(toggle, { id: n2 });

    const all = (await school.admin.graphql(list, { s: student.id })).data.notifications;
    expect(all).toMatchObject({ totalCount: 3, unreadCount: 2 });
    expect(ids(all.nodes)).toEqual([n1, n2, n3]);
    const unread = (await school.admin.graphql(list, { s: student.id, unread: true })).data.notifications;
    expect(ids(unread.nodes)).toEqual([n1, n3]);
    expect(unread).toMatchObject({ totalCount: 2, unreadCount: 2 });
    const read = (await school.admin.graphql(list, { s: student.id, unread: false })).data.notifications;
    expect(ids(read.nodes)).toEqual([n2]);
    expect(read.unreadCount).toBe(2);
  });

  it("lists a collaborator's; without a recipient, the school's (staff) or one's own (student)", async () => {
    const teacher = await f.person(school, 'Collaborator');
    const t1 = await notify(teacher.id, 'c');
    expect(ids((await school.admin.graphql(list, { c: teacher.id })).data.notifications.nodes)).toEqual([t1]);
    const { client, id } = await f.studentClient(school);
    const mine = await notify(id);
    const everything = ids((await school.admin.graphql(list, {})).data.notifications.nodes);
    expect(everything).toEqual(expect.arrayContaining([t1, mine]));
    const own = (await client.graphql(list, {})).data.notifications;
    expect(ids(own.nodes)).toEqual([mine]);
    expect(own.unreadCount).toBe(1);
  });

  it("a student may not name another student (NOT_FOUND), nor read another's notification", async () => {
    const { client } = await f.studentClient(school);
    const neighbour = await f.person(school, 'Student');
    const theirs = await notify(neighbour.id);
    expect((await client.graphql(list, { s: neighbour.id })).errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await client.graphql(`query ($id: ID!) { notification(id: $id) { id } }`, { id: theirs })).errors![0].extensions.code).toBe('NOT_FOUND');
    const toggled = await f.expectNoWrite(() => client.graphql(toggle, { id: theirs }));
    expect(toggled.errors![0].extensions.code).toBe('NOT_FOUND');
  });

  it("another school's student is NOT_FOUND", async () => {
    const foreign = await f.person(other, 'Student');
    expect((await school.admin.graphql(list, { s: foreign.id })).errors![0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('toggleNotificationRead', () => {
  it('flips read and readAt, twice back to unread', async () => {
    const { client, id } = await f.studentClient(school);
    const n = await notify(id);
    service.clock.set('2026-03-03T03:03:03Z');
    const first = await client.graphql(toggle, { id: n });
    expect(first.data.toggleNotificationRead).toEqual({ notification: { id: String(n), read: true, readAt: '2026-03-03T03:03:03.000Z' }, errors: [] });
    const second = await client.graphql(toggle, { id: n });
    expect(second.data.toggleNotificationRead.notification).toEqual({ id: String(n), read: false, readAt: null });
  });
});

describe('Student.notifications and Collaborator.notifications', () => {
  it('carry the person’s notifications with their unread count', async () => {
    const student = await f.person(school, 'Student');
    const teacher = await f.person(school, 'Collaborator');
    const [s1, s2] = [await notify(student.id), await notify(student.id)];
    await school.admin.graphql(toggle, { id: s1 });
    const t1 = await notify(teacher.id, 'c');
    const res = await school.admin.graphql(
      graphql(`query ($s: ID!, $c: ID!) {
        student(id: $s) { notifications { totalCount unreadCount nodes { id } } unread: notifications(unread: true) { nodes { id } } }
        collaborator(id: $c) { notifications(first: 1) { totalCount unreadCount nodes { id } } }
      }`),
      { s: student.id, c: teacher.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.student.notifications).toMatchObject({ totalCount: 2, unreadCount: 1 });
    expect(ids(res.data.student.notifications.nodes)).toEqual([s1, s2]);
    expect(ids(res.data.student.unread.nodes)).toEqual([s2]);
    expect(res.data.collaborator.notifications).toMatchObject({ totalCount: 1, unreadCount: 1, nodes: [{ id: String(t1) }] });
  });

  it('students { notifications { unreadCount } } costs the same for 30 students as for 3', async () => {
    const s = await service.school('Batching Notifications');
    async function seed(n: number) {
      for (let i = 0; i < n; i++) {
        const student = await f.person(s, 'Student');
        await service.db.insert(notifications).values([1, 2, 3].map((k) => ({ schoolId: s.id, userId: student.id, text: `N${k}`, read: k === 1 })));
      }
    }
    const query = graphql(`{ students(first: 100) { nodes { id notifications(first: 2) { totalCount unreadCount nodes { id read } } } } }`);
    await seed(3);
    const small = await service.countStatements(() => s.admin.graphql(query));
    await seed(27);
    let res: any;
    const large = await service.countStatements(async () => {
      res = await s.admin.graphql(query);
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.students.nodes).toHaveLength(30);
    expect(res.data.students.nodes.every((n: any) => n.notifications.totalCount === 3 && n.notifications.unreadCount === 2 && n.notifications.nodes.length === 2)).toBe(true);
    expect(large).toBe(small);
  });

  it('notifications { nodes } of the school costs a constant number of statements', async () => {
    const s = await service.school('Counting Notifications');
    const student = await f.person(s, 'Student');
    const q = graphql(`{ notifications(first: 100) { totalCount unreadCount nodes { id text read readAt } } }`);
    await service.db.insert(notifications).values({ schoolId: s.id, userId: student.id });
    const small = await service.countStatements(() => s.admin.graphql(q));
    await service.db.insert(notifications).values(Array.from({ length: 40 }, () => ({ schoolId: s.id, userId: student.id })));
    let res: any;
    const large = await service.countStatements(async () => {
      res = await s.admin.graphql(q);
    });
    expect(res.data.notifications).toMatchObject({ totalCount: 41, unreadCount: 41 });
    expect(large).toBe(small);
  });
});
