import { and, asc, count, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool } from '../../auth/tenancy.js';
import { type Context, defineLoader, type LoaderDefinition } from '../../graphql/context.js';
import { byIdLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { readerOf } from '../../graphql/reader.js';
import { visibleChannels, visibleMessages } from '../../content/messages.js';
import { type ConnectionArgs, type ConnectionData, encodeCursor, type Window, windowOf } from '../../graphql/pagination.js';
import { users } from '../users/user.table.js';
import { channels, messageChannels, type MessageOwnerRow, messageOwners, type MessageRow, messages } from './message.table.js';


export const channelById = byIdLoader('channel.byId', channels, (ctx) => visibleChannels(readerOf(ctx)));
export const messageById = byIdLoader('message.byId', messages, (ctx) => visibleMessages(readerOf(ctx)));
export const senderById = byIdLoader('message.sender', users);
export const channelIdsOfMessage = linkedIdsLoader('message.channelIds', messageChannels, messageChannels.messageId, messageChannels.channelId, messages);

/** The owners of each message, in the order they were given (message_owners has no school: its message's school counts). */
export const ownersOfMessage = defineLoader<number, MessageOwnerRow[]>('message.owners', async (ctx, messageIds) => {
  const rows = await ctx.db
    .select(getTableColumns(messageOwners))
    .from(messageOwners)
    .innerJoin(messages, eq(messages.id, messageOwners.messageId))
    .where(and(inList(messageOwners.messageId, [...messageIds]), inSchool(ctx, messages.schoolId)))
    .orderBy(asc(messageOwners.id));
  const byMessage = new Map<number, MessageOwnerRow[]>();
  for (const r of rows) byMessage.set(r.messageId, [...(byMessage.get(r.messageId) ?? []), r]);
  return messageIds.map((id) => byMessage.get(id) ?? []);
});

type Key = { channelId: number; window: Window };
type Ranked = MessageRow & { channelId: number };

/** One page of messages for every channel of the batch in one statement (numbered per channel through the join table). */
const channelMessagePages: LoaderDefinition<Key, Ranked[]> = defineLoader(
  'channel.messages.page',
  async (ctx, keys) => {
    const byWindow = new Map<string, Key[]>();
    for (const key of keys) byWindow.set(JSON.stringify(key.window), [...(byWindow.get(JSON.stringify(key.window)) ?? []), key]);
    const found = new Map<string, Ranked[]>();
    for (const [wkey, group] of byWindow) {
      const { limit, offset, afterId } = group[0].window;
      const ranked = ctx.db
        .select({
          ...getTableColumns(messages),
          channelId: sql<number>`${messageChannels.channelId}`.as('channel_id'),
          rank: sql<number>`row_number() over (partition by ${messageChannels.channelId} order by ${messages.id})`.as('rank'),
        })
        .from(messages)
        .innerJoin(messageChannels, eq(messageChannels.messageId, messages.id))
        .where(
          and(
            inList(messageChannels.channelId, [...new Set(group.map((g) => g.channelId))]),
            afterId !== null ? gt(messages.id, afterId) : undefined,
            inSchool(ctx, messages.schoolId),
          ),
        )
        .as('ranked');
      const rows = await ctx.db
        .select()
        .from(ranked)
        .where(sql`${ranked.rank} > ${offset} and ${ranked.rank} <= ${offset + limit + 1}`)
        .orderBy(asc(ranked.id));
      for (const row of rows as unknown as Ranked[]) {
        const k = `${wkey}|${row.channelId}`;
        found.set(k, [...(found.get(k) ?? []), row]);
      }
    }
    return keys.map((k) => found.get(`${JSON.stringify(k.window)}|${k.channelId}`) ?? []);
  },
  (key) => `${key.channelId}|${JSON.stringify(key.window)}`,
);

const channelMessageCounts = defineLoader<number, number>('channel.messages.count', async (ctx, channelIds) => {
  const rows = await ctx.db
    .select({ channelId: messageChannels.channelId, n: count() })
    .from(messageChannels)
    .innerJoin(messages, eq(messages.id, messageChannels.messageId))
    .where(and(inList(messageChannels.channelId, [...channelIds]), inSchool(ctx, messages.schoolId)))
    .groupBy(messageChannels.channelId);
  const byChannel = new Map(rows.map((r) => [Number(r.channelId), Number(r.n)]));
  return channelIds.map((id) => byChannel.get(id) ?? 0);
});

/** `Channel.messages`: the messages posted to a channel, as a connection (batched across channels). */
export async function messagesOfChannel(ctx: Context, channelId: number, args: ConnectionArgs): Promise<ConnectionData<MessageRow>> {
  const window = windowOf(args);
  const rows = await ctx.loaders.get(channelMessagePages).load({ channelId, window });
  const nodes = rows.slice(0, window.limit);
  return {
    nodes,
    totalCount: () => ctx.loaders.get(channelMessageCounts).load(channelId),
    pageInfo: {
      hasNextPage: rows.length > window.limit,
      hasPreviousPage: window.offset > 0 || window.afterId !== null,
      startCursor: nodes.length ? encodeCursor(nodes[0].id) : null,
      endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1].id) : null,
    },
  };
}
