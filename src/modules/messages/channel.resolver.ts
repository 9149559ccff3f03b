import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { ChannelInput, ChannelsArgs } from './message.input.js';
import { channelById, messagesOfChannel } from './message.loaders.js';
import { visibleChannels } from './message.scope.js';
import { type ChannelRow, channels } from './message.table.js';
import { Channel, ChannelConnection, MessageConnection } from './message.type.js';

export const ChannelPayload = Payload(Channel, 'channel');

/** The channel as it will be (`current` + `input`): a name, and at most one of an enrollment and a product of the school. */
async function checkChannel(tx: Queryable, schoolId: number, input: ChannelInput, current?: ChannelRow) {
  const checks = new Checks();
  if (current) checks.notCleared('name', input.name);
  else checks.required('name', input.name);
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
export class ChannelResolver {
  @Query(() => Channel)
  channel(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, channelById, parseId(id, 'Channel'), 'Channel');
  }

  @Query(() => ChannelConnection, { description: "The school's channels, narrowed by enrollment or school product; a student credential sees its own." })
  channels(@Args(() => ChannelsArgs) args: ChannelsArgs, @Ctx() ctx: Context) {
    const by = (column: typeof channels.enrollmentId | typeof channels.schoolProductId, id: string | null | undefined) =>
      id === undefined || id === null ? undefined : eq(column, idOrNull(id) ?? 0);
    return paginate(ctx, channels, and(visibleChannels(ctx), by(channels.enrollmentId, args.enrollmentId), by(channels.schoolProductId, args.schoolProductId)), args);
  }

  @Mutation(() => ChannelPayload)
  createChannel(@Arg('input', () => ChannelInput) input: ChannelInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'channel', async (tx) => {
      const values = await checkChannel(tx, schoolId, input);
      const [row] = await tx.insert(channels).values({ ...values, schoolId }).returning();
      return row;
    });
  }

  @Mutation(() => ChannelPayload)
  updateChannel(@Arg('id', () => ID) id: string, @Arg('input', () => ChannelInput) input: ChannelInput, @Ctx() ctx: Context) {
    const channelId = parseId(id, 'Channel');
    return mutate(ctx, 'channel', async (tx) => {
      const current = await lockOwned(tx, ctx, channels, channelId, 'Channel');
      const values = await checkChannel(tx, current.schoolId, input, current);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(channels).set(values).where(eq(channels.id, channelId)).returning();
      return row;
    });
  }

  @Mutation(() => ChannelPayload, { description: 'Deletes the channel; its messages stay (in their other channels, or in the school).' })
  deleteChannel(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const channelId = parseId(id, 'Channel');
    return mutate(ctx, 'channel', (tx) => deleteOwned(tx, ctx, channels, channelId, 'Channel'));
  }

  @FieldResolver(() => MessageConnection, { description: 'The messages posted to the channel.' })
  messages(@Root() channel: ChannelRow, @Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return messagesOfChannel(ctx, channel.id, args);
  }
}
