import { asc, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { enrollments, registrations } from '../../src/modules/enrollments/enrollment.table.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { channels, messageChannels, messageOwners, messages } from '../../src/modules/messages/message.table.js';
import { notifications } from '../../src/modules/notifications/notification.table.js';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { courses } from '../../src/modules/courses/course.table.js';
import { users } from '../../src/modules/users/user.table.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './fingerprint.js';
import { type Client, type Service, startTwoSchools, type TestSchool, type TwoSchools } from './service.js';

/**
 * Factories and assertions shared by the messages, notifications and integrations tests. Rows
 * whose API another engineer is building (enrollments, courses) are inserted with drizzle.
 */
let serial = 0;

export function fixtures(service: Service) {
  async function person(s: TestSchool, type: 'Student' | 'Collaborator' | 'Admin' = 'Student') {
    const n = ++serial;
    const [row] = await service.db
      .insert(users)
      .values({ schoolId: s.id, type, fullName: `${type} ${n}`, email: `msg-${type.toLowerCase()}${n}-${s.id}@example.com` })
      .returning();
    return row;
  }
  async function studentClient(s: TestSchool, studentId?: number): Promise<{ client: Client; id: number }> {
    const id = studentId ?? (await person(s, 'Student')).id;
    return { client: await service.token('student', s.id, id), id };
  }
  async function product(s: TestSchool) {
    const [row] = await service.db.insert(schoolProducts).values({ schoolId: s.id, title: `Product ${++serial}` }).returning();
    return row;
  }
  async function course(s: TestSchool) {
    const [row] = await service.db.insert(courses).values({ schoolId: s.id, name: `Course ${++serial}` }).returning();
    return row;
  }
  /** An enrollment of `studentId` (a new student when omitted) in `productId` (a new product when omitted). */
  async function enrollment(s: TestSchool, options: { studentId?: number; productId?: number } = {}) {
    const studentId = options.studentId ?? (await person(s, 'Student')).id;
    const productId = options.productId ?? (await product(s)).id;
    const [registration] = await service.db
      .insert(registrations)
      .values({ schoolId: s.id, studentId })
      .onConflictDoNothing()
      .returning();
    const registrationId =
      registration?.id ??
      (await service.db.select().from(registrations).where(eq(registrations.studentId, studentId)))[0].id;
    const [row] = await service.db
      .insert(enrollments)
      .values({ schoolId: s.id, registrationId, studentId, schoolProductId: productId, maxAttendanceType: 'indeterminate', status: 'active' })
      .returning();
    return row;
  }
  /** A channel made through the API (createChannel). */
  async function channel(s: TestSchool, input: { name?: string; enrollmentId?: number; schoolProductId?: number } = {}) {
    const res = await s.admin.graphql(
      `mutation ($input: ChannelInput!) { createChannel(input: $input) { channel { id } errors { field code message } } }`,
      { input: { name: input.name ?? `Channel ${++serial}`, enrollmentId: input.enrollmentId, schoolProductId: input.schoolProductId } },
    );
    expect(res.data.createChannel.errors, JSON.stringify(res)).toEqual([]);
    return Number(res.data.createChannel.channel.id);
  }
  /** A message posted through the REST API. */
  async function message(s: TestSchool, channelId: number, fields: Record<string, unknown> = {}) {
    const res = await s.admin.post(`/channels/${channelId}/messages`, {
      message: { subject: `Subject ${++serial}`, text: 'Body', sender_id: s.adminId, ...fields },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; channel_ids: number[]; subject: string; text: string; created_at: string };
  }
  async function messageRow(id: number) {
    const [row] = await service.db.select().from(messages).where(eq(messages.id, id));
    return row;
  }
  async function eventsOf(subjectType: string, subjectIds: number[]) {
    if (!subjectIds.length) return [];
    return service.db
      .select()
      .from(domainEvents)
      .where(inArray(domainEvents.subjectId, subjectIds))
      .orderBy(asc(domainEvents.id))
      .then((rows) => rows.filter((r) => r.subjectType === subjectType));
  }
  async function notificationsOf(userId: number) {
    return service.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.id));
  }
  /** Every row of these families, to prove a refused request wrote nothing. */
  const snapshot = fingerprint(() => service, {
    channels,
    messages,
    links: messageChannels,
    owners: messageOwners,
    notifications,
    events: domainEvents,
  });
  const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);
  return { person, studentClient, product, course, enrollment, channel, message, messageRow, eventsOf, notificationsOf, snapshot, expectNoWrite };
}

export const ids = (list: { id: number | string }[]) => list.map((x) => Number(x.id));

export type MessageFixtures = ReturnType<typeof fixtures>;

/** The set-up of the messages, notifications and integrations files: a service, two schools, the fixtures. */
export async function startMessages(school: string, other: string): Promise<TwoSchools & { f: MessageFixtures }> {
  const two = await startTwoSchools(school, other);
  return { ...two, f: fixtures(two.service) };
}
