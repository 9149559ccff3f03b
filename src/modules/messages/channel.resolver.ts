import 'reflect-metadata';
import { and } from 'drizzle-orm';
import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idMatch } from '../../graphql/filters.js';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { readerOf } from '../../graphql/reader.js';
import { visibleChannels } from '../../content/messages.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { ChannelInput, ChannelsArgs } from './message.input.js';
import { channelById, messagesOfChannel } from './message.loaders.js';
import { type ChannelRow, channels } from './message.table.js';
import { Channel, MessageConnection } from './message.type.js';

/** The channel as it will be (`current` + `input`): a name, and at most one of an enrollment and a product of the school. */
async function checkChannel(tx: Queryable, schoolId: number, input: ChannelInput, current?: ChannelRow) {
  const checks = new Checks().present(!current, 'name', input.name);
  const enrollmentId = await existingId(tx, checks, 'enrollmentId', enrollments, input.enrollmentId, schoolId);
  const schoolProductId = await existingId(tx, checks, 'schoolProductId', schoolProducts, input.schoolProductId, schoolId);
  const values: Partial<typeof channels.$inferInsert> = {};
  if (input.name !== undefined && input.name !== null) values.name = input.name.trim();
  if (input.enrollmentId !== undefined) values.enrollmentId = enrollmentId;
  if (input.schoolProductId !== undefined) values.schoolProductId = schoolProductId;
  const after = { enrollmentId: current?.enrollmentId ?? null, schoolProductId: current?.schoolProductId ?? null, ...values };
  if (after.enrollmentId && after.schoolProductId)
    checks.add('schoolProductId', 'present', 'must be blank when the channel belongs to an enrollment (a channel has one of them)');
  checks.throwIfAny();
  return values;
}

@Resolver(() => Channel)
export class ChannelResolver extends resourceResolver({
  type: Channel,
  byId: channelById,
  columns: (tx, input: ChannelInput, { schoolId, current }) => checkChannel(tx, schoolId, input, current),
  listArgs: ChannelsArgs,
  listWhere: (ctx, args: ChannelsArgs) =>
    and(visibleChannels(readerOf(ctx)), idMatch(channels.enrollmentId, args.enrollmentId), idMatch(channels.schoolProductId, args.schoolProductId)),
  descriptions: {
    list: "The school's channels, narrowed by enrollment or school product; a student credential sees its own.",
    delete: 'Deletes the channel; its messages stay (in their other channels, or in the school).',
  },
}) {
  @FieldResolver(() => MessageConnection, { description: 'The messages posted to the channel.' })
  messages(@Root() channel: ChannelRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return messagesOfChannel(ctx, channel.id, args);
  }
}
