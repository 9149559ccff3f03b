import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { AvailableTimeTypeEnum, AvailableTimeUnitEnum, CertificateRuleEnum, ProductMaxAttendanceTypeEnum } from './school-product.type.js';
import { RequiredFields } from '../../graphql/required-fields.js';

/** Create and update take the same fields; `title` is required on create and may not be cleared. */
@InputType()
@RequiredFields('title')
export class SchoolProductInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) subtitle?: string | null;
  @Field(() => String, { nullable: true }) logo?: string | null;
  @Field(() => String, { nullable: true }) videoUrl?: string | null;
  @Field(() => String, { nullable: true }) videoTitle?: string | null;
  @Field(() => String, { nullable: true }) videoDescription?: string | null;
  @Field(() => Boolean, { nullable: true }) published?: boolean | null;
  @Field(() => Boolean, { nullable: true }) hidden?: boolean | null;
  @Field(() => Boolean, { nullable: true }) restricted?: boolean | null;
  @Field(() => Boolean, { nullable: true }) certification?: boolean | null;
  @Field(() => Boolean, { nullable: true }) classesAutoGeneration?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Percent of progress (0..100) that earns the certificate.' })
  certificationMinProgress?: number | null;
  @Field(() => CertificateRuleEnum, {
    nullable: true,
    description: "Which figure reaches certificationMinProgress to earn the certificate: completion of the whole product (the default) or released_progress (what is released so far).",
  })
  certificateRule?: 'completion' | 'released_progress' | null;
  @Field(() => String, { nullable: true }) metaTitle?: string | null;
  @Field(() => String, { nullable: true }) metaDescription?: string | null;
  @Field(() => String, { nullable: true }) metaKeys?: string | null;
  @Field(() => AvailableTimeTypeEnum, { nullable: true }) availableTimeType?: 'time' | 'date' | null;
  @Field(() => Int, { nullable: true, description: 'Required when availableTimeType is time.' }) availableTimeLength?: number | null;
  @Field(() => AvailableTimeUnitEnum, { nullable: true, description: 'Required when availableTimeType is time.' })
  availableTimeUnit?: 'days' | 'weeks' | 'months' | 'years' | null;
  @Field(() => Date, { nullable: true, description: 'Required when availableTimeType is date.' }) expireDate?: Date | null;
  @Field(() => ID, { nullable: true, description: 'Required when published.' }) libraryResourceId?: string | null;
  @Field(() => ProductMaxAttendanceTypeEnum, { nullable: true }) maxAttendanceType?: 'time' | 'attempts' | null;
  @Field(() => Int, { nullable: true, description: 'Required when maxAttendanceType is given.' }) maxAttendanceLength?: number | null;
  @Field(() => String, { nullable: true }) allowedEmails?: string | null;
  @Field(() => [ID], { nullable: true, description: 'Collaborators of the school who teach its classes.' }) classTeacherIds?: string[] | null;
  @Field(() => [ID], { nullable: true }) categoryIds?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Media of the gallery, in order.' }) galleryMediaIds?: string[] | null;
  @Field(() => [ID!], { nullable: true, description: "Courses of the school, in the product's order; replaces the whole list (empty: none)." })
  courseIds?: string[] | null;
  @Field(() => [ID!], { nullable: true, description: "Learning paths of the school, in the product's order; replaces the whole list (empty: none)." })
  pathIds?: string[] | null;
}

@InputType()
@RequiredFields('title', 'description')
export class SchoolProductTopicInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => ID, { nullable: true, description: 'On create, the product in the path or argument wins.' }) schoolProductId?: string | null;
}

@ArgsType()
export class SchoolProductsArgs extends ConnectionArgs {
  @Field(() => Boolean, { nullable: true }) published?: boolean | null;
  @Field(() => ID, { nullable: true, description: "The school's id as a path names it (`/schools/:id/products`): the caller's school, else 404." })
  schoolId?: string | null;
}
