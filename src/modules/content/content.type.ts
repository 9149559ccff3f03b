import 'reflect-metadata';
import { Field, ObjectType } from 'type-graphql';
import { SchoolRecord } from '../../graphql/record.js';

/**
 * What a course and a learning path open with, after `id` and `schoolId`: a name, a description and
 * an image (the columns of `namedContentColumns`). The class extending it takes `@Timestamped()`.
 */
@ObjectType()
export abstract class NamedContent extends SchoolRecord {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) imageUrl!: string | null;
}
