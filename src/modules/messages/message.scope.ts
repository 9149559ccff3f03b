import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { inSchool, inSchoolScope, ownStudentId } from '../../auth/tenancy.js';
import { inList } from '../../db/columns.js';
import type { Context } from '../../graphql/context.js';
import type { SharedReads } from '../events/event-bus.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { channels, messageChannels, messages } from './message.table.js';

/*
 * Who sees which channels and messages. Staff, app and platform credentials see every channel and
 * message of the school. A student credential sees the school-wide channels (no enrollment, no
 * product), the channels of its own enrollments and of the products of its enrollments, the
 * messages posted to those channels, and the messages it sent.
 */

function enrollmentsOf(ctx: Context, studentId: number) {
  return and(eq(enrollments.studentId, studentId), inSchool(ctx, enrollments.schoolId));
}

export function visibleChannels(ctx: Context): SQL | undefined {
  const own = ownStudentId(ctx);
  if (own === null) return inSchool(ctx, channels.schoolId);
  return and(
    inSchool(ctx, channels.schoolId),
    or(
      and(isNull(channels.enrollmentId), isNull(channels.schoolProductId)),
      inArray(channels.enrollmentId, ctx.db.select({ id: enrollments.id }).from(enrollments).where(enrollmentsOf(ctx, own))),
      inArray(
        channels.schoolProductId,
        ctx.db.select({ id: enrollments.schoolProductId }).from(enrollments).where(enrollmentsOf(ctx, own)),
      ),
    ),
  );
}

/**
 * `visibleChannels` for a channel already read (a subscription's, for one event): staff see every
 * channel of the school in scope; a student the school-wide ones, and those of one of its
 * enrollments or of an enrollment's product. The enrollment is asked for every student subscribed
 * to the event at once: one read per event and channel, shared (SharedReads.batch).
 */
export async function channelVisibleTo(
  ctx: Context,
  channel: { id: number; schoolId: number; enrollmentId: number | null; schoolProductId: number | null },
  shared: SharedReads,
): Promise<boolean> {
  if (!inSchoolScope(ctx, channel.schoolId)) return false;
  const own = ownStudentId(ctx);
  if (own === null) return true;
  if (channel.enrollmentId === null && channel.schoolProductId === null) return true;
  const enrolled = shared.batch<number, boolean>(`enrolled:${channel.id}`, async (students) => {
    const rows = await ctx.db
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

export function visibleMessages(ctx: Context): SQL | undefined {
  const own = ownStudentId(ctx);
  if (own === null) return inSchool(ctx, messages.schoolId);
  const inVisibleChannels = ctx.db
    .select({ id: messageChannels.messageId })
    .from(messageChannels)
    .innerJoin(channels, eq(channels.id, messageChannels.channelId))
    .where(visibleChannels(ctx));
  return and(inSchool(ctx, messages.schoolId), or(eq(messages.senderId, own), inArray(messages.id, inVisibleChannels)));
}

/** Messages posted to channels matching `where` (a condition on channels), as a condition on messages. */
export function postedTo(ctx: Context, where: SQL | undefined): SQL {
  return inArray(
    messages.id,
    ctx.db
      .select({ id: messageChannels.messageId })
      .from(messageChannels)
      .innerJoin(channels, eq(channels.id, messageChannels.channelId))
      .where(where),
  );
}
