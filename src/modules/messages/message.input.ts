import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

/** The kinds of owner a message may name, and where each lives. */
export const OWNER_TYPES = ['Student', 'Collaborator', 'Admin', 'SchoolProduct', 'Enrollment'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

@InputType({ description: 'name is required on create; a channel belongs to at most one of an enrollment and a school product.' })
@RequiredFields('name')
export class ChannelInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => ID, { nullable: true, description: 'An enrollment of the school: the channel of that enrollment.' }) enrollmentId?: string | null;
  @Field(() => ID, { nullable: true, description: 'A school product of the school: the channel of that product.' }) schoolProductId?: string | null;
}

@ArgsType()
export class ChannelsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) enrollmentId?: string | null;
  @Field(() => ID, { nullable: true }) schoolProductId?: string | null;
}

@InputType({
  description:
    'An owner of the message. The spec types `owners[type]` as Integer without naming values: this service takes the ' +
    'owner type name as a string, one of Student, Collaborator, Admin, SchoolProduct, Enrollment; the id must name ' +
    'such an object of the school.',
})
export class MessageOwnerInput {
  @Field(() => ID, { nullable: true }) id?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
}

@InputType({ description: 'text, subject and senderId are required. createdAt given: the message keeps it and its callbacks are skipped.' })
@RequiredFields('text', 'subject', 'senderId')
export class MessageInput {
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => ID, { nullable: true, description: 'A user (student, collaborator or admin) of the school.' }) senderId?: string | null;
  @Field(() => [ID], { nullable: true, description: 'Further channels of the school the message is posted to.' }) channelIds?: string[] | null;
  @Field(() => [MessageOwnerInput], {
    nullable: true,
    description: 'One owner or a list; stored with the message. REST also takes owners and channel_ids beside the message hash.',
  })
  owners?: MessageOwnerInput[] | null;
  @Field(() => Date, {
    nullable: true,
    description: 'Given (an import): the message keeps it, and no notification nor message.created event is made.',
  })
  createdAt?: Date | null;
}

@InputType({ description: 'Only subject and text change after a message is posted.' })
@RequiredFields('subject', 'text')
export class MessageUpdateInput {
  @Field(() => String, { nullable: true }) subject?: string | null;
  @Field(() => String, { nullable: true }) text?: string | null;
}

@ArgsType()
export class MessagesArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Messages posted to this channel.' }) channelId?: string | null;
  @Field(() => ID, { nullable: true, description: "The school's messages: the caller's school only (another is not found)." })
  schoolId?: string | null;
  @Field(() => ID, { nullable: true, description: "Messages in the enrollment's channels and in the channels of its school product." })
  enrollmentId?: string | null;
  @Field(() => ID, { nullable: true, description: "Messages in the school product's channels." }) schoolProductId?: string | null;
}
