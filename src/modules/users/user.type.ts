import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { userType } from './user.table.js';

export const UserTypeEnum = graphqlEnum('UserType', userType.enumValues, 'The kind of a person of a school.');

@ObjectType({ description: 'A person of a school: a student, a collaborator or an admin.' })
export class User {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => UserTypeEnum) type!: string;
  @Field(() => String) fullName!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { nullable: true }) document!: string | null;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}
