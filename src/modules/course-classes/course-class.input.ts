import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';

/**
 * Create and update take the same fields, all optional. The spec lists `main` on create only; an
 * update accepts it too (a client moving the main class should not need to delete and re-create).
 */
@InputType({ description: 'The fields of a course class, all optional.' })
export class CourseClassInput {
  @Field(() => Date, { nullable: true }) startAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Must be after startAt when both are set.' }) endAt?: Date | null;
  @Field(() => String, { nullable: true, description: 'Unique within the school (taken: 409); blank means none.' }) code?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'true makes this the main class of its course and unsets the previous main class (in the same transaction); null counts as false.',
  })
  main?: boolean | null;
}

@ArgsType()
export class CourseClassesArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Only the classes of this course (404 for a course of another school).' })
  courseId?: string | null;
  @Field(() => ID, { nullable: true, description: "Only the classes of this school product's courses, directly or through its paths (404 for a product of another school)." })
  schoolProductId?: string | null;
}
