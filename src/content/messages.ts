import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { inList } from '../db/columns.js';
import { enrollments } from '../modules/enrollments/enrollment.table.js';
import { channels, messageChannels, messages } from '../modules/messages/message.table.js';
import type { DbHandle, Reader } from './reader.js';

/*
 * Who sees which channels and messages. Staff, app and platform credentials see every channel and
 * message of the school. A student credential sees the school-wide channels (no enrollment, no
 * product), the channels of its own enrollments and of the products of its enrollments, the
 * messages posted to those channels, and the messages it sent.
 */

function enrollmentsOf(reader: Reader, studentId: number) {
  return and(eq(enrollments.studentId, studentId), reader.inSchool(enrollments.schoolId));
}

export function visibleChannels(reader: Reader): SQL | undefined {
  const own = reader.studentId;
  if (own === null) return reader.inSchool(channels.schoolId);
  return and(
    reader.inSchool(channels.schoolId),
    or(
      and(isNull(channels.enrollmentId), isNull(channels.schoolProductId)),
      inArray(channels.enrollmentId, reader.db.select({ id: enrollments.id }).from(enrollments).where(enrollmentsOf(reader, own))),
      inArray(
        channels.schoolProductId,
        reader.db.select({ id: enrollments.schoolProductId }).from(enrollments).where(enrollmentsOf(reader, own)),
      ),
    ),
  );
}

/** Reads shared by the subscribers of one event (events/event-bus.ts' SharedReads): keys asked in the same tick are read at once. */
export interface BatchedReads {
  batch<K, V>(key: string, read: (keys: readonly K[]) => Promise<readonly V[]>): { load(key: K): Promise<V> };
}

/**
 * `visibleChannels` for a channel already read (a subscription's, for one event): staff see every
 * channel of the school in scope; a student the school-wide ones, and those of one of its
 * enrollments or of an enrollment's product. The enrollment is asked for every student subscribed
 * to the event at once: one read per event and channel, shared (`shared.batch`).
 */
export async function channelVisibleTo(
  reader: Reader,
  channel: { id: number; schoolId: number; enrollmentId: number | null; schoolProductId: number | null },
  shared: BatchedReads,
): Promise<boolean> {
  if (!reader.seesSchool(channel.schoolId)) return false;
  const own = reader.studentId;
  if (own === null) return true;
  if (channel.enrollmentId === null && channel.schoolProductId === null) return true;
  const enrolled = shared.batch<number, boolean>(`enrolled:${channel.id}`, async (students) => {
    const rows = await reader.db
      .selectDistinct({ studentId: enrollments.studentId })
      .from(enrollments)
      .where(
        and(
          inList(enrollments.studentId, students),
          eq(enrollments.schoolId, channel.schoolId),
          or(
            channel.enrollmentId === null ? undefined : eq(enrollments.id, channel.enrollmentId),
            channel.schoolProductId === null ? undefined : eq(enrollments.schoolProductId, channel.schoolProductId),
          ),
        ),
      );
    const found = new Set(rows.map((r) => r.studentId));
    return students.map((student) => found.has(student));
  });
  return enrolled.load(own);
}

export function visibleMessages(reader: Reader): SQL | undefined {
  const own = reader.studentId;
  if (own === null) return reader.inSchool(messages.schoolId);
  const inVisibleChannels = reader.db
    .select({ id: messageChannels.messageId })
    .from(messageChannels)
    .innerJoin(channels, eq(channels.id, messageChannels.channelId))
    .where(visibleChannels(reader));
  return and(reader.inSchool(messages.schoolId), or(eq(messages.senderId, own), inArray(messages.id, inVisibleChannels)));
}

/** Messages posted to channels matching `where` (a condition on channels), as a condition on messages. */
export function postedTo({ db }: DbHandle, where: SQL | undefined): SQL {
  return inArray(
    messages.id,
    db
      .select({ id: messageChannels.messageId })
      .from(messageChannels)
      .innerJoin(channels, eq(channels.id, messageChannels.channelId))
      .where(where),
  );
}
