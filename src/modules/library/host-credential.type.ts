import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({
  description:
    "Credentials of a media host for a library: the host, its project ids (pids) and an access token. The token is write-only: " +
    'it is stored encrypted (the service presents it to the host) and never returned; replies show only accessTokenHint. ' +
    'Only platform and admin credentials may read or write host credentials.',
})
export class HostCredential extends SchoolRecord {
  @Field(() => ID) libraryId!: number;
  @Field(() => String, { description: 'The media host (unique in a library, case-insensitively).' }) host!: string;
  @Field(() => String, { nullable: true, description: 'Project ids at the host.' }) pids!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The access token masked: **** and its last 4 characters when it has at least 12, else ****; null when there is no token.',
  })
  accessTokenHint!: string | null;
}

export const HostCredentialConnection = connectionType(HostCredential);
