import { and, count, eq, type SQL } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool, inSchoolScope, isOwn, ownRows } from '../../auth/tenancy.js';
import { type Context, defineLoader } from '../../graphql/context.js';
import { childConnectionLoaders } from '../../graphql/pagination.js';
import { type NotificationRow, notifications } from './notification.table.js';

export function visibleNotifications(ctx: Context): SQL | undefined {
  return and(inSchool(ctx, notifications.schoolId), ownRows(ctx, notifications.userId));
}

/** `visibleNotifications` for a row already read (a subscription's shared row): of the school in scope and, for a student, its own. */
export function notificationVisibleTo(ctx: Context, row: NotificationRow): boolean {
  return inSchoolScope(ctx, row.schoolId) && isOwn(ctx, row.userId);
}

export const notificationById = defineLoader<number, NotificationRow | null>('notification.byId', async (ctx, ids) => {
  const rows = await ctx.db
    .select()
    .from(notifications)
    .where(and(inList(notifications.id, [...ids]), visibleNotifications(ctx)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
});

/** `Student.notifications` / `Collaborator.notifications`, with and without the unread filter. */
export const notificationsOfUser = {
  all: childConnectionLoaders('user.notifications', notifications, notifications.userId, visibleNotifications),
  unread: childConnectionLoaders('user.notifications.unread', notifications, notifications.userId, (ctx) =>
    and(visibleNotifications(ctx), eq(notifications.read, false)),
  ),
  read: childConnectionLoaders('user.notifications.read', notifications, notifications.userId, (ctx) =>
    and(visibleNotifications(ctx), eq(notifications.read, true)),
  ),
};

export const unreadCountOfUser = defineLoader<number, number>('user.notifications.unreadCount', async (ctx, userIds) => {
  const rows = await ctx.db
    .select({ userId: notifications.userId, n: count() })
    .from(notifications)
    .where(and(inList(notifications.userId, [...userIds]), eq(notifications.read, false), visibleNotifications(ctx)))
    .groupBy(notifications.userId);
  const byUser = new Map(rows.map((r) => [r.userId, Number(r.n)]));
  return userIds.map((id) => byUser.get(id) ?? 0);
});
