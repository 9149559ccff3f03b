import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { Payload } from '../../graphql/mutation.js';
import { Connection } from '../../graphql/pagination.js';

@ObjectType({ description: 'A learning path: an ordered list of courses of the school.' })
export class Path {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) imageUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'A custom identifier, unique within the school.' }) code!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType()
export class PathConnection extends Connection(Path) {}

export const PathPayload = Payload(Path, 'path');
