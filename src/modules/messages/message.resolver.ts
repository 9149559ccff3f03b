import 'reflect-metadata';
import { and, eq, or, type SQL } from 'drizzle-orm';
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { ownStudentId, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { rowMatch } from '../../graphql/filters.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate } from '../../graphql/mutation.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { readerOf } from '../../graphql/reader.js';
import { postedTo, visibleMessages } from '../../content/messages.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { schoolById } from '../schools/school.loaders.js';
import { postAsStudent, postMessage } from './message.create.js';
import { MessageInput, MessagesArgs, MessageUpdateInput } from './message.input.js';
import { channelById, messageById } from './message.loaders.js';
import { channels, messages } from './message.table.js';
import { Message } from './message.type.js';
import { inSchool } from '../../auth/tenancy.js';

/** The enrollment, if the caller may see it (its school; a student credential: only its own). */
async function visibleEnrollment(ctx: Context, id: number) {
  const own = ownStudentId(ctx);
  const [row] = await ctx.db
    .select({ id: enrollments.id, schoolProductId: enrollments.schoolProductId })
    .from(enrollments)
    .where(
      and(
        eq(enrollments.id, id),
        inSchool(ctx, enrollments.schoolId),
        own === null ? undefined : eq(enrollments.studentId, own),
      ),
    );
  if (!row) throw notFound('Enrollment');
  return row;
}

/** The conditions of the list's scopes; each scope object must be visible to the caller (else 404). */
async function scopes(ctx: Context, args: MessagesArgs): Promise<(SQL | undefined)[]> {
  const channel = await rowMatch(ctx, channels.id, channelById, args.channelId, 'Channel');
  // The caller's school only (a platform credential: any school that exists).
  const school = await rowMatch(ctx, messages.schoolId, schoolById, args.schoolId, 'School');
  const enrollment = args.enrollmentId != null ? await visibleEnrollment(ctx, parseId(args.enrollmentId, 'Enrollment')) : null;
  const product = await rowMatch(ctx, channels.schoolProductId, schoolProductById, args.schoolProductId, 'SchoolProduct');
  return [
    channel && postedTo(ctx, channel),
    school,
    enrollment ? postedTo(ctx, or(eq(channels.enrollmentId, enrollment.id), eq(channels.schoolProductId, enrollment.schoolProductId))) : undefined,
    product && postedTo(ctx, product),
  ];
}

const MessageBase = resourceResolver({
  type: Message,
  input: MessageUpdateInput,
  byId: messageById,
  // Only updates go through here: a create also posts the message to its channels (createMessage below).
  columns: (_tx, input: MessageUpdateInput) => {
    new Checks().notCleared('subject', input.subject).notCleared('text', input.text).throwIfAny();
    const values: { subject?: string; text?: string } = {};
    if (input.subject) values.subject = input.subject;
    if (input.text) values.text = input.text;
    return values;
  },
  listArgs: MessagesArgs,
  listWhere: async (ctx, args: MessagesArgs) => and(visibleMessages(readerOf(ctx)), ...(await scopes(ctx, args))),
  descriptions: {
    show: 'A message; a student credential sees the messages of its channels and those it sent.',
    list: 'Messages of the school, narrowed by channel, school, enrollment or school product (together: all of them).',
    update: 'Changes the subject and the text; neither may be cleared.',
  },
  omit: ['create'],
});
export const MessagePayload = MessageBase.Payload;

@Resolver(() => Message)
export class MessageResolver extends MessageBase {
  @Mutation(() => MessagePayload, {
    description:
      'Posts a message to a channel (and to the further channelIds). Without createdAt: the owners and the students of ' +
      'enrollment channels are notified and message.created is emitted; with createdAt, nothing but the message. A student ' +
      "credential posts as itself in the channels of its own enrollments only (a school-wide or product channel: FORBIDDEN), " +
      "at most STUDENT_MESSAGES_PER_MINUTE a minute (RATE_LIMITED, REST 429); the school's collaborators and admins are notified.",
  })
  async createMessage(@Arg('channelId', () => ID) channelId: string, @Arg('input', () => MessageInput) input: MessageInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    const channel = await findOr404(ctx, channelById, parseId(channelId, 'Channel'), 'Channel');
    const student = ownStudentId(ctx);
    if (student !== null) return mutate(ctx, 'message', (tx) => postAsStudent(tx, schoolId, student, channel, input));
    return mutate(ctx, 'message', (tx) => postMessage(tx, schoolId, channel.id, input));
  }
}
