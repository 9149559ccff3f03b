import 'reflect-metadata';
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import { RequiredFields } from '../../graphql/required-fields.js';

/**
 * An update changes the name and the description only, as the spec lists. Other fields a REST body
 * carries (image_url, code, course_ids, ids, timestamps) are not writable here and are ignored, as
 * Rails' strong parameters do; the courses change through addCourseToPath / removeCourseFromPath.
 */
@InputType({ description: 'Changes to a learning path: name and description (neither may be cleared).' })
@RequiredFields('name', 'description')
export class UpdatePathInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
}

/**
 * The update's fields and the path's others. Every field nullable: `name` and `description` are checked by
 * the resolver, so a missing one is a UserError (422).
 */
@InputType({ description: 'A new learning path. name and description are required.' })
@RequiredFields('name', 'description')
export class CreatePathInput extends UpdatePathInput {
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => String, { nullable: true, description: 'Unique within the school (taken: 409); blank means none.' }) code?: string | null;
  @Field(() => [ID], { nullable: true, description: 'Courses of the school, in the order of the path (repeated ids count once).' })
  courseIds?: string[] | null;
}

/** The REST body of add_course / remove_course: `{"path": {"course_id": 1}}` (or `{"course_id": 1}`, merged in). */
@InputType({ description: 'The course to add to or remove from a path (the REST body of add_course / remove_course).' })
export class PathCourseInput {
  @Field(() => ID, { nullable: true }) courseId?: string | null;
}

@ArgsType()
export class PathsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "Only the product's paths (404 for a product of another school)." })
  schoolProductId?: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "Only the paths of the enrollment's product; none unless the enrollment is active. A student sees only its own enrollments.",
  })
  enrollmentId?: string | null;
}
