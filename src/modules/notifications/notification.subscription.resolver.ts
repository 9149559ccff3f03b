import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, ID, Resolver, Root, Subscription } from 'type-graphql';
import { inSchool, ownStudentId } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { users } from '../users/user.table.js';
import { createdRows } from './notification.feed.js';
import { notificationVisibleTo } from './notification.loaders.js';
import { type NotificationRow, notifications } from './notification.table.js';
import { Notification } from './notification.type.js';

/** The person whose notifications a subscriber hears: a student only itself; staff anyone of the school, or (null) everyone. */
async function recipientOf(ctx: Context, userId: string | null | undefined): Promise<number | null> {
  const own = ownStudentId(ctx);
  if (userId === undefined || userId === null) return own;
  const id = parseId(userId, 'User');
  if (own !== null && id !== own) throw notFound('User');
  const [row] = await ctx.db.select({ id: users.id }).from(users).where(and(eq(users.id, id), inSchool(ctx, users.schoolId)));
  if (!row) throw notFound('User');
  return row.id;
}

async function notificationFeed(ctx: Context, userId: string | null | undefined) {
  const who = await recipientOf(ctx, userId);
  return createdRows(ctx, 'notification.created', notifications, {
    // The signal names the recipient: a notification for someone else is skipped before anything is read.
    wanted: (s) => who === null || s.recipientId === null || s.recipientId === who,
    visible: (c, row) => notificationVisibleTo(c, row) && (who === null || row.userId === who),
  });
}

@Resolver(() => Notification)
export class NotificationSubscriptionResolver {
  @Subscription(() => Notification, {
    description:
      'Each notification as it is created (when its transaction commits; a rolled-back one never arrives), over WebSocket ' +
      "(graphql-ws) at /graphql. A student credential hears only its own; staff hear the school's, or one person's with userId.",
    subscribe: ({ args, context }) => notificationFeed(context as Context, args.userId as string | null | undefined),
  })
  notificationReceived(
    @Root() notification: NotificationRow,
    @Arg('userId', () => ID, { nullable: true, description: 'Only the notifications of this student or collaborator (of the school).' }) _userId?: string | null,
  ): NotificationRow {
    return notification;
  }
}
