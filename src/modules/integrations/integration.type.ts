import 'reflect-metadata';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({
  description:
    'An integration of a school: an owner in the school, the events it is triggered by (metadata) and its configuration ' +
    '(metaconfig, write-only: replies show its keys with masked values).',
})
export class Integration extends SchoolRecord {
  @Field(() => String, { description: 'School, SchoolProduct, Course, Student or Collaborator.' }) ownerType!: string;
  @Field(() => ID) ownerId!: number;
  @Field(() => String, { nullable: true, description: 'The kind of integration (free text, e.g. webhook, crm).' }) type!: string | null;
  @Field(() => Boolean) active!: boolean;
  @Field(() => GraphQLJSONObject, { nullable: true, description: '{"events": [...]}: the event names (see EVENT_NAMES) that trigger it.' })
  metadata!: Record<string, unknown> | null;
}

@ObjectType({ description: 'A suggestion of a new integration sent to the platform.' })
export class IntegrationSuggestion {
  @Field(() => ID) id!: number;
  @Field(() => ID, { nullable: true, description: 'The school of the credential that sent it (none for a platform credential).' })
  schoolId!: number | null;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => Date) createdAt!: Date;
}

export const IntegrationConnection = connectionType(Integration);
export const IntegrationSuggestionConnection = connectionType(IntegrationSuggestion);
