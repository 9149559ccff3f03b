import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A category of school products.' })
export class Category {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) slug!: string | null;
  @Field(() => ID, { nullable: true }) parentId!: number | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}
