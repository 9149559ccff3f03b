import 'reflect-metadata';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

@InputType({ description: 'Create and update take the same fields; ownerType and ownerId are required on create.' })
@RequiredFields('ownerType', 'ownerId')
export class IntegrationInput {
  @Field(() => String, {
    nullable: true,
    description: 'School, SchoolProduct, Course, Student or Collaborator (school_product and the like are read too).',
  })
  ownerType?: string | null;
  @Field(() => ID, { nullable: true, description: 'An object of that type in the school (for School: the school itself).' }) ownerId?: string | null;
  @Field(() => GraphQLJSON, {
    nullable: true,
    description:
      'The events to trigger: {"events": ["enrollment.created", ...]}, names among the events the service emits; ' +
      'a bare list of names is read as {"events": [...]}. Other keys are refused.',
  })
  metadata?: unknown;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      'Configuration, write-only: stored encrypted, shown as its keys with masked values. On update, the given keys ' +
      'are merged in: a key set to null is removed, a masked value sent back unchanged keeps the stored one; null clears it all. ' +
      'A `url` is where webhooks go: an http(s) URL of a public address, refused when saved otherwise (and checked again at each delivery).',
  })
  metaconfig?: Record<string, unknown> | null;
  @Field(() => Boolean, { nullable: true, description: 'Defaults to true.' }) active?: boolean | null;
  @Field(() => String, { nullable: true }) type?: string | null;
}

@ArgsType()
export class IntegrationsArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true }) ownerType?: string | null;
  @Field(() => ID, { nullable: true }) ownerId?: string | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
}

@InputType({ description: 'name is required; url, when given, is an http(s) address.' })
@RequiredFields('name')
export class IntegrationSuggestionInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) url?: string | null;
}
