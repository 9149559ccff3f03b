import 'reflect-metadata';
import { GraphQLSafeInt } from 'graphql-scalars';
import { Extensions, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { graphqlEnum } from '../../graphql/enums.js';

export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];
export const ReportIntervalEnum = graphqlEnum('ReportInterval', REPORT_INTERVALS, "A report's buckets: days, weeks (from Monday) or months, in the school's time zone.");

const BUCKET_START =
  "The bucket's first day (YYYY-MM-DD, the school's time zone): a week's Monday, a month's 1st; the first bucket may start before `from`, counting only from it.";
/** The lists REST replies hold too (object fields are left out of them unless embedded). */
const EMBED = { rest: 'embed' } as const;
const CENTS = (what: string) => `${what}, in integer cents.`;

/** The period a report covers, as it was asked. */
@ObjectType()
abstract class ReportPeriod {
  @Field(() => String, { description: 'The first day counted (YYYY-MM-DD), in the time zone of each school.' }) from!: string;
  @Field(() => String, { description: 'The last day counted (YYYY-MM-DD), included.' }) to!: string;
  @Field(() => String, { nullable: true, description: "The school's time zone; null across schools (each school's days in its own zone)." })
  timeZone!: string | null;
}

@ObjectType()
abstract class RevenueFigures {
  @Field(() => GraphQLSafeInt, { description: CENTS('Confirmed payments (refunded ones included, as they were taken)') }) gross!: number;
  @Field(() => GraphQLSafeInt, { description: CENTS('Given back of those payments (refunds and chargebacks)') }) refunded!: number;
  @Field(() => GraphQLSafeInt, { description: CENTS('gross - refunded') }) net!: number;
}

@ObjectType({ description: "Revenue of one school product: an order of several products shares each payment among them in proportion to their prices (to the cent, summing exactly)." })
export class ProductRevenue extends RevenueFigures {
  @Field(() => ID, { nullable: true, description: 'The school product; null for payments of an order with no items.' }) schoolProductId!: number | null;
}

@ObjectType({ description: 'Revenue of one day, week or month.' })
export class RevenueBucket extends RevenueFigures {
  @Field(() => String, { description: BUCKET_START }) start!: string;
  @Field(() => Int, { description: 'Confirmed payments made in the bucket.' }) payments!: number;
  @Extensions(EMBED)
  @Field(() => [ProductRevenue], { description: 'The bucket by school product (only products with payments).' }) products!: ProductRevenue[];
}

@ObjectType({
  description:
    'Revenue: payments confirmed (status confirmed, or refunded or reversed after it) counted on the day they were made, minus what was given back of them. Integer cents.',
})
export class RevenueReport extends ReportPeriod {
  @Field(() => ReportIntervalEnum) interval!: ReportInterval;
  @Field(() => GraphQLSafeInt, { description: CENTS('All of the period: gross') }) gross!: number;
  @Field(() => GraphQLSafeInt, { description: CENTS('All of the period: refunded') }) refunded!: number;
  @Field(() => GraphQLSafeInt, { description: CENTS('All of the period: net') }) net!: number;
  @Extensions(EMBED)
  @Field(() => [RevenueBucket], { description: 'Every bucket of the period, empty ones with 0.' }) buckets!: RevenueBucket[];
  @Extensions(EMBED)
  @Field(() => [ProductRevenue], { description: 'The period by school product.' }) products!: ProductRevenue[];
}

@ObjectType()
abstract class EnrollmentCounts {
  @Field(() => Int, { description: 'Enrollments made.' }) total!: number;
  @Field(() => Int, { description: '... of which pending now.' }) pending!: number;
  @Field(() => Int, { description: '... active now.' }) active!: number;
  @Field(() => Int, { description: '... expired now.' }) expired!: number;
  @Field(() => Int, { description: '... deactivated now.' }) deactivated!: number;
  @Field(() => Int, { description: '... canceled now.' }) canceled!: number;
}

@ObjectType({ description: 'Enrollments of one school product, by their status now.' })
export class ProductEnrollments extends EnrollmentCounts {
  @Field(() => ID) schoolProductId!: number;
}

