import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { UserTypeEnum } from '../users/user.type.js';
import { SchoolOwned, SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({
  description:
    'A channel messages are posted to: school-wide (no enrollmentId nor schoolProductId), of one enrollment, or of a school product. ' +
    'A student credential sees the school-wide channels, the channels of its enrollments and of their products.',
})
export class Channel extends SchoolRecord {
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => ID, { nullable: true }) enrollmentId!: number | null;
  @Field(() => ID, { nullable: true }) schoolProductId!: number | null;
}

@ObjectType({ description: 'A message posted to one or more channels of a school.' })
export class Message extends SchoolOwned {
  @Field(() => ID, { description: 'The user (student, collaborator or admin) who sent it.' }) senderId!: number;
  @Field(() => String) subject!: string;
  @Field(() => String) text!: string;
  @Field(() => Date, { description: 'As given on create (an import), else the time of creation.' }) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType({ description: 'An owner named when the message was posted (`owners[id]`, `owners[type]`).' })
export class MessageOwner {
  @Field(() => ID) id!: number;
  @Field(() => ID) ownerId!: number;
  @Field(() => String, { description: 'Student, Collaborator, Admin, SchoolProduct or Enrollment.' }) ownerType!: string;
}

/**
 * The sender is a user of any kind (a row of `users`). An object type rather than a union of
 * Student | Collaborator | Admin: the REST renderer (rest/compile.ts) walks every field's type and
 * cannot walk a union.
 */
@ObjectType({ description: 'The person who sent a message: a student, a collaborator or an admin of the school.' })
export class MessageSender {
  @Field(() => ID) id!: number;
  @Field(() => UserTypeEnum, { description: 'Student, Collaborator or Admin: the id names a person of that kind.' }) type!: string;
  @Field(() => String) fullName!: string;
  @Field(() => String, { nullable: true, description: 'Shown to staff and to the person only.' }) email!: string;
}

export const ChannelConnection = connectionType(Channel);
export const MessageConnection = connectionType(Message);
