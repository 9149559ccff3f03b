import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../src/config.js';
import { users } from '../../src/modules/users/user.table.js';
import { type MessageFixtures, ids, startMessages } from '../support/messages.fixtures.js';
import { expectErrorBody, expectFieldError, expectNotFound } from '../support/rest-assertions.js';
import { type Service, type TestSchool } from '../support/service.js';

// Messaging both ways (issue 28): a student credential posts in the channels of its own enrollments,
// over REST and GraphQL, rate limited per student; the school's staff are notified through notify().

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('Two Ways School', 'Other Two Ways School')));
afterAll(() => service?.stop());

const CREATE = `mutation ($c: ID!, $input: MessageInput!) { createMessage(channelId: $c, input: $input) { message { id senderId subject channelIds } errors { field code message } } }`;

/** A student with a credential, an enrollment of its own and that enrollment's channel. */
async function enrolledStudent() {
  const { client, id } = await f.studentClient(school);
  const enrollment = await f.enrollment(school, { studentId: id });
  const channel = await f.channel(school, { enrollmentId: enrollment.id });
  return { client, id, enrollment, channel };
}

async function staffIds(s: TestSchool) {
  const rows = await service.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.schoolId, s.id), inArray(users.type, ['Collaborator', 'Admin'])));
  return rows.map((r) => r.id);
}

