import 'reflect-metadata';
import { and, count, eq, inArray, type SQL } from 'drizzle-orm';
import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, inWriteSchool, ownRows, ownStudentId, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { AppError, notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { mutate } from '../../graphql/mutation.js';
import { paginate } from '../../graphql/pagination.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { users } from '../users/user.table.js';
import { NotificationInput, NotificationsArgs } from './notification.input.js';
import { notificationById, visibleNotifications } from './notification.loaders.js';
import { notify } from './notification.notify.js';
import { notifications } from './notification.table.js';
import { Notification, NotificationConnection } from './notification.type.js';

/** The collaborator routes take admins too: an admin is a collaborator with more rights. */
const KINDS = { Student: ['Student'], Collaborator: ['Collaborator', 'Admin'] } as const;
type Kind = keyof typeof KINDS;

/** The recipient named by studentId or collaboratorId (at most one), checked in the caller's school; null when neither. */
async function recipient(ctx: Context, studentId: string | null | undefined, collaboratorId: string | null | undefined) {
  const given = (v: string | null | undefined) => v !== undefined && v !== null;
  if (given(studentId) && given(collaboratorId))
    throw new AppError('bad_request', 'Name one recipient: studentId or collaboratorId', ['collaboratorId']);
  const kind: Kind | null = given(studentId) ? 'Student' : given(collaboratorId) ? 'Collaborator' : null;
  if (!kind) return null;
  const id = parseId((studentId ?? collaboratorId)!, kind);
  const own = ownStudentId(ctx);
  // A student credential reaches only itself.
  if (own !== null && id !== own) throw notFound(kind);
  const [row] = await ctx.db
    .select({ id: users.id, schoolId: users.schoolId })
    .from(users)
    .where(and(eq(users.id, id), inArray(users.type, [...KINDS[kind]]), inSchool(ctx, users.schoolId)));
  if (!row) throw notFound(kind);
  return row;
}

const NotificationBase = resourceResolver({
  type: Notification,
  table: notifications,
  byId: notificationById,
  // Only the show query goes through here: the list counts the unread, a create names its recipient, and nothing else is written.
  columns: () => ({}),
  descriptions: { show: 'A notification; a student credential sees only its own.' },
  omit: ['list', 'create', 'update', 'delete'],
});
export const NotificationPayload = NotificationBase.Payload;

@Resolver(() => Notification)
export class NotificationResolver extends NotificationBase {
  @Query(() => NotificationConnection, {
    description: "Notifications of a student or a collaborator, or of the whole school; a student credential sees only its own.",
  })
  async notifications(@Args(() => NotificationsArgs) args: NotificationsArgs, @Ctx() ctx: Context) {
    const who = await recipient(ctx, args.studentId, args.collaboratorId);
    const base: SQL | undefined = and(visibleNotifications(ctx), who ? eq(notifications.userId, who.id) : undefined);
    const unread = args.unread === undefined || args.unread === null ? undefined : eq(notifications.read, !args.unread);
    const connection = await paginate(ctx, notifications, and(base, unread), args);
    let counted: Promise<number> | undefined;
    const unreadCount = () =>
      (counted ??= ctx.db
        .select({ n: count() })
        .from(notifications)
        .where(and(base, eq(notifications.read, false)))
        .then(([r]) => Number(r.n)));
    return { ...connection, unreadCount };
  }

  @Mutation(() => NotificationPayload, { description: 'Notifies a student or a collaborator (name exactly one); emits notification.created.' })
  async createNotification(
    @Arg('input', () => NotificationInput) input: NotificationInput,
    @Ctx() ctx: Context,
    @Arg('studentId', () => ID, { nullable: true }) studentId?: string,
    @Arg('collaboratorId', () => ID, { nullable: true }) collaboratorId?: string,
  ) {
    const schoolId = writeSchool(ctx);
    const who = await recipient(ctx, studentId, collaboratorId);
    if (!who) throw new AppError('bad_request', 'Name the recipient: studentId or collaboratorId', ['studentId']);
    return mutate(ctx, 'notification', async (tx) => {
      const [row] = await notify(tx, schoolId, [{ userId: who.id, text: input.text ?? null, url: input.url ?? null }]);
      return row;
    });
  }

  @Mutation(() => NotificationPayload, {
    description: 'Inverts the read flag: read sets readAt to now, unread clears it. A student credential toggles only its own.',
  })
  toggleNotificationRead(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const notificationId = parseId(id, 'Notification');
    return mutate(ctx, 'notification', async (tx) => {
      const mine = and(eq(notifications.id, notificationId), inWriteSchool(ctx, notifications.schoolId), ownRows(ctx, notifications.userId));
      const [current] = await tx.select().from(notifications).where(mine).for('update');
      if (!current) throw notFound('Notification');
      const read = !current.read;
      const [row] = await tx
        .update(notifications)
        .set({ read, readAt: read ? ctx.now() : null })
        .where(eq(notifications.id, notificationId))
        .returning();
      return row;
    });
  }
}
