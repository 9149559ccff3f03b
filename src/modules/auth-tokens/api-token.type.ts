import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { ConnectionArgs, connectionType } from '../../graphql/pagination.js';
import { tokenRole } from '../../auth/api-token.table.js';

export const ApiTokenRole = graphqlEnum('ApiTokenRole', tokenRole.enumValues, 'The role a credential acts with (see "Who may do what" in the README).');

@ObjectType({ description: 'An API credential. The token itself is shown once, by the mutation that creates it; only its digest is kept.' })
export class ApiToken {
  @Field(() => ID) id!: number;
  @Field(() => ApiTokenRole) role!: string;
  @Field(() => ID, { nullable: true, description: 'None for a platform credential, which spans schools.' }) schoolId!: number | null;
  @Field(() => ID, { nullable: true, description: 'The person it acts as (a student token always has one).' }) userId!: number | null;
  @Field(() => String, { nullable: true, description: '"session" for the access token of a sign-in; "wizard", "seed", "cli"... for the others.' }) label!: string | null;
  @Field(() => ID, { nullable: true, description: 'The signed-in session that issued it (an access token), if any.' }) sessionId!: number | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was last used, to about a minute (TOKEN_LAST_USED_SECONDS).' }) lastUsedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'Past it the token answers 401 token_expired; none: until revoked.' }) expiresAt!: Date | null;
  @Field(() => Date, { nullable: true }) revokedAt!: Date | null;
}

export const ApiTokenConnection = connectionType(ApiToken);

@ArgsType()
export class ApiTokensArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Only the tokens acting as this person.' }) userId?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Revoked and expired tokens too (default: only those that work).' }) includeInactive?: boolean | null;
}

@InputType({ description: "A new credential: a platform one has no school; every other role needs one (an admin's own by default), and a student token a student." })
export class ApiTokenInput {
  @Field(() => ApiTokenRole) role!: string;
  @Field(() => ID, { nullable: true, description: "The platform names it; an admin's token is of its own school (another's is not found)." }) schoolId?: number | null;
  @Field(() => ID, { nullable: true, description: "A person of the school whose type matches the role (an admin's, a collaborator's, a student's)." })
  userId?: number | null;
  @Field(() => String, { nullable: true, description: 'Where it is used (e.g. "cli", "crm"), for whoever revokes it later.' }) label?: string | null;
  @Field(() => Date, { nullable: true, description: 'When it stops working (a future time); none: until revoked.' }) expiresAt?: Date | null;
}
