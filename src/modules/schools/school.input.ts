import 'reflect-metadata';
import { GraphQLEmailAddress, GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { ArgsType, Field, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { UserTypeEnum } from '../users/user.type.js';
import { SchoolEventEnum } from './school.type.js';
import type { SchoolEvent } from '../../auth/school-lifecycle.js';
import { RequiredFields } from '../../graphql/required-fields.js';

/** Writable school fields. All nullable in GraphQL: required ones are checked by the resolver so a
 * missing one is an invalid object (UserError / 422), as the spec's "errors" replies expect. */
@InputType()
abstract class SchoolFields {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) subdomain?: string | null;
  @Field(() => [String], { nullable: true }) domains?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Write-only (see School.crmToken).' }) crmToken?: string | null;
  @Field(() => String, { nullable: true }) adsAdvId?: string | null;
  @Field(() => String, { nullable: true }) adsPixId?: string | null;
  @Field(() => GraphQLEmailAddress, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => String, { nullable: true }) cnpj?: string | null;
  @Field(() => String, { nullable: true }) videoKey?: string | null;
  @Field(() => String, { nullable: true }) videoPlayerKey?: string | null;
  @Field(() => String, { nullable: true, description: 'Write-only (see School.videoAccessToken).' }) videoAccessToken?: string | null;
  @Field(() => String, { nullable: true }) videoProjectId?: string | null;
  @Field(() => String, { nullable: true }) termsOfUse?: string | null;
  @Field(() => String, { nullable: true }) socialLink1?: string | null;
  @Field(() => String, { nullable: true }) socialLink2?: string | null;
  @Field(() => String, { nullable: true }) socialLink3?: string | null;
  @Field(() => String, { nullable: true }) socialLink4?: string | null;
  @Field(() => String, { nullable: true }) socialLink5?: string | null;
  @Field(() => String, { nullable: true }) socialLink6?: string | null;
  @Field(() => String, { nullable: true }) socialLink7?: string | null;
  @Field(() => String, { nullable: true }) site?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) companyName?: string | null;
  @Field(() => String, { nullable: true }) seoTitle?: string | null;
  @Field(() => String, { nullable: true }) seoDescription?: string | null;
  @Field(() => String, { nullable: true }) logo?: string | null;
  @Field(() => String, { nullable: true, description: "The school's language for mails (pt-BR, en, es; another gives English); null: pt-BR." })
  locale?: string | null;
  @Field(() => String, { nullable: true, description: "The IANA time zone the school's days are counted in (reports): America/Sao_Paulo (the default), UTC, Europe/Lisbon." })
  timeZone?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => GraphQLJSON, { nullable: true }) metaAvailableLocales?: unknown;
}

@InputType()
@RequiredFields('name', 'subdomain')
export class CreateSchoolInput extends SchoolFields {}

@InputType()
@RequiredFields('name', 'subdomain')
export class UpdateSchoolInput extends SchoolFields {
  @Field(() => SchoolEventEnum, { nullable: true, description: 'Moves the school to another state (see SchoolStatus).' })
  event?: SchoolEvent | null;
}

@InputType({ description: 'One step to a working school: its organization, first admin, library and forum.' })
@RequiredFields('name', 'email', 'password')
export class SchoolWizardInput {
  @Field(() => String, { nullable: true, description: 'Names the school, its organization and admin; the subdomain is inferred from it.' })
  name?: string | null;
  @Field(() => GraphQLEmailAddress, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) password?: string | null;
}

@ArgsType()
export class SchoolsArgs extends ConnectionArgs {
  @Field(() => GraphQLEmailAddress, { nullable: true, description: 'With type: the schools where a user of that type has this e-mail.' })
  email?: string | null;
  @Field(() => UserTypeEnum, { nullable: true, description: 'Student or Collaborator; required with email.' })
  type?: 'Student' | 'Collaborator' | 'Admin' | null;
  @Field(() => String, { nullable: true, description: 'The school at this subdomain (any case), as a front-end finds its school.' })
  subdomain?: string | null;
}
