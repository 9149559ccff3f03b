import 'reflect-metadata';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { connectionType } from '../../graphql/pagination.js';
import { Timestamped, type Timestamps } from '../../graphql/record.js';
import { schoolStatus } from '../../db/school.table.js';
import { schoolEvents } from '../../auth/school-lifecycle.js';

export const SchoolStatusEnum = graphqlEnum('SchoolStatus', schoolStatus.enumValues, 'Where a school is in its lifecycle.');
export const SchoolEventEnum = graphqlEnum('SchoolEvent', schoolEvents, 'Events that move a school between states.');

@Timestamped()
@ObjectType({ description: 'The legal entity behind one or more schools.' })
export class Organization implements Timestamps {
  @Field(() => ID) id!: number;
  @Field(() => String) name!: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

const WRITE_ONLY_TOKEN =
  'Write-only: stored encrypted and never returned. Reads show it masked: **** and its last 4 characters when it has at least 12, ' +
  'else ****; null when there is none. On update, a new value replaces it, null or "" clears it, this mask sent back unchanged keeps it.';

@Timestamped()
@ObjectType({ description: 'An online school: the tenant that owns every other record.' })
export class School implements Timestamps {
  @Field(() => ID) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) subdomain!: string;
  @Field(() => SchoolStatusEnum) status!: string;
  @Field(() => ID, { nullable: true }) organizationId!: number | null;
  @Field(() => String, { nullable: true, description: WRITE_ONLY_TOKEN }) crmToken!: string | null;
  @Field(() => String, { nullable: true }) adsAdvId!: string | null;
  @Field(() => String, { nullable: true }) adsPixId!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => String, { nullable: true }) cnpj!: string | null;
  @Field(() => String, { nullable: true }) videoKey!: string | null;
  @Field(() => String, { nullable: true }) videoPlayerKey!: string | null;
  @Field(() => String, { nullable: true, description: WRITE_ONLY_TOKEN }) videoAccessToken!: string | null;
  @Field(() => String, { nullable: true }) videoProjectId!: string | null;
  @Field(() => String, { nullable: true }) termsOfUse!: string | null;
  @Field(() => String, { nullable: true }) socialLink1!: string | null;
  @Field(() => String, { nullable: true }) socialLink2!: string | null;
  @Field(() => String, { nullable: true }) socialLink3!: string | null;
  @Field(() => String, { nullable: true }) socialLink4!: string | null;
  @Field(() => String, { nullable: true }) socialLink5!: string | null;
  @Field(() => String, { nullable: true }) socialLink6!: string | null;
  @Field(() => String, { nullable: true }) socialLink7!: string | null;
  @Field(() => String, { nullable: true }) site!: string | null;
  @Field(() => String, { nullable: true }) address!: string | null;
  @Field(() => String, { nullable: true }) companyName!: string | null;
  @Field(() => String, { nullable: true }) seoTitle!: string | null;
  @Field(() => String, { nullable: true }) seoDescription!: string | null;
  @Field(() => String, { nullable: true }) logo!: string | null;
  @Field(() => String, { nullable: true, description: "The school's language for mails; null: pt-BR." }) locale!: string | null;
  @Field(() => String, { description: "The IANA time zone the school's days are counted in (reports); default America/Sao_Paulo." }) timeZone!: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata!: Record<string, unknown> | null;
  @Field(() => GraphQLJSON, { nullable: true }) metaAvailableLocales!: unknown;
  declare createdAt: Date;
  declare updatedAt: Date;
}

export const SchoolConnection = connectionType(School);
