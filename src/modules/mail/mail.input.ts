import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import type { MailKind, MailStatus } from './mail.table.js';
import { MailKindEnum, MailStatusEnum } from './mail.type.js';

@ArgsType()
export class MailsArgs extends ConnectionArgs {
  @Field(() => MailKindEnum, { nullable: true }) kind?: MailKind | null;
  @Field(() => MailStatusEnum, { nullable: true }) status?: MailStatus | null;
  @Field(() => ID, { nullable: true, description: 'The mails of this person.' }) userId?: string | null;
  @Field(() => String, { nullable: true, description: 'The mails to this address (case-insensitive).' }) recipient?: string | null;
}

@InputType({ description: 'Every field is optional; a given one replaces the stored value (null clears senderName and replyTo).' })
export class MailSettingsInput {
  @Field(() => String, { nullable: true }) senderName?: string | null;
  @Field(() => String, { nullable: true }) replyTo?: string | null;
  @Field(() => [MailKindEnum], { nullable: true }) disabledKinds?: MailKind[] | null;
}
