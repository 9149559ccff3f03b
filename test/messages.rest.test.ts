import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageChannels, messageOwners } from '../src/modules/messages/message.table.js';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// REST face of Message: the three wrapped lists, show (singular and plural), update of subject and
// text, delete. Create is in messages.create.test.ts.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('Messages School', 'Other Messages School')));
afterAll(() => service?.stop());

async function linksOf(messageId: number) {
  const rows = await service.db.select().from(messageChannels).where(eq(messageChannels.messageId, messageId));
  return rows.map((r) => r.channelId).sort((a, b) => a - b);
}
async function ownersOf(messageId: number) {
  const rows = await service.db.select().from(messageOwners).where(eq(messageOwners.messageId, messageId)).orderBy(asc(messageOwners.id));
  return rows.map((r) => ({ ownerId: r.ownerId, ownerType: r.ownerType }));
}

describe('GET lists reply {"messages": [...]}', () => {
  it('/channels/:channel_id/messages lists the messages posted to that channel only, whole or by page', async () => {
    const [channel, elsewhere] = [await f.channel(school), await f.channel(school)];
    const m1 = await f.message(school, channel);
    const m2 = await f.message(school, elsewhere, { channel_ids: [channel] });
    await f.message(school, elsewhere);
    const res = await school.admin.get(`/channels/${channel}/messages`);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['messages']);
    expect(ids(res.body.messages)).toEqual([m1.id, m2.id]);
    expect(res.body.messages[1]).toMatchObject({ subject: m2.subject, sender_id: school.adminId });
    expect(res.headers['x-total-count']).toBe('2');

    const page = await school.admin.get(`/channels/${channel}/messages?page=2&per_page=1`);
    expect(page.status).toBe(200);
    expect(ids(page.body.messages)).toEqual([m2.id]);
    expect(page.headers).toMatchObject({ 'x-total-count': '2', 'x-page': '2', 'x-per-page': '1' });
    expect(String(page.headers.link)).toContain('rel="prev"');
  });

  it('a list longer than a GraphQL page is streamed whole inside the wrapper', async () => {
    const channel = await f.channel(school);
    // Imported messages (created_at given): no callbacks, quick to make.
    for (let i = 0; i < 105; i++) await f.message(school, channel, { created_at: '2021-01-01T00:00:00Z' });
    const res = await school.admin.get(`/channels/${channel}/messages`);
    expect(res.status).toBe(200);
    expect(res.body.messages).toHaveLength(105);
    expect(res.headers['x-total-count']).toBe('105');
  });

  it("/channels/:channel_id/messages of another school's channel is 404", async () => {
    const foreign = await f.channel(other);
    await f.message(other, foreign);
    expectErrorBody(await school.admin.get(`/channels/${foreign}/messages`), 404);
  });

  it("/schools/:school_id/messages lists the school's messages; another school is 404", async () => {
    const mine = await f.message(school, await f.channel(school));
    const theirs = await f.message(other, await f.channel(other));
    const res = await school.admin.get(`/schools/${school.id}/messages`);
    expect(res.status).toBe(200);
    expect(ids(res.body.messages)).toContain(mine.id);
    expect(ids(res.body.messages)).not.toContain(theirs.id);
    expect(res.body.messages.every((m: any) => m.school_id === school.id)).toBe(true);
    expectErrorBody(await school.admin.get(`/schools/${other.id}/messages`), 404);
    expectErrorBody(await school.admin.get('/schools/999999/messages'), 404);
    // A platform credential names the school in the path.
    const platform = await service.platform.get(`/schools/${other.id}/messages`);
    expect(platform.status).toBe(200);
    expect(ids(platform.body.messages)).toContain(theirs.id);
    expect(ids(platform.body.messages)).not.toContain(mine.id);
  });

  it("/enrollments/:enrollment_id/messages lists the messages of the enrollment's channels and of its product's channels", async () => {
    const enrollment = await f.enrollment(school);
    const sibling = await f.enrollment(school, { productId: enrollment.schoolProductId });
    const ownChannel = await f.channel(school, { enrollmentId: enrollment.id });
    const productChannel = await f.channel(school, { schoolProductId: enrollment.schoolProductId });
    const siblingChannel = await f.channel(school, { enrollmentId: sibling.id });
    const general = await f.channel(school);
    const a = await f.message(school, ownChannel);
    const b = await f.message(school, productChannel);
    await f.message(school, siblingChannel);
    await f.message(school, general);
    const c = await f.message(school, general, { channel_ids: [ownChannel] });

    const res = await school.admin.get(`/enrollments/${enrollment.id}/messages`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body.messages)).toEqual([a.id, b.id, c.id]);

    const siblingList = await school.admin.get(`/enrollments/${sibling.id}/messages`);
    expect(ids(siblingList.body.messages)).toContain(b.id);
    expect(ids(siblingList.body.messages)).not.toContain(a.id);
  });

  it("/enrollments/:enrollment_id/messages of another school's enrollment is 404", async () => {
    const foreign = await f.enrollment(other);
    expectErrorBody(await school.admin.get(`/enrollments/${foreign.id}/messages`), 404);
  });

  it('a student sees its own enrollment messages and the school-wide channels, not another student’s (404)', async () => {
    const enrollment = await f.enrollment(school);
    const otherEnrollment = await f.enrollment(school);
    const { client } = await f.studentClient(school, enrollment.studentId);
    const mine = await f.channel(school, { enrollmentId: enrollment.id });
    const theirs = await f.channel(school, { enrollmentId: otherEnrollment.id });
    const general = await f.channel(school);
    const m1 = await f.message(school, mine);
    const m2 = await f.message(school, theirs);
    const m3 = await f.message(school, general);

    expect(ids((await client.get(`/enrollments/${enrollment.id}/messages`)).body.messages)).toEqual([m1.id]);
    expectErrorBody(await client.get(`/enrollments/${otherEnrollment.id}/messages`), 404);
    expect(ids((await client.get(`/channels/${general}/messages`)).body.messages)).toEqual([m3.id]);
    expectErrorBody(await client.get(`/channels/${theirs}/messages`), 404);
    const schoolList = ids((await client.get(`/schools/${school.id}/messages`)).body.messages);
    expect(schoolList).toContain(m1.id);
    expect(schoolList).toContain(m3.id);
    expect(schoolList).not.toContain(m2.id);
    expectErrorBody(await client.get(`/message/${m2.id}`), 404);
    expect((await client.get(`/message/${m1.id}`)).status).toBe(200);
  });

  it('given no credential, then 401', async () => {
    const channel = await f.channel(school);
    expectErrorBody(await service.anonymous.get(`/channels/${channel}/messages`), 401);
  });
});

