import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { Payload } from '../../graphql/mutation.js';
import { connectionType } from '../../graphql/pagination.js';
import { availableTimeType, availableTimeUnit, certificateRule, productMaxAttendanceType } from './school-product.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

export const AvailableTimeTypeEnum = graphqlEnum('AvailableTimeType', availableTimeType.enumValues, 'time: for a length of time after enrollment; date: until expireDate.');
export const AvailableTimeUnitEnum = graphqlEnum('AvailableTimeUnit', availableTimeUnit.enumValues);
export const ProductMaxAttendanceTypeEnum = graphqlEnum('ProductMaxAttendanceType', productMaxAttendanceType.enumValues);
export const CertificateRuleEnum = graphqlEnum(
  'CertificateRule',
  certificateRule.enumValues,
  "What earns a product's certificate, at certificationMinProgress: completion (of the whole product, drip-locked lessons included; the default) or released_progress (progress of what is released so far).",
);

@Timestamped()
@ObjectType({ description: 'Something a school sells or enrolls students in: courses and learning paths with their terms.' })
export class SchoolProduct extends SchoolRecord {
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { nullable: true }) subtitle!: string | null;
  @Field(() => String, { nullable: true }) logo!: string | null;
  @Field(() => String, { nullable: true }) videoUrl!: string | null;
  @Field(() => String, { nullable: true }) videoTitle!: string | null;
  @Field(() => String, { nullable: true }) videoDescription!: string | null;
  @Field(() => Boolean) published!: boolean;
  @Field(() => Boolean) hidden!: boolean;
  @Field(() => Boolean) restricted!: boolean;
  @Field(() => Boolean) certification!: boolean;
  @Field(() => Boolean) classesAutoGeneration!: boolean;
  @Field(() => Int, { nullable: true }) certificationMinProgress!: number | null;
  @Field(() => CertificateRuleEnum, { description: 'Which figure of an enrollment earns the certificate: completion (default) or released_progress.' })
  certificateRule!: string;
  @Field(() => String, { nullable: true }) metaTitle!: string | null;
  @Field(() => String, { nullable: true }) metaDescription!: string | null;
  @Field(() => String, { nullable: true }) metaKeys!: string | null;
  @Field(() => AvailableTimeTypeEnum, { nullable: true }) availableTimeType!: string | null;
  @Field(() => Int, { nullable: true }) availableTimeLength!: number | null;
  @Field(() => AvailableTimeUnitEnum, { nullable: true }) availableTimeUnit!: string | null;
  @Field(() => Date, { nullable: true }) expireDate!: Date | null;
  @Field(() => ID, { nullable: true }) libraryResourceId!: number | null;
  @Field(() => ProductMaxAttendanceTypeEnum, { nullable: true }) maxAttendanceType!: string | null;
  @Field(() => Int, { nullable: true }) maxAttendanceLength!: number | null;
  @Field(() => String, { nullable: true }) allowedEmails!: string | null;
}

@Timestamped()
@ObjectType({ description: 'A topic of a school product: what a student will learn.' })
export class SchoolProductTopic extends SchoolRecord {
  @Field(() => ID) schoolProductId!: number;
  @Field(() => String) title!: string;
  @Field(() => String) description!: string;
}

export const SchoolProductConnection = connectionType(SchoolProduct);

export const SchoolProductPayload = Payload(SchoolProduct, 'schoolProduct');

export const SchoolProductTopicConnection = connectionType(SchoolProductTopic);
