import 'reflect-metadata';
import { Field, ObjectType } from 'type-graphql';
import { Payload } from '../../graphql/mutation.js';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: 'A learning path: an ordered list of courses of the school.' })
export class Path extends SchoolRecord {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) imageUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'A custom identifier, unique within the school.' }) code!: string | null;
}

export const PathConnection = connectionType(Path);

export const PathPayload = Payload(Path, 'path');
