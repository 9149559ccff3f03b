import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { createdRows } from '../notifications/notification.feed.js';
import { channelById } from './message.loaders.js';
import { postedTo, visibleChannels, visibleMessages } from './message.scope.js';
import { channels, type MessageRow, messages } from './message.table.js';
import { Message } from './message.type.js';

/** The messages posted to a channel the caller may read, each read with the caller's scope when it commits. */
async function messageFeed(ctx: Context, channelId: string) {
  const channel = await findOr404(ctx, channelById, parseId(channelId, 'Channel'), 'Channel');
  return createdRows(ctx, 'message.created', messages, (c) =>
    and(visibleMessages(c), postedTo(c, and(eq(channels.id, channel.id), visibleChannels(c)))),
  );
}

@Resolver(() => Message)
export class MessageSubscriptionResolver {
  @Subscription(() => Message, {
    description:
      'Each message posted to the channel, when its transaction commits, over WebSocket (graphql-ws) at /graphql; for whoever ' +
      'may read the channel (a student: the channels of its enrollments and the school-wide ones). Imports (createdAt given) emit none.',
    subscribe: ({ args, context }) => messageFeed(context as Context, args.channelId as string),
  })
  messageCreated(@Root() message: MessageRow, @Arg('channelId', () => ID) _channelId: string): MessageRow {
    return message;
  }
}
