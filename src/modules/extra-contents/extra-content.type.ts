import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { extraContentResourceType } from './extra-content.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

export const ExtraContentResourceTypeEnum = graphqlEnum(
  'ExtraContentResourceType',
  extraContentResourceType.enumValues,
  'What an extra content is attached to.',
);

@Timestamped()
@ObjectType({ description: 'A media attached to a lesson, a course or a school product: downloadable material and the like.' })
export class ExtraContent extends SchoolRecord {
  @Field(() => ExtraContentResourceTypeEnum, { description: 'Lesson, Course or SchoolProduct.' }) resourceType!: string;
  @Field(() => ID, { description: 'The lesson, course or school product (by resourceType) of the school.' }) resourceId!: number;
  @Field(() => ID) mediaId!: number;
  @Field(() => Int, { description: 'Position among the extra contents of the resource (ascending, then id).' }) order!: number;
  @Field(() => Boolean, { description: 'Whether students may download the media.' }) downloadable!: boolean;
  @Field(() => Boolean, { description: 'Only available extra contents are shown to students.' }) available!: boolean;
  @Field(() => String, { nullable: true }) title!: string | null;
}

export const ExtraContentConnection = connectionType(ExtraContent);