@ObjectType({ description: 'Enrollments made in one day, week or month, by their status now.' })
export class EnrollmentsBucket extends EnrollmentCounts {
  @Field(() => String, { description: BUCKET_START }) start!: string;
  @Extensions(EMBED)
  @Field(() => [ProductEnrollments], { description: 'The bucket by school product (only products with enrollments).' }) products!: ProductEnrollments[];
}

@ObjectType({ description: 'Enrollments made in the period (their creation day), by status and by school product.' })
export class EnrollmentsReport extends ReportPeriod {
  @Field(() => ReportIntervalEnum) interval!: ReportInterval;
  @Field(() => Int, { description: 'Enrollments made in the period.' }) total!: number;
  @Extensions(EMBED)
  @Field(() => [EnrollmentsBucket], { description: 'Every bucket of the period, empty ones with 0.' }) buckets!: EnrollmentsBucket[];
  @Extensions(EMBED)
  @Field(() => [ProductEnrollments], { description: 'The period by school product.' }) products!: ProductEnrollments[];
}

@ObjectType()
abstract class CompletionFigures {
  @Field(() => Int, { description: 'Enrollments of the period (made in it).' }) enrollments!: number;
  @Field(() => Int, { description: '... that completed every lesson.' }) completed!: number;
  @Field(() => Float, { description: 'completed / enrollments, in percent (2 decimals); 0 with no enrollment.' }) completionRate!: number;
  @Field(() => Float, { description: 'The average of their progress (completed lessons / lessons), in percent (2 decimals).' }) averageProgress!: number;
}

@ObjectType({ description: 'Completion of one school product: every lesson of its courses (directly or through its paths), released or not.' })
export class ProductCompletion extends CompletionFigures {
  @Field(() => ID) schoolProductId!: number;
  @Field(() => Int, { description: 'Lessons the product holds.' }) lessons!: number;
}

@ObjectType({ description: "Completion of one course, by the enrollments of the period whose product holds it." })
export class CourseCompletion extends CompletionFigures {
  @Field(() => ID) courseId!: number;
  @Field(() => Int, { description: 'Lessons the course holds.' }) lessons!: number;
}

@ObjectType({ description: 'Completion and average progress of the enrollments made in the period, per school product and per course.' })
export class CompletionReport extends ReportPeriod {
  @Extensions(EMBED)
  @Field(() => [ProductCompletion]) products!: ProductCompletion[];
  @Extensions(EMBED)
  @Field(() => [CourseCompletion]) courses!: CourseCompletion[];
}

@ObjectType()
abstract class ActiveCounts {
  @Field(() => Int, { description: 'Students with a progress write or a sign-in.' }) students!: number;
  @Field(() => Int, { description: '... with a progress write (a lesson progress written).' }) progressing!: number;
  @Field(() => Int, { description: '... with a sign-in (a session started).' }) signedIn!: number;
}

@ObjectType({ description: 'Students active in one day, week or month.' })
export class ActiveStudentsBucket extends ActiveCounts {
  @Field(() => String, { description: BUCKET_START }) start!: string;
}

@ObjectType({ description: 'Students active in the period: a lesson progress written (its last write) or a sign-in. Each student counts once per bucket and once in the period.' })
export class ActiveStudentsReport extends ReportPeriod {
  @Field(() => ReportIntervalEnum) interval!: ReportInterval;
  @Field(() => Int, { description: 'Distinct students active in the period.' }) students!: number;
  @Field(() => Int) progressing!: number;
  @Field(() => Int) signedIn!: number;
  @Extensions(EMBED)
  @Field(() => [ActiveStudentsBucket], { description: 'Every bucket of the period, empty ones with 0.' }) buckets!: ActiveStudentsBucket[];
}

@ObjectType({ description: 'The funnel of the orders made in the period: how many were paid, enrolled a student, and led to a completed enrollment.' })
export class FunnelReport extends ReportPeriod {
  @Field(() => Int, { description: 'Orders made in the period.' }) orders!: number;
  @Field(() => Int, { description: '... confirmed (paid), even if refunded since.' }) paid!: number;
  @Field(() => Int, { description: '... that made an enrollment.' }) enrolled!: number;
  @Field(() => Int, { description: '... of which an enrollment completed every lesson of its product.' }) completed!: number;
}
