import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { connectionType } from '../../graphql/pagination.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

@Timestamped()
@ObjectType({ description: 'A category of school products; categories may nest (parent).' })
export class Category extends SchoolRecord {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true, description: 'Unique in the school when given.' }) slug!: string | null;
  @Field(() => ID, { nullable: true }) parentId!: number | null;
}

export const CategoryConnection = connectionType(Category);
