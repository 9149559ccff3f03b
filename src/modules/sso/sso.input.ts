import 'reflect-metadata';
import { Field, InputType } from 'type-graphql';

@InputType({
  description:
    'Every field optional: what is not sent is kept; null or "" clears. Secrets are write-only: sending the masked hint back keeps the stored one.',
})
export class SsoSettingsInput {
  @Field(() => String, { nullable: true }) oidcIssuer?: string | null;
  @Field(() => String, { nullable: true }) oidcClientId?: string | null;
  @Field(() => String, { nullable: true, description: 'Write-only.' }) oidcClientSecret?: string | null;
  @Field(() => String, { nullable: true }) oidcRedirectUri?: string | null;
  @Field(() => Boolean, { nullable: true }) jwtEnabled?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Write-only; at least 32 characters (HS256 needs a 256-bit key).' }) jwtSecret?: string | null;
  @Field(() => String, { nullable: true }) jwtAudience?: string | null;
  @Field(() => String, { nullable: true }) jwtIssuer?: string | null;
  @Field(() => [String], { nullable: true }) allowedEmailDomains?: string[] | null;
  @Field(() => Boolean, { nullable: true }) createMissingStudents?: boolean | null;
}
