import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, messageChannels, messages } from '../src/modules/messages/message.table.js';
import { type MessageFixtures, startMessages, ids } from './support/messages.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { graphql } from './support/graphql.js';

// GraphQL face of Channel and Message: queries with their scopes, mutations with UserError
// payloads, relation fields through loaders, and statement counts of nested queries.

let service: Service, school: TestSchool, other: TestSchool, f: MessageFixtures;

beforeAll(async () => ({ service, school, other, f } = await startMessages('GraphQL Messages', 'GraphQL Messages Other')));
afterAll(() => service?.stop());

const CHANNEL = `id schoolId name enrollmentId schoolProductId createdAt`;
const createChannel = `mutation ($input: ChannelInput!) { createChannel(input: $input) { channel { ${CHANNEL} } errors { field code message } } }`;
const updateChannel = `mutation ($id: ID!, $input: ChannelInput!) { updateChannel(id: $id, input: $input) { channel { ${CHANNEL} } errors { field code message } } }`;

async function channelRow(id: number | string) {
  const [row] = await service.db.select().from(channels).where(eq(channels.id, Number(id)));
  return row;
}

describe('channels', () => {
  it('createChannel makes a school-wide, an enrollment and a product channel', async () => {
    const enrollment = await f.enrollment(school);
    const product = await f.product(school);
    const general = await school.admin.graphql(createChannel, { input: { name: ' General ' } });
    expect(general.data.createChannel).toMatchObject({ errors: [], channel: { name: 'General', enrollmentId: null, schoolProductId: null, schoolId: String(school.id) } });
    const ofEnrollment = await school.admin.graphql(createChannel, { input: { name: 'Tutoring', enrollmentId: enrollment.id } });
    expect(ofEnrollment.data.createChannel.channel).toMatchObject({ enrollmentId: String(enrollment.id), schoolProductId: null });
    const ofProduct = await school.admin.graphql(createChannel, { input: { name: 'Class', schoolProductId: product.id } });
    expect(ofProduct.data.createChannel.channel.schoolProductId).toBe(String(product.id));
    expect(await channelRow(ofProduct.data.createChannel.channel.id)).toMatchObject({ schoolId: school.id, schoolProductId: product.id });
  });

  it('createChannel refuses a missing name, another school’s enrollment or product, and both an enrollment and a product', async () => {
    const foreignEnrollment = await f.enrollment(other);
    const foreignProduct = await f.product(other);
    const before = await f.snapshot();
    const missing = await school.admin.graphql(createChannel, { input: { enrollmentId: foreignEnrollment.id, schoolProductId: foreignProduct.id } });
    expect(missing.data.createChannel.channel).toBeNull();
    expect(missing.data.createChannel.errors.map((e: any) => [e.field.join('.'), e.code]).sort()).toEqual([
      ['enrollmentId', 'not_found'],
      ['name', 'blank'],
      ['schoolProductId', 'not_found'],
    ]);
    const both = await school.admin.graphql(createChannel, {
      input: { name: 'Both', enrollmentId: (await f.enrollment(school)).id, schoolProductId: (await f.product(school)).id },
    });
    expect(both.data.createChannel.errors).toEqual([expect.objectContaining({ field: ['schoolProductId'], code: 'present' })]);
    expect((await f.snapshot()).channels).toEqual(before.channels);
  });

  it('updateChannel renames, moves to a product (clearing the enrollment), and keeps the one-owner rule', async () => {
    const enrollment = await f.enrollment(school);
    const product = await f.product(school);
    const id = await f.channel(school, { enrollmentId: enrollment.id });
    const renamed = await school.admin.graphql(updateChannel, { id, input: { name: 'Renamed' } });
    expect(renamed.data.updateChannel.channel).toMatchObject({ name: 'Renamed', enrollmentId: String(enrollment.id) });
    const clash = await school.admin.graphql(updateChannel, { id, input: { schoolProductId: product.id } });
    expect(clash.data.updateChannel.errors[0]).toMatchObject({ field: ['schoolProductId'], code: 'present' });
    const moved = await school.admin.graphql(updateChannel, { id, input: { schoolProductId: product.id, enrollmentId: null } });
    expect(moved.data.updateChannel.channel).toMatchObject({ enrollmentId: null, schoolProductId: String(product.id) });
    const blank = await school.admin.graphql(updateChannel, { id, input: { name: '' } });
    expect(blank.data.updateChannel.errors[0]).toMatchObject({ field: ['name'], code: 'blank' });
    expect((await channelRow(id)).name).toBe('Renamed');
  });

  it("updateChannel and deleteChannel of another school's channel are NOT_FOUND; a student may not create", async () => {
    const foreign = await f.channel(other);
    const update = await school.admin.graphql(updateChannel, { id: foreign, input: { name: 'Mine' } });
    expect(update.errors![0].extensions.code).toBe('NOT_FOUND');
    const remove = await school.admin.graphql(`mutation ($id: ID!) { deleteChannel(id: $id) { channel { id } errors { code } } }`, { id: foreign });
    expect(remove.errors![0].extensions.code).toBe('NOT_FOUND');
    expect(await channelRow(foreign)).toBeDefined();
    const { client } = await f.studentClient(school);
    const denied = await client.graphql(createChannel, { input: { name: 'x' } });
    expect(denied.errors![0].extensions.code).toBe('FORBIDDEN');
  });

  it('deleteChannel removes the channel; its messages stay', async () => {
    const id = await f.channel(school);
    const posted = await f.message(school, id);
    const res = await school.admin.graphql(`mutation ($id: ID!) { deleteChannel(id: $id) { channel { id } errors { code } } }`, { id });
    expect(res.data.deleteChannel).toEqual({ channel: { id: String(id) }, errors: [] });
    expect(await channelRow(id)).toBeUndefined();
    expect(await f.messageRow(posted.id)).toBeDefined();
  });

  it('channel and channels read the school’s channels, narrowed by enrollment or product; a student sees only its own', async () => {
    const enrollment = await f.enrollment(school);
    const otherEnrollment = await f.enrollment(school);
    const mine = await f.channel(school, { enrollmentId: enrollment.id });
    const theirs = await f.channel(school, { enrollmentId: otherEnrollment.id });
    const ofProduct = await f.channel(school, { schoolProductId: enrollment.schoolProductId });
    const foreign = await f.channel(other);

    const byEnrollment = await school.admin.graphql(`query ($e: ID) { channels(enrollmentId: $e) { totalCount nodes { id } } }`, { e: enrollment.id });
    expect(ids(byEnrollment.data.channels.nodes)).toEqual([mine]);
    const byProduct = await school.admin.graphql(`query ($p: ID) { channels(schoolProductId: $p) { nodes { id } } }`, { p: enrollment.schoolProductId });
    expect(ids(byProduct.data.channels.nodes)).toEqual([ofProduct]);
    const all = await school.admin.graphql(`{ channels(first: 100) { nodes { id schoolId } } }`);
    expect(all.data.channels.nodes.every((c: any) => c.schoolId === String(school.id))).toBe(true);
    expect(ids(all.data.channels.nodes)).not.toContain(foreign);

    const { client } = await f.studentClient(school, enrollment.studentId);
    const visible = ids((await client.graphql(`{ channels(first: 100) { nodes { id } } }`)).data.channels.nodes);
    expect(visible).toContain(mine);
    expect(visible).toContain(ofProduct);
    expect(visible).not.toContain(theirs);
    expect((await client.graphql(`query ($id: ID!) { channel(id: $id) { id } }`, { id: theirs })).errors![0].extensions.code).toBe('NOT_FOUND');
    expect((await school.admin.graphql(`query ($id: ID!) { channel(id: $id) { id } }`, { id: foreign })).errors![0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('messages', () => {
  const createMessage = graphql(`mutation ($channelId: ID!, $input: MessageInput!) {
    createMessage(channelId: $channelId, input: $input) { message { id subject channelIds owners { ownerId ownerType } } errors { field code message } }
  }`);

  it('createMessage posts with owners and further channels; rule violations are UserErrors and write nothing', async () => {
    const [channel, further] = [await f.channel(school), await f.channel(school)];
    const student = await f.person(school, 'Student');
    const ok = await school.admin.graphql(createMessage, {
      channelId: channel,
      input: { subject: 'Hi', text: 'There', senderId: school.adminId, channelIds: [further], owners: [{ id: student.id, type: 'Student' }] },
    });
    expect(ok.data.createMessage.errors).toEqual([]);
    expect(ok.data.createMessage.message.owners).toEqual([{ ownerId: String(student.id), ownerType: 'Student' }]);
    expect(ok.data.createMessage.message.channelIds.map(Number).sort((a: number, b: number) => a - b)).toEqual([channel, further].sort((a, b) => a - b));

    const bad = await f.expectNoWrite(() =>
      school.admin.graphql(createMessage, { channelId: channel, input: { subject: 'x', senderId: other.adminId, owners: [{ id: student.id, type: 'Teacher' }] } }),
    );
    expect(bad.data.createMessage.message).toBeNull();
    expect(bad.data.createMessage.errors.map((e) => [e.field.join('.'), e.code]).sort()).toEqual([
      ['owners.0.type', 'inclusion'],
      ['senderId', 'not_found'],
      ['text', 'blank'],
    ]);
  });

  it('updateMessage and deleteMessage', async () => {
    const posted = await f.message(school, await f.channel(school));
    const upd = await school.admin.graphql(
      graphql(`mutation ($id: ID!) { updateMessage(id: $id, input: { subject: "S2" }) { message { subject text } errors { code } } }`),
      { id: posted.id },
    );
    expect(upd.data.updateMessage).toEqual({ message: { subject: 'S2', text: posted.text }, errors: [] });
    const del = await school.admin.graphql(`mutation ($id: ID!) { deleteMessage(id: $id) { message { id } errors { code } } }`, { id: posted.id });
    expect(del.data.deleteMessage.message.id).toBe(String(posted.id));
    expect(await f.messageRow(posted.id)).toBeUndefined();
  });

  it('messages takes channelId, schoolId, enrollmentId and schoolProductId scopes; message(id) shows one', async () => {
    const enrollment = await f.enrollment(school);
    const productChannel = await f.channel(school, { schoolProductId: enrollment.schoolProductId });
    const general = await f.channel(school);
    const a = await f.message(school, productChannel);
    const b = await f.message(school, general);
    const q = graphql(`query ($c: ID, $s: ID, $e: ID, $p: ID) { messages(channelId: $c, schoolId: $s, enrollmentId: $e, schoolProductId: $p, first: 100) { totalCount nodes { id } } }`);
    expect(ids((await school.admin.graphql(q, { c: general })).data.messages.nodes)).toEqual([b.id]);
    expect(ids((await school.admin.graphql(q, { e: enrollment.id })).data.messages.nodes)).toEqual([a.id]);
    expect(ids((await school.admin.graphql(q, { p: enrollment.schoolProductId })).data.messages.nodes)).toEqual([a.id]);
    const bySchool = ids((await school.admin.graphql(q, { s: school.id })).data.messages.nodes);
    expect(bySchool).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await school.admin.graphql(q, { s: other.id })).errors![0].extensions.code).toBe('NOT_FOUND');
    const one = await school.admin.graphql(`query ($id: ID!) { message(id: $id) { id subject } }`, { id: a.id });
    expect(one.data.message).toEqual({ id: String(a.id), subject: a.subject });
  });

  it('Message.sender, .channels, .channelIds, .owners and Channel.messages resolve the related rows', async () => {
    const teacher = await f.person(school, 'Collaborator');
    const [c1, c2] = [await f.channel(school, { name: 'One' }), await f.channel(school, { name: 'Two' })];
    const product = await f.product(school);
    const posted = await f.message(school, c1, { sender_id: teacher.id, channel_ids: [c2], owners: { id: product.id, type: 'SchoolProduct' } });
    const res = await school.admin.graphql(
      graphql(`query ($id: ID!, $c: ID!) {
        message(id: $id) { sender { id type fullName email } channels { id name } channelIds owners { ownerId ownerType } }
        channel(id: $c) { messages(first: 10) { totalCount pageInfo { hasNextPage } nodes { id } edges { cursor node { id } } } }
      }`),
      { id: posted.id, c: c2 },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.message.sender).toEqual({ id: String(teacher.id), type: 'Collaborator', fullName: teacher.fullName, email: teacher.email });
    expect(res.data.message.channels.map((c) => c.name).sort()).toEqual(['One', 'Two']);
    expect(res.data.message.owners).toEqual([{ ownerId: String(product.id), ownerType: 'SchoolProduct' }]);
    expect(res.data.channel.messages).toMatchObject({ totalCount: 1, pageInfo: { hasNextPage: false }, nodes: [{ id: String(posted.id) }] });
  });

  it('Channel.messages pages with first/after', async () => {
    const channel = await f.channel(school);
    const posted = [];
    for (let i = 0; i < 3; i++) posted.push(await f.message(school, channel));
    const q = graphql(`query ($c: ID!, $after: String) { channel(id: $c) { messages(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } } }`);
    const first = (await school.admin.graphql(q, { c: channel })).data.channel.messages;
    expect(first).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true } });
    expect(ids(first.nodes)).toEqual([posted[0].id, posted[1].id]);
    const second = (await school.admin.graphql(q, { c: channel, after: first.pageInfo.endCursor })).data.channel.messages;
    expect(ids(second.nodes)).toEqual([posted[2].id]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('nested queries are batched', () => {
  it('messages { sender channels owners } costs the same number of statements for 40 messages as for 3', async () => {
    const s = await service.school('Batching Messages');
    const [c1, c2] = [await f.channel(s), await f.channel(s)];
    const senders = [await f.person(s, 'Student'), await f.person(s, 'Collaborator'), await f.person(s, 'Admin')];
    async function seed(n: number) {
      const rows = await service.db
        .insert(messages)
        .values(Array.from({ length: n }, (_, i) => ({ schoolId: s.id, senderId: senders[i % 3].id, subject: `S${i}`, text: 't' })))
        .returning();
      await service.db.insert(messageChannels).values(rows.flatMap((m) => [{ schoolId: s.id, messageId: m.id, channelId: c1 }, { schoolId: s.id, messageId: m.id, channelId: c2 }]));
    }
    const query = graphql(`query ($s: ID) { messages(schoolId: $s, first: 100) { totalCount nodes { id sender { id type fullName } channels { id name } channelIds owners { ownerType } } } }`);
    await seed(3);
    let small: any;
    const smallCount = await service.countStatements(async () => {
      small = await s.admin.graphql(query, { s: s.id });
    });
    expect(small.errors).toBeUndefined();
    expect(small.data.messages.nodes).toHaveLength(3);
    await seed(37);
    let large: any;
    const largeCount = await service.countStatements(async () => {
      large = await s.admin.graphql(query, { s: s.id });
    });
    expect(large.errors).toBeUndefined();
    expect(large.data.messages.nodes).toHaveLength(40);
    expect(large.data.messages.nodes.every((m: any) => m.channels.length === 2 && m.sender)).toBe(true);
    expect(new Set(large.data.messages.nodes.map((m: any) => m.sender.type))).toEqual(new Set(['Student', 'Collaborator', 'Admin']));
    expect(largeCount).toBe(smallCount);
    // credential, school check, page, count, senders, channel ids, channels, owners.
    expect(largeCount).toBeLessThanOrEqual(8);
  });

  it('channels { messages { sender } } costs the same for 12 channels as for 2', async () => {
    const s = await service.school('Batching Channels');
    async function seed(n: number) {
      for (let i = 0; i < n; i++) {
        const channel = await f.channel(s);
        const rows = await service.db
          .insert(messages)
          .values([1, 2, 3].map((k) => ({ schoolId: s.id, senderId: s.adminId, subject: `S${k}`, text: 't' })))
          .returning();
        await service.db.insert(messageChannels).values(rows.map((m) => ({ schoolId: s.id, messageId: m.id, channelId: channel })));
      }
    }
    const query = graphql(`{ channels(first: 100) { nodes { id messages(first: 10) { totalCount nodes { id sender { id } } } } } }`);
    await seed(2);
    const smallCount = await service.countStatements(() => s.admin.graphql(query));
    await seed(10);
    let large: any;
    const largeCount = await service.countStatements(async () => {
      large = await s.admin.graphql(query);
    });
    expect(large.data.channels.nodes).toHaveLength(12);
    expect(large.data.channels.nodes.every((c: any) => c.messages.totalCount === 3 && c.messages.nodes.length === 3)).toBe(true);
    expect(largeCount).toBe(smallCount);
  });

  it('the REST list of a channel costs a constant number of statements', async () => {
    const s = await service.school('Counting Messages');
    const channel = await f.channel(s);
    await f.message(s, channel);
    const before = await service.countStatements(() => s.admin.get(`/channels/${channel}/messages`));
    const rows = await service.db
      .insert(messages)
      .values(Array.from({ length: 50 }, (_, i) => ({ schoolId: s.id, senderId: s.adminId, subject: `Bulk ${i}`, text: 't' })))
      .returning();
    await service.db.insert(messageChannels).values(rows.map((m) => ({ schoolId: s.id, messageId: m.id, channelId: channel })));
    let reply: any;
    const after = await service.countStatements(async () => {
      reply = await s.admin.get(`/channels/${channel}/messages`);
    });
    expect(reply.body.messages).toHaveLength(51);
    expect(after).toBe(before);
  });
});
