import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

// Every field is nullable: required fields are checked by the resolvers, so a missing one is a
// UserError (422), not a GraphQL validation error.

/** Create and update take the same fields; `name` is required on create and may not be cleared. */
@InputType({ description: 'A course. name is required.' })
@RequiredFields('name')
export class CourseInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => Int, { nullable: true, description: '0 or more.' }) duration?: number | null;
  @Field(() => String, { nullable: true, description: 'Unique within the school (taken: 409); trimmed, blank means none.' }) code?: string | null;
  @Field(() => Boolean, { nullable: true }) ready?: boolean | null;
  @Field(() => [ID], {
    nullable: true,
    description: "The course's modules (modules of the school), in order; replaces the current list (repeated ids count once).",
  })
  courseModulesIds?: string[] | null;
}

@InputType({ description: 'A course module. name and description are required.' })
@RequiredFields('name', 'description')
export class CourseModuleInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
}

@InputType({ description: 'A lesson. title and type are required on create; title may not be cleared.' })
@RequiredFields('title', 'type')
export class LessonInput {
  @Field(() => String, { nullable: true }) title?: string | null;
  @Field(() => String, { nullable: true, description: 'The kind of lesson (free text, e.g. Video, Text, Exam).' }) type?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Defaults to true.' }) available?: boolean | null;
  @Field(() => ID, { nullable: true, description: 'A media of the school.' }) mediaId?: string | null;
  @Field(() => Int, { nullable: true, description: '0 or more.' }) minGrade?: number | null;
  @Field(() => Boolean, { nullable: true }) unlockCertificate?: boolean | null;
  @Field(() => Date, { nullable: true, description: 'Students see the lesson from this moment.' }) releaseAt?: Date | null;
  @Field(() => Int, { nullable: true, description: 'Days (0 or more) after the enrollment is activated until students see the lesson.' })
  releaseAfter?: number | null;
  @Field(() => ID, {
    nullable: true,
    description:
      'The module of the school holding the lesson. Optional (the spec body lacks it): a lesson without a module is a draft, outside every product and enrollment; null detaches it.',
  })
  courseModuleId?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Order within the module (0 or more). Omitted: after the last lesson of the module (also when the lesson moves to another module).',
  })
  position?: number | null;
}

/** The scope of a content read: the whole school, one school product, or one enrollment. */
@ArgsType()
export class ContentScopeArgs extends ConnectionArgs {
  @Field(() => ID, {
    nullable: true,
    description:
      "Only the content of this school product (its courses, directly or through its paths), in the product's order; 404 for a product of another school.",
  })
  schoolProductId?: string | null;

  @Field(() => ID, {
    nullable: true,
    description:
      "The content of the enrollment's product as its student sees it (lessons only once released); nothing unless the enrollment is active. A student sees only its own enrollments.",
  })
  enrollmentId?: string | null;
}

@ArgsType()
export class CoursesArgs extends ContentScopeArgs {}

@ArgsType()
export class CourseModulesArgs extends ContentScopeArgs {
  @Field(() => ID, { nullable: true, description: "Only the course's modules, in the course's order (the course must be in the scope: 404 otherwise)." })
  courseId?: string | null;
}

@ArgsType()
export class LessonsArgs extends ContentScopeArgs {
  @Field(() => ID, { nullable: true, description: "Only the module's lessons, in order (the module must be in the scope: 404 otherwise)." })
  courseModuleId?: string | null;
}
