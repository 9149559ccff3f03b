import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageChannels, messageOwners } from '../src/modules/messages/message.table.js';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// REST face of Message, create: POST /channels/:channel_id/messages with its rules and callbacks.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('Posting School', 'Other Posting School')));
afterAll(() => service?.stop());

async function linksOf(messageId: number) {
  const rows = await service.db.select().from(messageChannels).where(eq(messageChannels.messageId, messageId));
  return rows.map((r) => r.channelId).sort((a, b) => a - b);
}
async function ownersOf(messageId: number) {
  const rows = await service.db.select().from(messageOwners).where(eq(messageOwners.messageId, messageId)).orderBy(asc(messageOwners.id));
  return rows.map((r) => ({ ownerId: r.ownerId, ownerType: r.ownerType }));
}

describe('POST /channels/:channel_id/messages', () => {
  it('given every field as JSON, then 201 with the message and a Location, the rows, the owners notified and message.created', async () => {
    const channel = await f.channel(school);
    const enrolled = await f.enrollment(school);
    const enrollmentChannel = await f.channel(school, { enrollmentId: enrolled.id });
    const owner = await f.person(school, 'Student');
    const teacher = await f.person(school, 'Collaborator');
    const sender = await f.person(school, 'Collaborator');

    const res = await school.admin.post(`/channels/${channel}/messages`, {
      message: {
        subject: 'Welcome',
        text: 'Classes start on Monday',
        sender_id: sender.id,
        channel_ids: [enrollmentChannel],
        owners: [
          { id: owner.id, type: 'Student' },
          { id: teacher.id, type: 'Collaborator' },
          { id: sender.id, type: 'Collaborator' },
        ],
      },
    });

    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/messages/${res.body.id}`);
    expect(res.body).toMatchObject({ school_id: school.id, sender_id: sender.id, subject: 'Welcome', text: 'Classes start on Monday' });
    expect([...res.body.channel_ids].sort((a: number, b: number) => a - b)).toEqual([channel, enrollmentChannel].sort((a, b) => a - b));
    for (const key of Object.keys(res.body)) expect(key).toMatch(/^[a-z0-9_]+$/);

    expect(await f.messageRow(res.body.id)).toMatchObject({ schoolId: school.id, senderId: sender.id, subject: 'Welcome' });
    expect(await linksOf(res.body.id)).toEqual([channel, enrollmentChannel].sort((a, b) => a - b));
    expect(await ownersOf(res.body.id)).toEqual([
      { ownerId: owner.id, ownerType: 'Student' },
      { ownerId: teacher.id, ownerType: 'Collaborator' },
      { ownerId: sender.id, ownerType: 'Collaborator' },
    ]);
    // The callbacks: the people named, the enrolled student of the enrollment channel; never the sender.
    for (const userId of [owner.id, teacher.id, enrolled.studentId]) {
      const notes = await f.notificationsOf(userId);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({ schoolId: school.id, text: 'New message: Welcome', url: `/messages/${res.body.id}`, read: false });
    }
    expect(await f.notificationsOf(sender.id)).toEqual([]);
    const events = await f.eventsOf('Message', [res.body.id]);
    expect(events.map((e) => e.name)).toEqual(['message.created']);
    expect(events[0].schoolId).toBe(school.id);
    const notes = await f.notificationsOf(owner.id);
    expect((await f.eventsOf('Notification', ids(notes))).map((e) => e.name)).toEqual(['notification.created']);
  });

  it('given created_at, then the message keeps it and no callback runs: no notification, no event', async () => {
    const channel = await f.channel(school);
    const owner = await f.person(school, 'Student');
    const enrolled = await f.enrollment(school);
    const enrollmentChannel = await f.channel(school, { enrollmentId: enrolled.id });
    const res = await school.admin.post(`/channels/${channel}/messages`, {
      message: {
        subject: 'Imported',
        text: 'From the old platform',
        sender_id: school.adminId,
        created_at: '2020-03-04T05:06:07Z',
        channel_ids: [enrollmentChannel],
        owners: [{ id: owner.id, type: 'Student' }],
      },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.created_at).toBe('2020-03-04T05:06:07.000Z');
    expect((await f.messageRow(res.body.id)).createdAt.toISOString()).toBe('2020-03-04T05:06:07.000Z');
    expect(await ownersOf(res.body.id)).toEqual([{ ownerId: owner.id, ownerType: 'Student' }]);
    expect(await f.notificationsOf(owner.id)).toEqual([]);
    expect(await f.notificationsOf(enrolled.studentId)).toEqual([]);
    expect(await f.eventsOf('Message', [res.body.id])).toEqual([]);
  });

  it('given a form-urlencoded body with bracket names, then strings become ids and owners and channels are stored', async () => {
    const [channel, further] = [await f.channel(school), await f.channel(school)];
    const owner = await f.person(school, 'Student');
    const raw = [
      'message[subject]=Form+subject',
      'message[text]=Form+text',
      `message[sender_id]=${school.adminId}`,
      `message[channel_ids][]=${further}`,
      `message[owners][][id]=${owner.id}`,
      'message[owners][][type]=Student',
    ].join('&');
    const res = await school.admin.post(`/channels/${channel}/messages`, undefined, {
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ subject: 'Form subject', text: 'Form text', sender_id: school.adminId });
    expect(await linksOf(res.body.id)).toEqual([channel, further].sort((a, b) => a - b));
    expect(await ownersOf(res.body.id)).toEqual([{ ownerId: owner.id, ownerType: 'Student' }]);
  });

  it('given owners[id] and owners[type] beside the message hash (one owner, spec notation) and a single channel_ids, then both are taken', async () => {
    const [channel, further] = [await f.channel(school), await f.channel(school)];
    const product = await f.product(school);
    const res = await school.admin.post(
      `/channels/${channel}/messages`,
      { message: { subject: 'S', text: 'T', sender_id: school.adminId }, owners: { id: product.id, type: 'SchoolProduct' }, channel_ids: further },
      { encoding: 'form' },
    );
    expect(res.status, res.text).toBe(201);
    expect(await ownersOf(res.body.id)).toEqual([{ ownerId: product.id, ownerType: 'SchoolProduct' }]);
    expect(await linksOf(res.body.id)).toEqual([channel, further].sort((a, b) => a - b));
  });

  it('given a multipart body, then 201', async () => {
    const channel = await f.channel(school);
    const enrollment = await f.enrollment(school);
    const res = await school.admin.post(
      `/channels/${channel}/messages`,
      { message: { subject: 'Multipart', text: 'Body', sender_id: String(school.adminId), owners: [{ id: String(enrollment.id), type: 'Enrollment' }] } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.subject).toBe('Multipart');
    expect(await ownersOf(res.body.id)).toEqual([{ ownerId: enrollment.id, ownerType: 'Enrollment' }]);
    // An enrollment owner notifies its student.
    expect(await f.notificationsOf(enrollment.studentId)).toHaveLength(1);
  });

  it('given the /v1 prefix and a .json suffix, then the same route answers', async () => {
    const channel = await f.channel(school);
    const res = await school.admin.post(`/v1/channels/${channel}/messages.json`, { message: { subject: 'v1', text: 't', sender_id: school.adminId } });
    expect(res.status, res.text).toBe(201);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it.each(['text', 'subject', 'sender_id'])('given no %s, then it is blank', async (field) => {
      const channel = await f.channel(school);
      const body: Record<string, unknown> = { subject: 'S', text: 'T', sender_id: school.adminId };
      delete body[field];
      const res = await f.expectNoWrite(() => school.admin.post(`/channels/${channel}/messages`, { message: body }));
      expectErrorBody(res, 422);
      expect(res.body.errors).toEqual({ [field]: ["can't be blank"] });
      expect(res.body.details).toEqual({ [field]: [{ error: 'blank' }] });
    });

    it('given blank strings, then each required field is reported', async () => {
      const channel = await f.channel(school);
      const res = await f.expectNoWrite(() => school.admin.post(`/channels/${channel}/messages`, { message: { subject: ' ', text: '', sender_id: null } }));
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['sender_id', 'subject', 'text']);
    });

    it('given a sender of another school, then sender_id must exist in this school', async () => {
      const channel = await f.channel(school);
      const res = await f.expectNoWrite(() =>
        school.admin.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: other.adminId } }),
      );
      expectFieldError(res, 422, 'sender_id', 'not_found');
    });

    it('given channel_ids of another school or missing, then channel_ids names them', async () => {
      const channel = await f.channel(school);
      const foreign = await f.channel(other);
      const res = await f.expectNoWrite(() =>
        school.admin.post(`/channels/${channel}/messages`, {
          message: { subject: 'S', text: 'T', sender_id: school.adminId, channel_ids: [foreign, 999999] },
        }),
      );
      expectFieldError(res, 422, 'channel_ids', 'not_found');
      expect(res.body.errors.channel_ids[0]).toContain(String(foreign));
      expect(res.body.errors.channel_ids[0]).toContain('999999');
    });

    it('given an owner type not among the names, then owners[0].type is not in the list (Integer codes are not taken)', async () => {
      const channel = await f.channel(school);
      const res = await f.expectNoWrite(() =>
        school.admin.post(`/channels/${channel}/messages`, {
          message: { subject: 'S', text: 'T', sender_id: school.adminId, owners: [{ id: school.adminId, type: 'Admin' }, { id: 1, type: 3 }] },
        }),
      );
      expectFieldError(res, 422, 'owners[1].type', 'inclusion');
      expect(res.body.errors['owners[1].type'][0]).toContain('Student, Collaborator, Admin, SchoolProduct, Enrollment');
      expect(Object.keys(res.body.errors)).toEqual(['owners[1].type']);
    });

    it('given owners that are not objects of that type in this school, then each owners[i].id is reported', async () => {
      const channel = await f.channel(school);
      const collaborator = await f.person(school, 'Collaborator');
      const foreignStudent = await f.person(other, 'Student');
      const foreignEnrollment = await f.enrollment(other);
      const foreignProduct = await f.product(other);
      const res = await f.expectNoWrite(() =>
        school.admin.post(`/channels/${channel}/messages`, {
          message: {
            subject: 'S',
            text: 'T',
            sender_id: school.adminId,
            owners: [
              { id: collaborator.id, type: 'Student' },
              { id: foreignStudent.id, type: 'Student' },
              { id: foreignEnrollment.id, type: 'Enrollment' },
              { id: foreignProduct.id, type: 'SchoolProduct' },
              { type: 'Student' },
            ],
          },
        }),
      );
      expectErrorBody(res, 422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['owners[0].id', 'owners[1].id', 'owners[2].id', 'owners[3].id', 'owners[4].id']);
      expect(res.body.details['owners[0].id']).toEqual([{ error: 'not_found' }]);
      expect(res.body.details['owners[4].id']).toEqual([{ error: 'blank' }]);
    });
  });

  describe('malformed requests: 400', () => {
    it('given no message hash, then 400 names it', async () => {
      const channel = await f.channel(school);
      const res = await f.expectNoWrite(() => school.admin.post(`/channels/${channel}/messages`, { subject: 'S' }));
      expectFieldError(res, 400, 'message');
    });
    it('given bad JSON, then 400', async () => {
      const channel = await f.channel(school);
      const res = await school.admin.post(`/channels/${channel}/messages`, undefined, { raw: '{"message": {', headers: { 'content-type': 'application/json' } });
      expectErrorBody(res, 400);
    });
    it('given a sender_id that is a hash, or a created_at that is no time, then 400 names the field', async () => {
      const channel = await f.channel(school);
      const a = await f.expectNoWrite(() =>
        school.admin.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: { id: 1 } } }),
      );
      expectFieldError(a, 400, 'sender_id');
      const b = await f.expectNoWrite(() =>
        school.admin.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: school.adminId, created_at: 'yesterday' } }),
      );
      expectFieldError(b, 400, 'created_at');
    });
  });

  describe('who may post where', () => {
    it('given no credential, then 401', async () => {
      const channel = await f.channel(school);
      const res = await f.expectNoWrite(() => service.anonymous.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: school.adminId } }));
      expectErrorBody(res, 401);
    });
    it('given a student credential and a school-wide channel (not one of its enrollments), then 403', async () => {
      const channel = await f.channel(school);
      const { client, id } = await f.studentClient(school);
      const res = await f.expectNoWrite(() => client.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: id } }));
      expectErrorBody(res, 403);
    });
    it('given a collaborator credential, then it posts', async () => {
      const channel = await f.channel(school);
      const teacher = await f.person(school, 'Collaborator');
      const client = await service.token('collaborator', school.id, teacher.id);
      const res = await client.post(`/channels/${channel}/messages`, { message: { subject: 'S', text: 'T', sender_id: teacher.id } });
      expect(res.status, res.text).toBe(201);
    });
    it("given another school's channel or no channel, then 404 and nothing written", async () => {
      const foreign = await f.channel(other);
      const a = await f.expectNoWrite(() => school.admin.post(`/channels/${foreign}/messages`, { message: { subject: 'S', text: 'T', sender_id: school.adminId } }));
      expectFieldError(a, 404, 'base', 'not_found');
      const b = await f.expectNoWrite(() => school.admin.post('/channels/999999/messages', { message: { subject: 'S', text: 'T', sender_id: school.adminId } }));
      expectErrorBody(b, 404);
    });
  });
});
