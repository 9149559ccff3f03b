import { and, count, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { AppError, forbidden } from '../../errors/app-error.js';
import { idOrNull } from '../../graphql/ids.js';
import { existingId, existingIds } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { emitRowEvent } from '../events/events.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { notify } from '../notifications/notification.notify.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { users } from '../users/user.table.js';
import { type MessageInput, type MessageOwnerInput, OWNER_TYPES, type OwnerType } from './message.input.js';
import { type ChannelRow, channels, messageChannels, messageOwners, type MessageRow, messages } from './message.table.js';

const PEOPLE: readonly OwnerType[] = ['Student', 'Collaborator', 'Admin'];

/** The ids of `type` among `ids` that name such an object of the school: one statement. */
async function existing(tx: Queryable, schoolId: number, type: OwnerType, ids: number[]): Promise<Set<number>> {
  let rows: { id: number }[];
  if (PEOPLE.includes(type))
    rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), eq(users.schoolId, schoolId), eq(users.type, type as 'Student')));
  else {
    const table = type === 'SchoolProduct' ? schoolProducts : enrollments;
    rows = await tx.select({ id: table.id }).from(table).where(and(inArray(table.id, ids), eq(table.schoolId, schoolId)));
  }
  return new Set(rows.map((r) => r.id));
}

/** Each owner: a type among OWNER_TYPES and an id naming such an object of the school (one statement per type named). */
async function checkOwners(tx: Queryable, checks: Checks, schoolId: number, owners: MessageOwnerInput[] | null | undefined) {
  const list = (owners ?? []).map((o, i) => {
    const c = checks.nested('owners', i).required('id', o.id).required('type', o.type);
    const type = typeof o.type === 'string' ? o.type.trim() : '';
    const known = (OWNER_TYPES as readonly string[]).includes(type);
    if (type && !known) c.add('type', 'inclusion', `is not included in the list (${OWNER_TYPES.join(', ')})`);
    return { c, raw: o.id, given: o.id !== null && o.id !== undefined, id: idOrNull(o.id), type: known ? (type as OwnerType) : null };
  });
  const checked: { ownerId: number; ownerType: OwnerType }[] = [];
  for (const type of OWNER_TYPES) {
    const ofType = list.filter((o) => o.type === type && o.given);
    if (!ofType.length) continue;
    const valid = ofType.map((o) => o.id).filter((id): id is number => id !== null);
    const found = valid.length ? await existing(tx, schoolId, type, valid) : new Set<number>();
    for (const o of ofType) {
      if (o.id === null || !found.has(o.id)) o.c.add('id', 'not_found', `has no ${type} of this school with id ${o.raw}`);
      // The same owner named twice is stored once.
      else if (!checked.some((x) => x.ownerId === o.id && x.ownerType === type)) checked.push({ ownerId: o.id, ownerType: type });
    }
  }
  return checked;
}

/** Users who answer for the school: a student's message notifies them. */
const STAFF_TYPES = ['Collaborator', 'Admin'] as const;

/**
 * The people a new message notifies: the people named as owners, the students of the enrollments
 * named as owners and of the enrollment channels it is posted to, and, for a student's message, the
 * school's collaborators and admins; never the sender. Product and school-wide channels notify
 * nobody by themselves (their readers find them in the lists).
 */
async function recipients(tx: Queryable, message: MessageRow, channelIds: number[], owners: { ownerId: number; ownerType: OwnerType }[]) {
  const people = owners.filter((o) => PEOPLE.includes(o.ownerType)).map((o) => o.ownerId);
  const enrollmentOwners = owners.filter((o) => o.ownerType === 'Enrollment').map((o) => o.ownerId);
  const ofChannels = tx
    .select({ id: channels.enrollmentId })
    .from(channels)
    .where(and(inArray(channels.id, channelIds), isNotNull(channels.enrollmentId)));
  const students = await tx
    .select({ id: enrollments.studentId })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.schoolId, message.schoolId),
        or(enrollmentOwners.length ? inArray(enrollments.id, enrollmentOwners) : undefined, inArray(enrollments.id, ofChannels)),
      ),
    );
  // One statement: the school's staff when the sender is a student of it, else no row.
  const staff = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.schoolId, message.schoolId),
        inArray(users.type, [...STAFF_TYPES]),
        sql`exists (select 1 from ${users} s where s.id = ${message.senderId} and s.type = 'Student')`,
      ),
    );
  return [...new Set([...people, ...students.map((s) => s.id), ...staff.map((s) => s.id)])].filter((id) => id !== message.senderId);
}

