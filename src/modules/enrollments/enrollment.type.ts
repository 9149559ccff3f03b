import 'reflect-metadata';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';
import { domainErrorType, type UserError } from '../../graphql/errors.js';
import { connectionType } from '../../graphql/pagination.js';
import { enrollmentMaxAttendanceType, enrollmentStatus } from './enrollment.table.js';
import { SchoolRecord, Timestamped } from '../../graphql/record.js';

export const EnrollmentStatusEnum = graphqlEnum('EnrollmentStatus', enrollmentStatus.enumValues, 'Set directly by create and update.');
export const EnrollmentMaxAttendanceTypeEnum = graphqlEnum(
  'EnrollmentMaxAttendanceType',
  enrollmentMaxAttendanceType.enumValues,
  'indeterminate: no limit; time and attempts: limited by maxAttendanceLength.',
);
export type EnrollmentStatusValue = (typeof enrollmentStatus.enumValues)[number];
export type MaxAttendanceTypeValue = (typeof enrollmentMaxAttendanceType.enumValues)[number];

@Timestamped()
@ObjectType({ description: "A student's registration in a school; the student's enrollments hang from it." })
export class Registration extends SchoolRecord {
  @Field(() => ID) studentId!: number;
  @Field(() => String) status!: string;
}

@Timestamped()
@ObjectType({ description: 'A student enrolled in a school product.' })
export class Enrollment extends SchoolRecord {
  @Field(() => ID) registrationId!: number;
  @Field(() => ID, { description: "The registration's student." }) studentId!: number;
  @Field(() => ID) schoolProductId!: number;
  @Field(() => EnrollmentMaxAttendanceTypeEnum) maxAttendanceType!: string;
  @Field(() => Int, { nullable: true, description: 'With maxAttendanceType time or attempts: how much.' })
  maxAttendanceLength!: number | null;
  @Field(() => EnrollmentStatusEnum) status!: string;
  @Field(() => Date, { nullable: true, description: 'When access ends; required unless unlimited.' }) availableUntil!: Date | null;
  @Field(() => Date, { nullable: true }) activatedAt!: Date | null;
  @Field(() => Boolean) unlimited!: boolean;
  @Field(() => String, { nullable: true, description: 'Unique within the school; look-ups by code use it.' }) code!: string | null;
  @Field(() => Int, { description: 'Seconds spent; written only with an app credential.' }) timeSpent!: number;
  @Field(() => ID, { nullable: true, description: 'The paid order that made it (a full refund of the order cancels it).' }) orderId!: number | null;
}

@ObjectType({ description: "Whether a student's enrollment is active: its status is active and its access has not ended." })
export class EnrollmentStatusCheck {
  @Field(() => ID) id!: number;
  @Field(() => ID) studentId!: number;
  @Field(() => EnrollmentStatusEnum) status!: string;
  @Field(() => Boolean) active!: boolean;
  @Field(() => Boolean) unlimited!: boolean;
  @Field(() => Date, { nullable: true }) availableUntil!: Date | null;
}

export const EnrollmentConnection = connectionType(Enrollment);
export const RegistrationConnection = connectionType(Registration);

@ObjectType({ description: 'The enrollments created together, or why none was.' })
export class EnrollmentsPayload {
  @Field(() => [Enrollment], { nullable: true }) enrollments!: unknown[] | null;
  @Field(() => [domainErrorType('Enrollment')]) errors!: UserError[];
}
