import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm';
import { inSchool, ownStudentId } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
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
