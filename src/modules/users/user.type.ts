import 'reflect-metadata';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { GraphQLEmailAddress } from 'graphql-scalars';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { userType } from './user.table.js';
import { RequiredFields } from '../../graphql/required-fields.js';

export const UserTypeEnum = graphqlEnum('UserType', userType.enumValues, 'The kind of a person of a school.');
export type UserKind = (typeof userType.enumValues)[number];

/** The fields every kind of person shows; Student, Collaborator and Admin are this shape under their own names. */
function personType(kind: UserKind, description: string) {
  @ObjectType(kind, { description })
  class Person {
    @Field(() => ID) id!: number;
    @Field(() => ID) schoolId!: number;
    @Field(() => String) fullName!: string;
    // Personal fields: staff and the person itself read them, others read null (user.access.ts).
    @Field(() => String, { nullable: true, description: 'Shown to staff and to the person only.' }) email!: string;
    @Field(() => String, { nullable: true, description: 'Shown to staff and to the person only.' }) document!: string | null;
    @Field(() => String, { nullable: true, description: 'Shown to staff and to the person only.' }) phone!: string | null;
    @Field(() => String, { nullable: true, description: "The person's language (pt-BR, en, es; another gives English) for mails; null: the school's." })
    locale!: string | null;
    @Field(() => Date) createdAt!: Date;
    @Field(() => Date) updatedAt!: Date;
  }
  return { Type: Person, ConnectionType: connectionType(Person, kind) };
}

export const StudentTypes = personType('Student', 'A student of a school.');
export const CollaboratorTypes = personType('Collaborator', 'A teacher or staff member of a school.');
export const AdminTypes = personType('Admin', 'An administrator of a school.');

@InputType({ description: 'Create takes fullName and email (unique within the school); update any of them.' })
@RequiredFields('fullName', 'email')
export class PersonInput {
  @Field(() => String, { nullable: true }) fullName?: string | null;
  @Field(() => GraphQLEmailAddress, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true, description: 'At least 8 characters; stored as a hash. Set only by the person or by a manager (platform, admin).' }) password?: string | null;
  @Field(() => String, { nullable: true }) document?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true, description: 'A language tag (pt-BR, en, es, ...); null: the school’s.' }) locale?: string | null;
}
