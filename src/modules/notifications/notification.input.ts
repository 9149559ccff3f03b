import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';

@InputType({ description: 'Both fields are optional; the recipient is named by the studentId or collaboratorId argument.' })
export class NotificationInput {
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => String, { nullable: true, description: 'Where the notification leads (any link or path).' }) url?: string | null;
}

@ArgsType()
export class NotificationFieldArgs extends ConnectionArgs {
  @Field(() => Boolean, { nullable: true, description: 'true: only unread; false: only read; omitted: all.' }) unread?: boolean | null;
}

@ArgsType()
export class NotificationsArgs extends NotificationFieldArgs {
  @Field(() => ID, { nullable: true, description: 'The notifications of this student (give at most one of studentId, collaboratorId).' })
  studentId?: string | null;
  @Field(() => ID, { nullable: true, description: 'The notifications of this collaborator (or admin).' }) collaboratorId?: string | null;
}
