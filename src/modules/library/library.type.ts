import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: "A school's content library: resources, images and host credentials." })
export class Library {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => String) name!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}
