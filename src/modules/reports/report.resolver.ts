import 'reflect-metadata';
import { Args, Ctx, Extensions, Query, Resolver } from 'type-graphql';
import { and, eq } from 'drizzle-orm';
import { inSchool, oneSchool } from '../../auth/tenancy.js';
import { schools } from '../../db/school.table.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { fieldCost } from '../../graphql/limits.js';
import { notFound } from '../../graphql/errors.js';
import { relationsResolver } from '../../graphql/relations.js';
import { courseById } from '../courses/course.loaders.js';
import { Course } from '../courses/course.type.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { SchoolProduct } from '../school-products/school-product.type.js';
import { BucketedReportArgs, ReportArgs } from './report.input.js';
import { type Period, reportPeriod } from './report.period.js';
import { activeRows, completionRows, enrollmentRows, funnelRow, type ReportScope, revenueRows } from './report.sql.js';
import {
  ActiveStudentsReport,
  CompletionReport,
  CourseCompletion,
  EnrollmentsReport,
  FunnelReport,
  ProductCompletion,
  ProductEnrollments,
  ProductRevenue,
  RevenueReport,
} from './report.type.js';

/**
 * What a report costs in the query-cost model (graphql/limits.ts' fieldCost), besides its objects:
 * one statement over a period's rows, about 40 pages of a list. GRAPHQL_MAX_COST (25,000) lets an
 * operation ask for a few dozen, not hundreds under aliases.
 */
export const REPORT_COST = 1000;

/** The rows a report reads (the request's school, the platform's every school or the one it names) and the time zone it shows. */
async function scopeOf(ctx: Context, schoolId: string | null | undefined): Promise<ReportScope & { timeZone: string | null }> {
  const named = schoolId == null ? null : parseId(schoolId, 'School');
  const id = named ?? oneSchool(ctx);
  if (id === null) return { ctx, schoolId: null, timeZone: null };
  const [school] = await ctx.db
    .select({ id: schools.id, timeZone: schools.timeZone })
    .from(schools)
    .where(and(eq(schools.id, id), inSchool(ctx, schools.id)));
  // A school out of the request's scope (another school's, for a school's credential) is a 404.
  if (!school) throw notFound('School');
  return { ctx, schoolId: named, timeZone: school.timeZone };
}

/** The scope and period of a report, checked: a school out of scope is a 404 first, then a bad period a 422 naming every bad argument. */
async function reportOf(ctx: Context, args: BucketedReportArgs | ReportArgs, bucketed: boolean): Promise<{ scope: ReportScope; period: Period; shown: object }> {
  const { timeZone, ...scope } = await scopeOf(ctx, args.schoolId);
  const period = reportPeriod(args, bucketed);
  return { scope, period, shown: { from: period.from, to: period.to, timeZone, ...(bucketed ? { interval: period.interval } : {}) } };
}

const counts = (row: { counts: Record<string, number> }) => row.counts;

/**
 * A bucketed report's rows (kinds `bucket`, `bucket_product`, `product`) grouped: each bucket with its
 * figures and its products' figures, and the products' figures over the whole period.
 */
function byBucketAndProduct<R extends { kind: string; start?: unknown; productId?: number | null }, F extends object>(rows: R[], figures: (row: R) => F) {
  const ofProduct = (row: R) => ({ schoolProductId: row.productId, ...figures(row) });
  return {
    buckets: rows
      .filter((r) => r.kind === 'bucket')
      .map((b) => ({ ...b, figures: { ...figures(b), products: rows.filter((r) => r.kind === 'bucket_product' && r.start === b.start).map(ofProduct) } })),
    products: rows.filter((r) => r.kind === 'product').map(ofProduct),
  };
}

