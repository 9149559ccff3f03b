import 'reflect-metadata';
import { Ctx, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { loadMany } from '../../graphql/loaders.js';
import { RelationFields } from '../../graphql/relations.js';
import { channelById, channelIdsOfMessage, ownersOfMessage, senderById } from './message.loaders.js';
import { ownStudentId } from '../../auth/tenancy.js';
import type { MessageRow } from './message.table.js';
import { Channel, Message, MessageOwner, MessageSender } from './message.type.js';

/** Related rows of a message, each through a per-request loader. */
@Resolver(() => Message)
@RelationFields<MessageRow>({
  sender: { type: () => MessageSender, loader: senderById, key: 'senderId', nullable: true },
  owners: { type: () => [MessageOwner], loader: ownersOfMessage, key: 'id' },
})
export class MessageFieldsResolver {
  @FieldResolver(() => [ID], { description: 'The channels the message was posted to (a student credential: those it may see).' })
  async channelIds(@Root() message: MessageRow, @Ctx() ctx: Context) {
    const ids = await ctx.loaders.get(channelIdsOfMessage).load(message.id);
    if (ownStudentId(ctx) === null) return ids;
    return (await loadMany(ctx, channelById, ids)).map((c) => c.id);
  }

  @FieldResolver(() => [Channel])
  async channels(@Root() message: MessageRow, @Ctx() ctx: Context) {
    return loadMany(ctx, channelById, await ctx.loaders.get(channelIdsOfMessage).load(message.id));
  }
}
