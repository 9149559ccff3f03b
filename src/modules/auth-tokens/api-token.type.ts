import 'reflect-metadata';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { tokenRole } from '../../auth/api-token.table.js';

export const ApiTokenRole = graphqlEnum('ApiTokenRole', tokenRole.enumValues, 'The role a credential acts with (see "Who may do what" in the README).');

@ObjectType({ description: 'An API credential. The token itself is shown once, by the mutation that creates it; only its digest is kept.' })
export class ApiToken {
  @Field(() => ID) id!: number;
  @Field(() => ApiTokenRole) role!: string;
  @Field(() => ID, { nullable: true, description: 'None for a platform credential, which spans schools.' }) schoolId!: number | null;
  @Field(() => ID, { nullable: true, description: 'The person it acts as (a student token always has one).' }) userId!: number | null;
  @Field(() => String, { nullable: true }) label!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true }) revokedAt!: Date | null;
}

@InputType({ description: 'A new credential: a platform one has no school; every other role needs one, and a student token a student.' })
export class ApiTokenInput {
  @Field(() => ApiTokenRole) role!: string;
  @Field(() => ID, { nullable: true }) schoolId?: number | null;
  @Field(() => ID, { nullable: true, description: "A person of the school whose type matches the role (an admin's, a collaborator's, a student's)." })
  userId?: number | null;
  @Field(() => String, { nullable: true, description: 'Where it is used (e.g. "cli", "crm"), for whoever revokes it later.' }) label?: string | null;
}