describe('a student posts in its own enrollment channel', () => {
  it('over REST: 201, sent as itself, the staff notified with notification.created, the student not', async () => {
    const teacher = await f.person(school, 'Collaborator');
    const me = await enrolledStudent();
    const res = await me.client.post(`/channels/${me.channel}/messages`, { message: { subject: 'Question', text: 'When is the live class?' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ sender_id: me.id, subject: 'Question', channel_ids: [me.channel] });

    const staff = await staffIds(school);
    expect(staff).toContain(teacher.id);
    for (const userId of staff) {
      const notes = await f.notificationsOf(userId);
      expect(notes.filter((n) => n.url === `/messages/${res.body.id}`)).toHaveLength(1);
    }
    const notes = (await f.notificationsOf(teacher.id)).filter((n) => n.url === `/messages/${res.body.id}`);
    expect(notes[0]).toMatchObject({ text: 'New message: Question', read: false });
    expect((await f.eventsOf('Notification', ids(notes))).map((e) => e.name)).toEqual(['notification.created']);
    expect(await f.notificationsOf(me.id)).toEqual([]);
    expect((await f.eventsOf('Message', [res.body.id])).map((e) => e.name)).toEqual(['message.created']);
  });

  it('over GraphQL: the message, naming itself as sender is accepted; it reads it back in its channel', async () => {
    const me = await enrolledStudent();
    const res = await me.client.graphql(CREATE, { c: String(me.channel), input: { subject: 'Hello', text: 'Hi teacher', senderId: String(me.id) } });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    expect(res.data.createMessage.errors).toEqual([]);
    expect(res.data.createMessage.message).toMatchObject({ senderId: String(me.id), subject: 'Hello', channelIds: [String(me.channel)] });
    const list = await me.client.get(`/channels/${me.channel}/messages`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.messages.map((m: { id: number }) => m.id)).toContain(Number(res.data.createMessage.message.id));
  });

  it('refuses another sender, further channels, owners and created_at as forbidden field errors, writing nothing', async () => {
    const me = await enrolledStudent();
    const someone = await f.person(school, 'Student');
    const res = await f.expectNoWrite(() =>
      me.client.graphql(CREATE, {
        c: String(me.channel),
        input: { subject: 'S', text: 'T', senderId: String(someone.id), channelIds: [String(me.channel)], owners: [{ id: String(someone.id), type: 'Student' }], createdAt: '2024-01-01T00:00:00Z' },
      }),
    );
    expect(res.data.createMessage.message).toBeNull();
    expect(res.data.createMessage.errors.map((e: { field: string[]; code: string }) => `${e.field.join('.')}:${e.code}`).sort()).toEqual(
      ['channelIds:forbidden', 'createdAt:forbidden', 'owners:forbidden', 'senderId:forbidden'],
    );
    const rest = await f.expectNoWrite(() => me.client.post(`/channels/${me.channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: someone.id } }));
    expectFieldError(rest, 403, 'sender_id', 'forbidden');
  });
});

describe('a student may not post elsewhere', () => {
  it("another student's enrollment channel is not found (REST 404, GraphQL NOT_FOUND); nothing written", async () => {
    const me = await enrolledStudent();
    const them = await enrolledStudent();
    const rest = await f.expectNoWrite(() => me.client.post(`/channels/${them.channel}/messages`, { message: { subject: 'S', text: 'T' } }));
    expectNotFound(rest);
    const gql = await f.expectNoWrite(() => me.client.graphql(CREATE, { c: String(them.channel), input: { subject: 'S', text: 'T' } }));
    expect(gql.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it("a channel of its enrollment's product, or a school-wide one, it may read but not post in: 403; another school's channel 404", async () => {
    const me = await enrolledStudent();
    const productChannel = await f.channel(school, { schoolProductId: me.enrollment.schoolProductId });
    const schoolWide = await f.channel(school);
    for (const channel of [productChannel, schoolWide]) {
      expect((await me.client.get(`/channels/${channel}/messages`)).status).toBe(200);
      const res = await f.expectNoWrite(() => me.client.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T' } }));
      expectErrorBody(res, 403);
    }
    const foreign = await f.channel(other);
    expectNotFound(await me.client.post(`/channels/${foreign}/messages`, { message: { subject: 'S', text: 'T' } }));
  });

  it('a student may still not update or delete messages (403)', async () => {
    const me = await enrolledStudent();
    const posted = await me.client.post(`/channels/${me.channel}/messages`, { message: { subject: 'Mine', text: 'T' } });
    expect(posted.status, posted.text).toBe(201);
    expectErrorBody(await me.client.put(`/messages/${posted.body.id}`, { message: { subject: 'Changed' } }), 403);
    expectErrorBody(await me.client.delete(`/messages/${posted.body.id}`), 403);
  });
});

describe('the per-student rate limit', () => {
  it(`posts ${config.studentMessagesPerMinute} a minute, then 429 (REST) and RATE_LIMITED (GraphQL) without writing; another student is not limited`, async () => {
    const me = await enrolledStudent();
    const limit = config.studentMessagesPerMinute;
    const sent = await Promise.all(
      Array.from({ length: limit }, (_, i) => me.client.post(`/channels/${me.channel}/messages`, { message: { subject: `Burst ${i}`, text: 'T' } })),
    );
    expect(sent.map((r) => r.status)).toEqual(sent.map(() => 201));
    const refused = await f.expectNoWrite(() => me.client.post(`/channels/${me.channel}/messages`, { message: { subject: 'One more', text: 'T' } }));
    expectErrorBody(refused, 429);
    expect(refused.body.details.base).toEqual([{ error: 'rate_limited' }]);
    const gql = await f.expectNoWrite(() => me.client.graphql(CREATE, { c: String(me.channel), input: { subject: 'And another', text: 'T' } }));
    expect(gql.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');

    const someoneElse = await enrolledStudent();
    const ok = await someoneElse.client.post(`/channels/${someoneElse.channel}/messages`, { message: { subject: 'Mine', text: 'T' } });
    expect(ok.status, ok.text).toBe(201);
  });

  it('counted in the database, so concurrent posts beyond the limit are refused exactly beyond it', async () => {
    const me = await enrolledStudent();
    const limit = config.studentMessagesPerMinute;
    const all = await Promise.all(
      Array.from({ length: limit + 3 }, (_, i) => me.client.post(`/channels/${me.channel}/messages`, { message: { subject: `Race ${i}`, text: 'T' } })),
    );
    expect(all.filter((r) => r.status === 201)).toHaveLength(limit);
    expect(all.filter((r) => r.status === 429)).toHaveLength(3);
  });
});
