import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: "A school's forum, holding sections of questions." })
export class Forum {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) title!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}