/**
 * Posts a message to `channelId` (already checked in the school) and the further `channelIds`.
 * Without createdAt its callbacks run: the recipients are notified and `message.created` is
 * emitted; with createdAt (an import) the message keeps that time and nothing else happens.
 */
export async function postMessage(tx: Queryable, schoolId: number, channelId: number, input: MessageInput): Promise<MessageRow> {
  const checks = new Checks().required('text', input.text).required('subject', input.subject).required('senderId', input.senderId);
  const senderId = await existingId(tx, checks, 'senderId', users, input.senderId, schoolId);
  const further = await existingIds(tx, checks, 'channelIds', channels, input.channelIds, schoolId);
  const owners = await checkOwners(tx, checks, schoolId, input.owners);
  checks.throwIfAny();
  const createdAt = input.createdAt ?? undefined;
  const [message] = await tx
    .insert(messages)
    .values({ schoolId, senderId: senderId!, subject: input.subject!, text: input.text!, ...(createdAt ? { createdAt, updatedAt: createdAt } : {}) })
    .returning();
  const channelIds = [...new Set([channelId, ...further])];
  await tx.insert(messageChannels).values(channelIds.map((id) => ({ schoolId, messageId: message.id, channelId: id })));
  if (owners.length) await tx.insert(messageOwners).values(owners.map((o) => ({ schoolId, messageId: message.id, ...o })));
  if (createdAt) return message;

  const notified = await notify(
    tx,
    schoolId,
    (await recipients(tx, message, channelIds, owners)).map((userId) => ({ userId, text: `New message: ${message.subject}`, url: `/messages/${message.id}` })),
  );
  await emitRowEvent(tx, 'message.created', message, { channelIds, senderId: message.senderId, owners, notifiedUserIds: notified.map((n) => n.userId) });
  return message;
}

/**
 * A student's message: only in a channel of one of its own enrollments (another student's channel is
 * not found for it already: `channelById` reads what it may see), sent as itself, to that channel
 * alone, with no owners and no created_at (those are staff's). At most
 * STUDENT_MESSAGES_PER_MINUTE a minute, counted in PostgreSQL under a lock of the student's row, so
 * concurrent posts on any instance are counted one after another; more is a 429 (`rate_limited`).
 */
export async function postAsStudent(tx: Queryable, schoolId: number, studentId: number, channel: ChannelRow, input: MessageInput): Promise<MessageRow> {
  const [own] =
    channel.enrollmentId === null
      ? []
      : await tx
          .select({ id: enrollments.id })
          .from(enrollments)
          .where(and(eq(enrollments.id, channel.enrollmentId), eq(enrollments.schoolId, schoolId), eq(enrollments.studentId, studentId)));
  if (!own) throw forbidden('A student credential posts only in the channels of its own enrollments');
  const checks = new Checks();
  if (input.senderId !== undefined && input.senderId !== null && idOrNull(input.senderId) !== studentId)
    checks.add('senderId', 'forbidden', "can only be the credential's own student");
  if (input.channelIds?.length) checks.add('channelIds', 'forbidden', 'a student credential posts to one channel of its own');
  if (input.owners?.length) checks.add('owners', 'forbidden', 'a student credential may not name owners');
  if (input.createdAt) checks.add('createdAt', 'forbidden', 'a student credential may not import messages');
  checks.throwIfAny();
  await tx.select({ id: users.id }).from(users).where(eq(users.id, studentId)).for('update');
  const limit = config.studentMessagesPerMinute;
  const [recent] = await tx
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.senderId, studentId), gt(messages.createdAt, sql`now() - interval '1 minute'`)));
  if (Number(recent.n) >= limit) throw new AppError('rate_limited', `A student may post at most ${limit} messages a minute: retry in a minute`);
  return postMessage(tx, schoolId, channel.id, { ...input, senderId: String(studentId) });
}