describe('GET /message/:id and /messages/:id', () => {
  it('shows the message at the singular path and its plural twin', async () => {
    const channel = await f.channel(school);
    const created = await f.message(school, channel);
    const singular = await school.admin.get(`/message/${created.id}`);
    expect(singular.status).toBe(200);
    expect(singular.body).toMatchObject({ id: created.id, subject: created.subject, channel_ids: [channel], school_id: school.id });
    const plural = await school.admin.get(`/messages/${created.id}`);
    expect(plural.body).toEqual(singular.body);
  });

  it("given another school's message or none, then 404", async () => {
    const foreign = await f.message(other, await f.channel(other));
    expectFieldError(await school.admin.get(`/message/${foreign.id}`), 404, 'base', 'not_found');
    expectErrorBody(await school.admin.get('/message/999999'), 404);
    expectErrorBody(await school.admin.get('/message/abc'), 404);
  });
});

describe('PUT and PATCH /messages/:id', () => {
  it('changes subject and text, replies 200 with a Location, and ignores the rest of a fetched object sent back', async () => {
    const [channel, further] = [await f.channel(school), await f.channel(school)];
    const created = await f.message(school, channel);
    const fetched = (await school.admin.get(`/message/${created.id}`)).body;
    const res = await school.admin.put(`/messages/${created.id}`, {
      message: { ...fetched, subject: 'New subject', text: 'New text', sender_id: other.adminId, channel_ids: [further], school_id: other.id },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.location).toBe(`/messages/${created.id}`);
    expect(res.body).toMatchObject({ id: created.id, subject: 'New subject', text: 'New text', sender_id: school.adminId, channel_ids: [channel] });
    expect(await f.messageRow(created.id)).toMatchObject({ subject: 'New subject', text: 'New text', senderId: school.adminId, schoolId: school.id });
    expect(await linksOf(created.id)).toEqual([channel]);
  });

  it('PATCH with a form body changes only what it names', async () => {
    const created = await f.message(school, await f.channel(school));
    const res = await school.admin.patch(`/messages/${created.id}`, { message: { text: 'Only text' } }, { encoding: 'form' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ subject: created.subject, text: 'Only text' });
  });

  it('given a blank subject or text, then 422 and nothing changes', async () => {
    const created = await f.message(school, await f.channel(school));
    const res = await f.expectNoWrite(() => school.admin.put(`/messages/${created.id}`, { message: { subject: '', text: '  ' } }));
    expectErrorBody(res, 422);
    expect(res.body.details).toEqual({ subject: [{ error: 'blank' }], text: [{ error: 'blank' }] });
  });

  it("given another school's message, then 404 and it is untouched", async () => {
    const foreign = await f.message(other, await f.channel(other));
    const res = await f.expectNoWrite(() => school.admin.patch(`/messages/${foreign.id}`, { message: { subject: 'Hijack' } }));
    expectErrorBody(res, 404);
  });

  it('given a student credential, then 403', async () => {
    const created = await f.message(school, await f.channel(school));
    const { client } = await f.studentClient(school);
    expectErrorBody(await f.expectNoWrite(() => client.put(`/messages/${created.id}`, { message: { subject: 'x' } })), 403);
  });
});

describe('DELETE /messages/:id', () => {
  it('removes the message and its channel links, replying 204', async () => {
    const channel = await f.channel(school);
    const created = await f.message(school, channel, { owners: [{ id: school.adminId, type: 'Admin' }] });
    const res = await school.admin.delete(`/messages/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await f.messageRow(created.id)).toBeUndefined();
    expect(await linksOf(created.id)).toEqual([]);
    expect(await ownersOf(created.id)).toEqual([]);
    expectErrorBody(await school.admin.get(`/message/${created.id}`), 404);
  });

  it("given another school's message, then 404 and it stays; without a credential 401", async () => {
    const foreign = await f.message(other, await f.channel(other));
    expectErrorBody(await f.expectNoWrite(() => school.admin.delete(`/messages/${foreign.id}`)), 404);
    expectErrorBody(await f.expectNoWrite(() => service.anonymous.delete(`/messages/${foreign.id}`)), 401);
    expect(await f.messageRow(foreign.id)).toBeDefined();
  });
});
