import 'reflect-metadata';
import { Extensions, Field, ID, ObjectType } from 'type-graphql';
import { UserTypeEnum, type UserKind } from '../users/user.type.js';

@ObjectType({
  description:
    "A school's single sign-on (OpenID Connect and JWT SSO), set by its admin. Secrets are write-only: stored encrypted, never " +
    'returned; `hasOidcClientSecret` / `hasJwtSecret` and the masked hints say whether one is set.',
})
export class SsoSettings {
  @Field(() => ID) schoolId!: number;
  @Field(() => String, { nullable: true, description: 'The OpenID provider: its issuer URL (https), whose discovery document the service reads.' })
  oidcIssuer!: string | null;
  @Field(() => String, { nullable: true, description: 'The client id registered at the provider (the ID token\'s audience).' })
  oidcClientId!: string | null;
  @Field(() => Boolean, { description: 'Whether a client secret is stored (it is never returned).' })
  hasOidcClientSecret!: boolean;
  @Field(() => String, { nullable: true, description: 'The client secret masked: **** and its last 4 characters when it has at least 12.' })
  oidcClientSecretHint!: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Where the provider sends the browser back (registered at the provider); null: the service's GET /users/sso/oidc/callback.",
  })
  oidcRedirectUri!: string | null;
  @Field(() => Boolean, { description: 'Whether OpenID Connect sign-in is configured (issuer, client id and secret set).' })
  oidcEnabled!: boolean;
  @Field(() => Boolean, { description: "Whether the school's site may sign people in with an HS256 JWT (POST /users/sso/jwt)." })
  jwtEnabled!: boolean;
  @Field(() => Boolean, { description: 'Whether a JWT shared secret is stored (it is never returned).' })
  hasJwtSecret!: boolean;
  @Field(() => String, { nullable: true, description: 'The JWT secret masked.' })
  jwtSecretHint!: string | null;
  @Field(() => String, { description: "The audience a JWT must name (`aud`): the one set, else the service's public URL (PUBLIC_URL)." })
  jwtAudience!: string;
  @Field(() => String, { nullable: true, description: 'The issuer a JWT must name (`iss`), when set.' })
  jwtIssuer!: string | null;
  @Field(() => [String], { description: 'The e-mail domains that may sign in through SSO; empty: any.' })
  allowedEmailDomains!: string[];
  @Field(() => Boolean, { description: 'Whether a verified e-mail no person of the school has becomes a new student at sign-in.' })
  createMissingStudents!: boolean;
}

@ObjectType({ description: 'The person signed in, as the one signing in reads it.' })
export class SignedInUser {
  @Field(() => ID) id!: number;
  @Field(() => ID) schoolId!: number;
  @Field(() => UserTypeEnum) type!: UserKind;
  @Field(() => String) fullName!: string;
  @Field(() => String) email!: string;
}

@ObjectType({ description: 'A single sign-on that succeeded: the credential of the person and who they are.' })
export class SsoSignIn {
  @Field(() => String, { description: "The person's access token (Authorization: Bearer <token>) for their role, until accessTokenExpiresAt." })
  token!: string;
  @Field(() => Date) accessTokenExpiresAt!: Date;
  @Field(() => String, { description: 'Exchanged once for new tokens (refreshToken); a second use revokes the session.' }) refreshToken!: string;
  @Field(() => Date) refreshTokenExpiresAt!: Date;
  @Extensions({ rest: 'embed' })
  @Field(() => SignedInUser)
  user!: SignedInUser;
  @Field(() => String, { nullable: true, description: 'The return_to given when the OpenID sign-in started, for the client to go on to.' })
  returnTo!: string | null;
  @Field(() => Boolean, { description: 'Whether the person was created by this sign-in (createMissingStudents).' })
  created!: boolean;
}

@ObjectType({ description: 'An OpenID Connect sign-in started: send the browser to authorizationUrl.' })
export class OidcAuthorization {
  @Field(() => String, { description: "The provider's authorization URL (code flow with PKCE, state and nonce)." })
  authorizationUrl!: string;
  @Field(() => String, {
    description: 'The state of this sign-in: a client keeps it (session storage) and checks the callback carries the same before completing.',
  })
  state!: string;
  @Field(() => Date, { description: 'Until when the sign-in may be completed.' })
  expiresAt!: Date;
}
