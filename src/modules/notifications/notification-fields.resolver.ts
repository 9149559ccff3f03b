import 'reflect-metadata';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { CollaboratorTypes, StudentTypes } from '../users/user.type.js';
import { NotificationFieldArgs } from './notification.input.js';
import { notificationsOfUser, unreadCountOfUser } from './notification.loaders.js';
import { NotificationConnection } from './notification.type.js';

/** A person's notifications (batched across people), with the unread count of that person. */
async function notificationsOf(ctx: Context, userId: number, args: NotificationFieldArgs) {
  const loaders = args.unread === true ? notificationsOfUser.unread : args.unread === false ? notificationsOfUser.read : notificationsOfUser.all;
  const connection = await loaders(ctx, userId, args);
  return { ...connection, unreadCount: () => ctx.loaders.get(unreadCountOfUser).load(userId) };
}

@Resolver(() => StudentTypes.Type)
export class StudentNotificationsResolver {
  @FieldResolver(() => NotificationConnection, { description: "The student's notifications (a student credential: only its own)." })
  notifications(@Root() student: { id: number }, @Args(() => NotificationFieldArgs) args: NotificationFieldArgs, @Ctx() ctx: Context) {
    return notificationsOf(ctx, student.id, args);
  }
}

@Resolver(() => CollaboratorTypes.Type)
export class CollaboratorNotificationsResolver {
  @FieldResolver(() => NotificationConnection, { description: "The collaborator's notifications." })
  notifications(@Root() collaborator: { id: number }, @Args(() => NotificationFieldArgs) args: NotificationFieldArgs, @Ctx() ctx: Context) {
    return notificationsOf(ctx, collaborator.id, args);
  }
}
