import 'reflect-metadata';
import { ArgsType, Field, ID, InputType, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/pagination.js';
import {
  EnrollmentMaxAttendanceTypeEnum,
  EnrollmentStatusEnum,
  type EnrollmentStatusValue,
  type MaxAttendanceTypeValue,
} from './enrollment.type.js';
import { RequiredFields } from '../../graphql/required-fields.js';

/**
 * Create and update take the same fields (the spec's Enrollment body). Every field is nullable:
 * the resolver checks the required ones, so a missing one is a UserError (REST 422).
 */
@InputType()
@RequiredFields('registrationId', 'schoolProductId', 'maxAttendanceType')
export class EnrollmentInput {
  @Field(() => ID, { nullable: true, description: "Required. The student's registration in the school; the enrollment's student is its student." })
  registrationId?: string | null;
  @Field(() => ID, { nullable: true, description: 'Required.' }) schoolProductId?: string | null;
  @Field(() => EnrollmentMaxAttendanceTypeEnum, { nullable: true, description: 'Required.' })
  maxAttendanceType?: MaxAttendanceTypeValue | null;
  @Field(() => Int, { nullable: true, description: 'Required (and above 0) when maxAttendanceType is time or attempts.' })
  maxAttendanceLength?: number | null;
  @Field(() => EnrollmentStatusEnum, { nullable: true, description: 'pending when not given; active sets activatedAt to now unless given.' })
  status?: EnrollmentStatusValue | null;
  @Field(() => Date, { nullable: true, description: "Required unless unlimited. On create, with neither given: the product's access period (its duration, its date, else unlimited)." })
  availableUntil?: Date | null;
  @Field(() => Date, { nullable: true, description: 'On create: keeps an original time, and skips the callbacks (no events).' })
  createdAt?: Date | null;
  @Field(() => Date, { nullable: true }) activatedAt?: Date | null;
  @Field(() => Boolean, { nullable: true }) unlimited?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Unique within the school.' }) code?: string | null;
  @Field(() => Int, { nullable: true, description: 'Seconds spent. Accepted only from an app credential (forbidden otherwise).' })
  timeSpent?: number | null;
  @Field(() => [ID], { nullable: true, description: "Classes of the enrolled product's courses; replaces the enrollment's classes." })
  courseClassIds?: string[] | null;
}

@InputType()
@RequiredFields('studentId')
export class RegistrationInput {
  @Field(() => ID, { nullable: true, description: 'Required: a student of the school (one registration per student).' })
  studentId?: string | null;
}

@ArgsType()
export class EnrollmentsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: "The student's enrollments." }) studentId?: string | null;
  @Field(() => ID, { nullable: true, description: 'The enrollments in this course class.' }) courseClassId?: string | null;
  @Field(() => ID, { nullable: true, description: 'The enrollments in this school product.' }) schoolProductId?: string | null;
  @Field(() => EnrollmentStatusEnum, { nullable: true }) status?: EnrollmentStatusValue | null;
}

@ArgsType()
export class RegistrationsArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true }) studentId?: string | null;
}
