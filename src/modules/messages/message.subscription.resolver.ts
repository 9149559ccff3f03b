import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { readerOf } from '../../graphql/reader.js';
import { channelVisibleTo } from '../../content/messages.js';
import { createdRows } from '../notifications/notification.feed.js';
import { channelById } from './message.loaders.js';
import { channels, messageChannels, type MessageRow, messages } from './message.table.js';
import { Message } from './message.type.js';

/**
 * The messages posted to a channel the caller may read, when each commits: the message and the
 * channels it was posted to are read once per event for every subscriber, and the caller keeps the
 * message when it was posted to this channel and the channel is still one it may read (what
 * `visibleMessages` and `visibleChannels` select over HTTP).
 */
async function messageFeed(ctx: Context, channelId: string) {
  const channel = await findOr404(ctx, channelById, parseId(channelId, 'Channel'), 'Channel');
  return createdRows(ctx, 'message.created', messages, {
    visible: async (c, row, shared) => {
      const posted = await shared.once('channels', () =>
        c.db
          .select({ id: channels.id, schoolId: channels.schoolId, enrollmentId: channels.enrollmentId, schoolProductId: channels.schoolProductId })
          .from(messageChannels)
          .innerJoin(channels, eq(channels.id, messageChannels.channelId))
          .where(and(eq(messageChannels.messageId, row.id), eq(channels.schoolId, row.schoolId))),
      );
      const here = posted.find((p) => p.id === channel.id);
      return !!here && (await channelVisibleTo(readerOf(c), here, shared));
    },
  });
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