@Resolver()
export class ReportResolver {
  @Extensions(fieldCost(REPORT_COST))
  @Query(() => RevenueReport, {
    description:
      "Revenue by day, week or month and by school product, in integer cents, in the school's time zone: payments confirmed minus what was given back of them. Admins (the platform: every school, or the one `schoolId` names). REST: GET /reports/revenue.",
  })
  async revenueReport(@Args(() => BucketedReportArgs) args: BucketedReportArgs, @Ctx() ctx: Context) {
    const { scope, period, shown } = await reportOf(ctx, args, true);
    const rows = await revenueRows(scope, period);
    const money = ({ gross, refunded, net }: { gross: number; refunded: number; net: number }) => ({ gross, refunded, net });
    const { buckets, products } = byBucketAndProduct(rows, money);
    return {
      ...shown,
      gross: buckets.reduce((s, r) => s + r.gross, 0),
      refunded: buckets.reduce((s, r) => s + r.refunded, 0),
      net: buckets.reduce((s, r) => s + r.net, 0),
      buckets: buckets.map((b) => ({ start: b.start, payments: b.payments, ...b.figures })),
      products,
    };
  }

  @Extensions(fieldCost(REPORT_COST))
  @Query(() => EnrollmentsReport, {
    description: 'Enrollments made by day, week or month and by school product, by their status now. Admins. REST: GET /reports/enrollments.',
  })
  async enrollmentsReport(@Args(() => BucketedReportArgs) args: BucketedReportArgs, @Ctx() ctx: Context) {
    const { scope, period, shown } = await reportOf(ctx, args, true);
    const rows = await enrollmentRows(scope, period);
    const { buckets, products } = byBucketAndProduct(rows, counts);
    return {
      ...shown,
      total: buckets.reduce((s, r) => s + r.counts.total, 0),
      buckets: buckets.map((b) => ({ start: b.start, ...b.figures })),
      products,
    };
  }

  @Extensions(fieldCost(REPORT_COST))
  @Query(() => CompletionReport, {
    description: 'Completion rate and average progress of the enrollments made in the period, per school product and per course. Admins. REST: GET /reports/completion.',
  })
  async completionReport(@Args(() => ReportArgs) args: ReportArgs, @Ctx() ctx: Context) {
    const { scope, period, shown } = await reportOf(ctx, args, false);
    const rows = await completionRows(scope, period);
    const figures = ({ lessons, enrollments, completed, completionRate, averageProgress }: (typeof rows)[number]) => ({ lessons, enrollments, completed, completionRate, averageProgress });
    return {
      ...shown,
      products: rows.filter((r) => r.kind === 'product').map((r) => ({ schoolProductId: r.id, ...figures(r) })),
      courses: rows.filter((r) => r.kind === 'course').map((r) => ({ courseId: r.id, ...figures(r) })),
    };
  }

  @Extensions(fieldCost(REPORT_COST))
  @Query(() => ActiveStudentsReport, {
    description: 'Students active (a lesson progress written, or a sign-in) by day, week or month and in the whole period. Admins. REST: GET /reports/active_students.',
  })
  async activeStudentsReport(@Args(() => BucketedReportArgs) args: BucketedReportArgs, @Ctx() ctx: Context) {
    const { scope, period, shown } = await reportOf(ctx, args, true);
    const rows = await activeRows(scope, period);
    const whole = rows.find((r) => r.start === null) ?? { students: 0, progressing: 0, signedIn: 0 };
    return {
      ...shown,
      students: whole.students,
      progressing: whole.progressing,
      signedIn: whole.signedIn,
      buckets: rows.filter((r) => r.start !== null),
    };
  }

  @Extensions(fieldCost(REPORT_COST))
  @Query(() => FunnelReport, {
    description: 'The funnel of the orders made in the period: orders, paid, enrolled, completed. Admins. REST: GET /reports/funnel.',
  })
  async funnelReport(@Args(() => ReportArgs) args: ReportArgs, @Ctx() ctx: Context) {
    const { scope, period, shown } = await reportOf(ctx, args, false);
    return { ...shown, ...(await funnelRow(scope, period)) };
  }
}

/** The products and courses a report names, loaded per request (no query per row). */
const product = { type: () => SchoolProduct, loader: schoolProductById, key: 'schoolProductId' as const, nullable: true };
export const ReportRelationResolvers = [
  relationsResolver<{ schoolProductId: number | null }>(ProductRevenue, { schoolProduct: product }),
  relationsResolver<{ schoolProductId: number | null }>(ProductEnrollments, { schoolProduct: product }),
  relationsResolver<{ schoolProductId: number | null }>(ProductCompletion, { schoolProduct: product }),
  relationsResolver<{ courseId: number }>(CourseCompletion, { course: { type: () => Course, loader: courseById, key: 'courseId', nullable: true } }),
];
