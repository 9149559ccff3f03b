import 'reflect-metadata';
import { ArgsType, Field, ID } from 'type-graphql';
import { type ReportInterval, ReportIntervalEnum } from './report.type.js';

/** A report's period and school. Nullable in GraphQL: the resolver names every missing or bad one at once (422). */
@ArgsType()
export class ReportArgs {
  @Field(() => String, { nullable: true, description: "Required: the first day (YYYY-MM-DD), in the school's time zone." })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'Required: the last day (YYYY-MM-DD), included. At most 366 days after `from` by day, 1,096 by week, 1,827 by month or with no buckets.' })
  to?: string | null;

  @Field(() => ID, { nullable: true, description: "One school's figures (the platform's choice; a school's credential may name only its own). None: the credential's school, or every school for the platform." })
  schoolId?: string | null;
}

@ArgsType()
export class BucketedReportArgs extends ReportArgs {
  @Field(() => ReportIntervalEnum, { nullable: true, description: 'Buckets of a day (the default), a week or a month.' })
  interval?: ReportInterval | null;
}
