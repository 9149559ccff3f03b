import 'reflect-metadata';
import { Field, ID, ObjectType } from 'type-graphql';
import { UserTypeEnum } from './user.type.js';

@ObjectType({ description: 'A person invited by e-mail to set their password: a new student, or a person of the school invited again.' })
export class Invitation {
  @Field(() => ID, { description: "The invited person's id." }) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => UserTypeEnum) type!: string;
  @Field(() => String) fullName!: string;
  @Field(() => String) email!: string;
  @Field(() => Boolean, { description: 'The person was created by this invitation (false: already of the school, invited again).' }) created!: boolean;
  @Field(() => ID, { nullable: true, description: 'The invitation mail queued (GET /mails/:id).' }) mailId!: number | null;
}
