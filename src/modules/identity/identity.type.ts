import 'reflect-metadata';
import { Extensions, Field, ID, InputType, ObjectType } from 'type-graphql';
import { ApiTokenRole } from '../auth-tokens/api-token.type.js';
import { UserTypeEnum } from '../users/user.type.js';

@ObjectType({ description: 'The person a session signs in: shown to them alone, by the operation that opened it.' })
export class SessionUser {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => UserTypeEnum) type!: string;
  @Field(() => String) fullName!: string;
  @Field(() => String) email!: string;
}

@ObjectType({ description: 'A signed-in session: an access token for the person\'s role and a refresh token, each shown once.' })
export class Session {
  @Extensions({ rest: 'embed' })
  @Field(() => SessionUser) user!: SessionUser;
  @Field(() => ApiTokenRole, { description: 'The role the access token acts with (student, collaborator or admin).' }) role!: string;
  @Field(() => String, { description: 'The bearer token (Authorization: Bearer <token>), until accessTokenExpiresAt.' }) accessToken!: string;
  @Field(() => Date) accessTokenExpiresAt!: Date;
  @Field(() => String, { description: 'Exchanged once for new tokens (refreshToken); a second use revokes the session.' }) refreshToken!: string;
  @Field(() => Date) refreshTokenExpiresAt!: Date;
  @Field(() => String, { description: 'Always "Bearer".' }) tokenType!: string;
  @Field(() => String, {
    description: 'The access token again, under the name the Edools v1 clients read (`Authorization: Token token=<credentials>` works as Bearer does).',
  })
  credentials!: string;
}

@InputType({ description: "A person's e-mail and password, and their school (or the X-School-Id header, or the school's subdomain)." })
export class SignInInput {
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) password?: string | null;
  @Field(() => ID, { nullable: true, description: 'The school whose person signs in; else X-School-Id, else the host <subdomain>.' }) schoolId?: string | null;
}

@InputType({ description: 'The signed-in person\'s password change: the current one and the new one.' })
export class ChangePasswordInput {
  @Field(() => String, { nullable: true }) currentPassword?: string | null;
  @Field(() => String, { nullable: true, description: 'At least 8 characters, not a common one.' }) password?: string | null;
}

@InputType({ description: 'Asks for a reset link by e-mail (the answer is the same whether or not the e-mail is known).' })
export class PasswordResetRequestInput {
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => ID, { nullable: true, description: 'The school; else X-School-Id, else the host <subdomain>.' }) schoolId?: string | null;
}

@InputType({ description: 'Sets a new password with the token of a reset link.' })
export class ResetPasswordInput {
  @Field(() => String, { nullable: true, description: 'The reset_password_token of the link.' }) resetPasswordToken?: string | null;
  @Field(() => String, { nullable: true, description: 'At least 8 characters, not a common one.' }) password?: string | null;
}

@ObjectType({ description: 'What an act on a session or a password did.' })
export class IdentityAck {
  @Field(() => Boolean) done!: boolean;
  @Field(() => String) message!: string;
}
