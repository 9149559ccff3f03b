import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Connection, type ConnectionData } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: 'A notification for one user of the school: a student, or a collaborator (or admin).' })
export class Notification extends SchoolRecord {
  @Field(() => ID, { description: 'The student or collaborator notified.' }) userId!: number;
  @Field(() => String, { nullable: true }) text!: string | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => Boolean, { description: 'Inverted by toggleNotificationRead.' }) read!: boolean;
  @Field(() => Date, { nullable: true, description: 'When it was last marked read; null while unread.' }) readAt!: Date | null;
}

export type NotificationConnectionData<T> = ConnectionData<T> & { unreadCount: () => Promise<number> };

@ObjectType()
export class NotificationConnection extends Connection(Notification) {
  @Field(() => Int, { description: 'How many notifications of the same recipient(s) are unread, whatever the unread filter and the page.' })
  unreadCount(this: NotificationConnectionData<Notification>): Promise<number> {
    return this.unreadCount();
  }
}
