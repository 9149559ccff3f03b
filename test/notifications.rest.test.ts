import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../src/modules/notifications/notification.table.js';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// REST face of Notification: the wrapped lists of a student and of a collaborator, show (singular
// and plural), create for either, toggle_read; a student credential reaches only its own.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('Notifications School', 'Other Notifications School')));
afterAll(() => service?.stop());

async function row(id: number) {
  const [r] = await service.db.select().from(notifications).where(eq(notifications.id, id));
  return r;
}
async function notifyStudent(s: TestSchool, studentId: number, fields: Record<string, unknown> = { text: 'Hello' }) {
  const res = await s.admin.post(`/students/${studentId}/notifications`, { notification: fields });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; read: boolean; read_at: string | null };
}

describe('POST /students/:student_id/notifications and /collaborators/:collaborator_id/notifications', () => {
  it('given text and url as JSON, then 201 with a Location, the row, unread, and notification.created', async () => {
    const student = await f.person(school, 'Student');
    const res = await school.admin.post(`/students/${student.id}/notifications`, {
      notification: { text: 'Your certificate is ready', url: 'https://school.example.com/certificates/1', read: true, user_id: 1 },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/notifications/${res.body.id}`);
    expect(res.body).toMatchObject({
      school_id: school.id,
      user_id: student.id,
      text: 'Your certificate is ready',
      url: 'https://school.example.com/certificates/1',
      read: false,
      read_at: null,
    });
    expect(await row(res.body.id)).toMatchObject({ schoolId: school.id, userId: student.id, read: false, readAt: null });
    const events = await f.eventsOf('Notification', [res.body.id]);
    expect(events.map((e) => [e.name, e.schoolId])).toEqual([['notification.created', school.id]]);
  });

  it('given only a url (text is optional), a form body, and a multipart body, then 201 each', async () => {
    const student = await f.person(school, 'Student');
    const onlyUrl = await school.admin.post(`/students/${student.id}/notifications`, { notification: { url: '/courses/1' } });
    expect(onlyUrl.status, onlyUrl.text).toBe(201);
    expect(onlyUrl.body).toMatchObject({ text: null, url: '/courses/1' });
    const form = await school.admin.post(`/students/${student.id}/notifications`, { notification: { text: 'Form text' } }, { encoding: 'form' });
    expect(form.status, form.text).toBe(201);
    expect(form.body.text).toBe('Form text');
    const multipart = await school.admin.post(`/students/${student.id}/notifications`, { notification: { text: 'Multipart' } }, { encoding: 'multipart' });
    expect(multipart.status, multipart.text).toBe(201);
    expect((await f.notificationsOf(student.id)).map((n) => n.text)).toEqual([null, 'Form text', 'Multipart']);
  });

  it('notifies a collaborator, and an admin through the collaborator path', async () => {
    const teacher = await f.person(school, 'Collaborator');
    const res = await school.admin.post(`/collaborators/${teacher.id}/notifications`, { notification: { text: 'New question in the forum' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.user_id).toBe(teacher.id);
    const admin = await school.admin.post(`/collaborators/${school.adminId}/notifications`, { notification: { text: 'For the admin' } });
    expect(admin.status, admin.text).toBe(201);
  });

  it('given no notification hash or an empty one, then 400 and nothing written', async () => {
    const student = await f.person(school, 'Student');
    expectFieldError(await f.expectNoWrite(() => school.admin.post(`/students/${student.id}/notifications`, { text: 'x' })), 400, 'notification');
    expectFieldError(await f.expectNoWrite(() => school.admin.post(`/students/${student.id}/notifications`, { notification: {} })), 400, 'notification');
    expectErrorBody(await f.expectNoWrite(() => school.admin.post(`/students/${student.id}/notifications`)), 400);
  });

  it('given a text that is a hash, then 400 names text', async () => {
    const student = await f.person(school, 'Student');
    expectFieldError(
      await f.expectNoWrite(() => school.admin.post(`/students/${student.id}/notifications`, { notification: { text: { a: 1 } } })),
      400,
      'text',
    );
  });

  it('given a student of another school, a collaborator on the student path, or a student on the collaborator path, then 404', async () => {
    const foreign = await f.person(other, 'Student');
    const teacher = await f.person(school, 'Collaborator');
    const student = await f.person(school, 'Student');
    for (const path of [`/students/${foreign.id}/notifications`, `/students/${teacher.id}/notifications`, `/collaborators/${student.id}/notifications`, '/students/999999/notifications']) {
      expectFieldError(await f.expectNoWrite(() => school.admin.post(path, { notification: { text: 'x' } })), 404, 'base', 'not_found');
    }
  });

  it('given a student credential, then 403; given none, then 401', async () => {
    const { client, id } = await f.studentClient(school);
    expectErrorBody(await f.expectNoWrite(() => client.post(`/students/${id}/notifications`, { notification: { text: 'self' } })), 403);
    expectErrorBody(await f.expectNoWrite(() => service.anonymous.post(`/students/${id}/notifications`, { notification: { text: 'x' } })), 401);
  });
});

describe('GET lists reply {"notifications": [...]}', () => {
  it("lists one student's notifications, whole, by page, and unread only", async () => {
    const student = await f.person(school, 'Student');
    const neighbour = await f.person(school, 'Student');
    const n1 = await notifyStudent(school, student.id);
    const n2 = await notifyStudent(school, student.id);
    const n3 = await notifyStudent(school, student.id);
    await notifyStudent(school, neighbour.id);
    await school.admin.put(`/notifications/${n2.id}/toggle_read`);

    const res = await school.admin.get(`/students/${student.id}/notifications`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['notifications']);
    expect(ids(res.body.notifications)).toEqual([n1.id, n2.id, n3.id]);
    expect(res.headers['x-total-count']).toBe('3');

    const page = await school.admin.get(`/students/${student.id}/notifications?page=1&per_page=2`);
    expect(ids(page.body.notifications)).toEqual([n1.id, n2.id]);
    expect(page.headers).toMatchObject({ 'x-total-count': '3', 'x-page': '1', 'x-per-page': '2' });

    expect(ids((await school.admin.get(`/students/${student.id}/notifications?unread=true`)).body.notifications)).toEqual([n1.id, n3.id]);
    expect(ids((await school.admin.get(`/students/${student.id}/notifications?unread=false`)).body.notifications)).toEqual([n2.id]);
  });

  it("lists a collaborator's notifications; the /v1 prefix answers too", async () => {
    const teacher = await f.person(school, 'Collaborator');
    const created = await school.admin.post(`/collaborators/${teacher.id}/notifications`, { notification: { text: 'Grade the exams' } });
    const res = await school.admin.get(`/v1/collaborators/${teacher.id}/notifications`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notifications: [created.body] });
  });

  it('a person without notifications has an empty wrapped list', async () => {
    const student = await f.person(school, 'Student');
    const res = await school.admin.get(`/students/${student.id}/notifications`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"notifications":[]}');
  });

  it("given another school's student or collaborator, then 404", async () => {
    const foreign = await f.person(other, 'Student');
    await notifyStudent(other, foreign.id);
    expectErrorBody(await school.admin.get(`/students/${foreign.id}/notifications`), 404);
    const foreignTeacher = await f.person(other, 'Collaborator');
    expectErrorBody(await school.admin.get(`/collaborators/${foreignTeacher.id}/notifications`), 404);
  });

  it('a student credential lists its own; another student’s list and a collaborator’s list are 404', async () => {
    const { client, id } = await f.studentClient(school);
    const neighbour = await f.person(school, 'Student');
    const teacher = await f.person(school, 'Collaborator');
    const mine = await notifyStudent(school, id);
    await notifyStudent(school, neighbour.id);
    const res = await client.get(`/students/${id}/notifications`);
    expect(res.status).toBe(200);
    expect(ids(res.body.notifications)).toEqual([mine.id]);
    expectErrorBody(await client.get(`/students/${neighbour.id}/notifications`), 404);
    expectErrorBody(await client.get(`/collaborators/${teacher.id}/notifications`), 404);
  });

  it('given no credential, then 401', async () => {
    const student = await f.person(school, 'Student');
    expectErrorBody(await service.anonymous.get(`/students/${student.id}/notifications`), 401);
  });

  it('the list costs a constant number of statements however many notifications', async () => {
    const student = await f.person(school, 'Student');
    await notifyStudent(school, student.id);
    const list = () => school.admin.get(`/students/${student.id}/notifications`);
    const before = await service.countStatements(list);
    await service.db.insert(notifications).values(Array.from({ length: 60 }, (_, i) => ({ schoolId: school.id, userId: student.id, text: `Bulk ${i}` })));
    let reply: any;
    const after = await service.countStatements(async () => {
      reply = await list();
    });
    expect(reply.body.notifications).toHaveLength(61);
    expect(after).toBe(before);
  });
});

describe('GET /notification/:id and /notifications/:id', () => {
  it('shows the notification at the singular path and its plural twin', async () => {
    const student = await f.person(school, 'Student');
    const created = await notifyStudent(school, student.id, { text: 'Show me', url: '/x' });
    const singular = await school.admin.get(`/notification/${created.id}`);
    expect(singular.status).toBe(200);
    expect(singular.body).toEqual(created);
    expect((await school.admin.get(`/notifications/${created.id}`)).body).toEqual(created);
  });

  it("a student sees its own; another student's and another school's are 404", async () => {
    const { client, id } = await f.studentClient(school);
    const mine = await notifyStudent(school, id);
    const neighbour = await notifyStudent(school, (await f.person(school, 'Student')).id);
    const foreign = await notifyStudent(other, (await f.person(other, 'Student')).id);
    expect((await client.get(`/notification/${mine.id}`)).status).toBe(200);
    expectFieldError(await client.get(`/notification/${neighbour.id}`), 404, 'base', 'not_found');
    expectErrorBody(await school.admin.get(`/notification/${foreign.id}`), 404);
    expectErrorBody(await school.admin.get('/notifications/999999'), 404);
  });
});

describe('PUT and PATCH /notifications/:id/toggle_read', () => {
  it('marks read with read_at now, and a second toggle returns to unread with no read_at', async () => {
    const student = await f.person(school, 'Student');
    const created = await notifyStudent(school, student.id);
    service.clock.set('2026-02-01T10:00:00Z');
    const first = await school.admin.put(`/notifications/${created.id}/toggle_read`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ id: created.id, read: true, read_at: '2026-02-01T10:00:00.000Z' });
    expect(await row(created.id)).toMatchObject({ read: true, readAt: new Date('2026-02-01T10:00:00Z') });

    const second = await school.admin.patch(`/notifications/${created.id}/toggle_read`);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ read: false, read_at: null });
    expect(await row(created.id)).toMatchObject({ read: false, readAt: null });
  });

  it('a student toggles its own; another student’s is 404 and untouched', async () => {
    const { client, id } = await f.studentClient(school);
    const mine = await notifyStudent(school, id);
    const neighbour = await notifyStudent(school, (await f.person(school, 'Student')).id);
    const res = await client.put(`/notifications/${mine.id}/toggle_read`);
    expect(res.status).toBe(200);
    expect(res.body.read).toBe(true);
    expectErrorBody(await f.expectNoWrite(() => client.patch(`/notifications/${neighbour.id}/toggle_read`)), 404);
    expect((await row(neighbour.id)).read).toBe(false);
  });

  it("another school's notification is 404 and untouched; without a credential 401; a body is ignored", async () => {
    const foreign = await notifyStudent(other, (await f.person(other, 'Student')).id);
    expectErrorBody(await f.expectNoWrite(() => school.admin.put(`/notifications/${foreign.id}/toggle_read`)), 404);
    expectErrorBody(await f.expectNoWrite(() => service.anonymous.put(`/notifications/${foreign.id}/toggle_read`)), 401);
    const mine = await notifyStudent(school, (await f.person(school, 'Student')).id);
    const withBody = await school.admin.put(`/notifications/${mine.id}/toggle_read`, { notification: { read: false } }, { encoding: 'form' });
    expect(withBody.body.read).toBe(true);
  });

  it('GET on the toggle path is 405', async () => {
    const res = await school.admin.get('/notifications/1/toggle_read');
    expect(res.status).toBe(405);
  });
});
