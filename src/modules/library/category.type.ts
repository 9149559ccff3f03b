import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/pagination.js';

@ObjectType({ description: 'A category of school products; categories may nest (parent).' })
export class Category {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true, description: 'Unique in the school when given.' }) slug!: string | null;
  @Field(() => ID, { nullable: true }) parentId!: number | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType()
export class CategoryConnection extends Connection(Category) {}
