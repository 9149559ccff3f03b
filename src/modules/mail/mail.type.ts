import 'reflect-metadata';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';
import { MAIL_KINDS, MAIL_STATUSES, type MailKind, type MailStatus } from './mail.table.js';

export const MailKindEnum = graphqlEnum(
  'MailKind',
  MAIL_KINDS,
  'What a mail is about. invitation and password_reset are essential: no school turns them off and nobody unsubscribes from them.',
);
export const MailStatusEnum = graphqlEnum(
  'MailStatus',
  MAIL_STATUSES,
  'queued (due or waiting for a retry), sent (the SMTP server accepted it), failed (refused for good, or out of retries), ' +
    'kept (no SMTP_URL: stays here to be read), suppressed (the kind is off for the school or the person unsubscribed: never sent).',
);

@Timestamped()
@ObjectType({ description: 'A transactional e-mail to one person of the school, as rendered and as the outbox keeps it.' })
export class Mail extends SchoolRecord {
  @Field(() => ID, { description: 'The person it is for.' }) userId!: number;
  @Field(() => String, { description: 'The address it goes to.' }) recipient!: string;
  @Field(() => MailKindEnum) kind!: MailKind;
  @Field(() => String, { description: 'pt-BR, en or es: the person’s language, else the school’s.' }) locale!: string;
  @Field(() => String) subject!: string;
  @Field(() => String, { description: 'The plain-text part.' }) text!: string;
  @Field(() => String, { description: 'The HTML part.' }) html!: string;
  @Field(() => String, { description: 'The Message-ID header, the same on every attempt.' }) messageId!: string;
  @Field(() => GraphQLJSONObject, { description: 'The other headers it carries (List-Unsubscribe, List-Unsubscribe-Post, Auto-Submitted).' })
  headers!: Record<string, string>;
  @Field(() => MailStatusEnum) status!: MailStatus;
  @Field(() => Int, { description: 'SMTP attempts made.' }) attempts!: number;
  @Field(() => Date, { description: 'When the next attempt is due (queued mails).' }) nextAttemptAt!: Date;
  @Field(() => String, { nullable: true, description: 'The last SMTP refusal or error.' }) lastError!: string | null;
  @Field(() => Date, { nullable: true }) sentAt!: Date | null;
}

export const MailConnection = connectionType(Mail);

@ObjectType({ description: "A school's mail settings: the sender's name and reply-to, and the kinds it turned off." })
export class MailSettings {
  @Field(() => ID) schoolId!: number;
  @Field(() => String, { nullable: true, description: "The sender's name (the address is MAIL_FROM); null: the school's name." })
  senderName!: string | null;
  @Field(() => String, { nullable: true, description: 'Where replies go (Reply-To); null: none.' }) replyTo!: string | null;
  @Field(() => [MailKindEnum], { description: 'The kinds the school does not send (never an essential one).' }) disabledKinds!: MailKind[];
}

@ObjectType({ description: 'The person a one-click unsubscribe link named, now unsubscribed from the school’s non-essential mails.' })
export class MailUnsubscription {
  @Field(() => Boolean) unsubscribed!: boolean;
  @Field(() => String, { nullable: true, description: "The person's mail language (pt-BR, en, es): the confirmation page's." })
  locale!: string | null;
  @Field(() => String, { nullable: true, description: 'The school whose mails these are.' })
  schoolName!: string | null;
}

@ObjectType({
  description: 'What a one-click unsubscribe link names, read without unsubscribing (opening a link changes nothing: RFC 8058). An invalid or expired link is `valid: false` and names nobody.',
})
export class MailUnsubscribeLink extends MailUnsubscription {
  @Field(() => Boolean) valid!: boolean;
}
