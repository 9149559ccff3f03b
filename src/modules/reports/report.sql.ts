import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { inSchool } from '../../auth/tenancy.js';
import { PRODUCT_COURSES } from '../../content/scope.js';
import { rowsOf } from '../../db/rows.js';
import { schools } from '../../db/school.table.js';
import type { Context } from '../../graphql/context.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { sessions } from '../identity/session.table.js';
import { invoices, orderItems, orders, paymentOptions, payments } from '../orders/order.table.js';
import { lessonProgress } from '../progress/progress.table.js';
import { users } from '../users/user.table.js';
import type { Period } from './report.period.js';

/**
 * The reports' statements: each report is ONE statement, computed by the database. Rows are read
 * through indexes on (school_id, <time>) (orders, payments, enrollments, sessions, lesson_progress),
 * bounded by the period; a row's day is its time in its school's time zone (schools.time_zone), so
 * across schools each counts in its own. Buckets come from generate_series: empty ones read 0.
 */

/** Whose rows a report reads: the request's scope (inSchool), narrowed to one school when one was named (already found in scope). */
export interface ReportScope {
  ctx: Context;
  schoolId: number | null;
}

const where = ({ ctx, schoolId }: ReportScope, column: PgColumn): SQL => and(inSchool(ctx, column), schoolId === null ? undefined : eq(column, schoolId)) ?? sql`true`;

/** `column`'s time in its school's zone (`schools` joined). */
const local = (column: PgColumn) => sql`(${column} at time zone ${schools.timeZone})`;

/**
 * `column` within the period in its school's days: a range the index serves (a day more each side
 * covers every zone's offset), then the exact days in the school's zone.
 */
const inPeriod = (column: PgColumn, p: Period) =>
  sql`${column} >= (${p.from}::date - 1)::timestamptz and ${column} < (${p.to}::date + 2)::timestamptz
    and ${local(column)}::date between ${p.from}::date and ${p.to}::date`;

/** The interval as SQL: one of a closed list (report.type.ts), never the client's text. */
const unit = (p: Period) => sql.raw(`'${p.interval}'`);
/** The bucket (its first day) of `column`'s time in its school's zone. */
const bucketOf = (column: PgColumn, p: Period) => sql`date_trunc(${unit(p)}, ${local(column)})::date`;
/** Every bucket of the period, the first one truncated to its start (a week's Monday, a month's 1st). */
const series = (p: Period) =>
  sql`select generate_series(date_trunc(${unit(p)}, ${p.from}::timestamp), ${p.to}::timestamp, ('1 ' || ${unit(p)})::interval)::date as bucket`;
const day = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

const num = (value: unknown) => Number(value ?? 0);

// ---------------------------------------------------------------------------------------------
// Revenue

export interface RevenueRow {
  kind: 'bucket' | 'product' | 'bucket_product';
  start: string | null;
  productId: number | null;
  gross: number;
  refunded: number;
  net: number;
  payments: number;
}

/**
 * Payments confirmed (or refunded or reversed after being confirmed), on the day they were made:
 * gross (their amount, or their invoice's), refunded (given back of them), net. An order of several
 * items shares each payment among them in proportion to their prices: item i of weights w, summing
 * W, takes floor(x * (w1 + .. + wi) / W) - floor(x * (w1 + .. + wi-1) / W), so the shares sum to x
 * exactly (equal shares when every price is 0).
 */
export async function revenueRows(scope: ReportScope, p: Period): Promise<RevenueRow[]> {
  const share = (x: SQL) => sql`case
      when w.order_id is null then ${x}
      when w.whole > 0 then (${x}::bigint * w.upto) / w.whole - (${x}::bigint * (w.upto - w.weight)) / w.whole
      else (${x}::bigint * w.n_upto) / w.n - (${x}::bigint * (w.n_upto - 1)) / w.n end`;
  const result = await scope.ctx.db.execute(sql`
    with series as (${series(p)}),
    paid as (
      select ${payments.id} as id, ${invoices.orderId} as order_id, ${bucketOf(payments.createdAt, p)} as bucket,
        coalesce(${payments.amount}, ${invoices.amount}) as gross, ${payments.refundedAmount} as refunded
      from ${payments}
      join ${invoices} on ${invoices.id} = ${payments.invoiceId}
      join ${schools} on ${schools.id} = ${payments.schoolId}
      where ${where(scope, payments.schoolId)} and ${inPeriod(payments.createdAt, p)}
        and ${payments.status} in ('confirmed', 'refunded', 'reversed')
    ),
    items as (
      select ${orderItems.id} as id, ${orderItems.orderId} as order_id, ${paymentOptions.schoolProductId} as product_id,
        greatest(coalesce(${orderItems.amountToPay}, ${orderItems.total}), 0)::bigint as weight
      from ${orderItems} join ${paymentOptions} on ${paymentOptions.id} = ${orderItems.paymentOptionId}
      where ${orderItems.orderId} in (select order_id from paid)
    ),
    w as (
      select order_id, product_id, weight,
        sum(weight) over (partition by order_id order by id) as upto, sum(weight) over (partition by order_id) as whole,
        count(*) over (partition by order_id order by id) as n_upto, count(*) over (partition by order_id) as n
      from items
    ),
    lines as (
      select paid.id, paid.bucket, w.product_id, ${share(sql`paid.gross`)} as gross, ${share(sql`paid.refunded`)} as refunded
      from paid left join w on w.order_id = paid.order_id
    )
    select 'bucket' as kind, ${day(sql`series.bucket`)} as start, null::int as product_id,
      coalesce(sum(lines.gross), 0)::bigint as gross, coalesce(sum(lines.refunded), 0)::bigint as refunded, count(distinct lines.id)::int as payments
    from series left join lines on lines.bucket = series.bucket group by series.bucket
    union all
    select 'product', null, product_id, sum(gross)::bigint, sum(refunded)::bigint, count(distinct id)::int from lines group by product_id
    union all
    select 'bucket_product', ${day(sql`bucket`)}, product_id, sum(gross)::bigint, sum(refunded)::bigint, count(distinct id)::int from lines group by bucket, product_id
    order by 1, 2, 3`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    kind: r.kind as RevenueRow['kind'],
    start: (r.start as string | null) ?? null,
    productId: r.product_id === null ? null : num(r.product_id),
    gross: num(r.gross),
    refunded: num(r.refunded),
    net: num(r.gross) - num(r.refunded),
    payments: num(r.payments),
  }));
}

// ---------------------------------------------------------------------------------------------
// Enrollments

export const ENROLLMENT_STATUSES = ['pending', 'active', 'expired', 'deactivated', 'canceled'] as const;

export interface EnrollmentsRow {
  kind: 'bucket' | 'product' | 'bucket_product';
  start: string | null;
  productId: number | null;
  counts: Record<(typeof ENROLLMENT_STATUSES)[number] | 'total', number>;
}

/** Enrollments made in the period (their creation day), by their status now: per bucket, per product, and both. */
export async function enrollmentRows(scope: ReportScope, p: Period): Promise<EnrollmentsRow[]> {
  const counts = sql.join(
    [sql`count(e.status)::int as total`, ...ENROLLMENT_STATUSES.map((s) => sql`(count(*) filter (where e.status = ${s}))::int as ${sql.identifier(s)}`)],
    sql`, `,
  );
  const result = await scope.ctx.db.execute(sql`
    with series as (${series(p)}),
    e as (
      select ${bucketOf(enrollments.createdAt, p)} as bucket, ${enrollments.schoolProductId} as product_id, ${enrollments.status}::text as status
      from ${enrollments} join ${schools} on ${schools.id} = ${enrollments.schoolId}
      where ${where(scope, enrollments.schoolId)} and ${inPeriod(enrollments.createdAt, p)}
    )
    select 'bucket' as kind, ${day(sql`series.bucket`)} as start, null::int as product_id, ${counts}
    from series left join e on e.bucket = series.bucket group by series.bucket
    union all
    select 'product', null, e.product_id, ${counts} from e group by e.product_id
    union all
    select 'bucket_product', ${day(sql`e.bucket`)}, e.product_id, ${counts} from e group by e.bucket, e.product_id
    order by 1, 2, 3`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    kind: r.kind as EnrollmentsRow['kind'],
    start: (r.start as string | null) ?? null,
    productId: r.product_id === null ? null : num(r.product_id),
    counts: Object.fromEntries(['total', ...ENROLLMENT_STATUSES].map((k) => [k, num(r[k])])) as EnrollmentsRow['counts'],
  }));
}

// ---------------------------------------------------------------------------------------------
// Completion

/** Every lesson of each product of `products` (a subquery of product ids): its courses' lessons, directly or through its paths. */
const productLessons = (products: SQL) => sql`
  select distinct pc.school_product_id, pc.course_id, l.id as lesson_id
  from (${PRODUCT_COURSES}) pc
  join course_module_links m on m.course_id = pc.course_id
  join lessons l on l.course_module_id = m.course_module_id
  where pc.school_product_id in (${products})`;

export interface CompletionRow {
  kind: 'product' | 'course';
  id: number;
  lessons: number;
  enrollments: number;
  completed: number;
  completionRate: number;
  averageProgress: number;
}

/**
 * Enrollments made in the period: each one's progress (its completed lessons over its product's,
 * every lesson whether released or not) per product, and in each course of its product per course.
 * Complete: every lesson (of a product or course that has some) completed.
 */
export async function completionRows(scope: ReportScope, p: Period): Promise<CompletionRow[]> {
  const figures = (done: SQL, lessons: SQL) => sql`count(*)::int as enrollments,
      (count(*) filter (where ${lessons} > 0 and ${done} = ${lessons}))::int as completed,
      round(100.0 * count(*) filter (where ${lessons} > 0 and ${done} = ${lessons}) / count(*), 2)::float8 as completion_rate,
      round(avg(case when ${lessons} > 0 then 100.0 * ${done} / ${lessons} else 0 end), 2)::float8 as average_progress`;
  const result = await scope.ctx.db.execute(sql`
    with cohort as (
      select ${enrollments.id} as id, ${enrollments.schoolProductId} as product_id
      from ${enrollments} join ${schools} on ${schools.id} = ${enrollments.schoolId}
      where ${where(scope, enrollments.schoolId)} and ${inPeriod(enrollments.createdAt, p)}
    ),
    pl as (${productLessons(sql`select product_id from cohort`)}),
    per_course as (
      select cohort.id, pl.course_id, count(distinct pl.lesson_id) as lessons,
        count(distinct pl.lesson_id) filter (where lp.completed_at is not null) as done
      from cohort join pl on pl.school_product_id = cohort.product_id
      left join lesson_progress lp on lp.enrollment_id = cohort.id and lp.lesson_id = pl.lesson_id
      group by cohort.id, pl.course_id
    ),
    per_enrollment as (
      select cohort.id, cohort.product_id, count(distinct pl.lesson_id) as lessons,
        count(distinct pl.lesson_id) filter (where lp.completed_at is not null) as done
      from cohort left join pl on pl.school_product_id = cohort.product_id
      left join lesson_progress lp on lp.enrollment_id = cohort.id and lp.lesson_id = pl.lesson_id
      group by cohort.id, cohort.product_id
    )
    select 'product' as kind, product_id as id, max(lessons)::int as lessons, ${figures(sql`done`, sql`lessons`)}
    from per_enrollment group by product_id
    union all
    select 'course', course_id, max(lessons)::int, ${figures(sql`done`, sql`lessons`)}
    from per_course group by course_id
    order by 1, 2`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    kind: r.kind as CompletionRow['kind'],
    id: num(r.id),
    lessons: num(r.lessons),
    enrollments: num(r.enrollments),
    completed: num(r.completed),
    completionRate: num(r.completion_rate),
    averageProgress: num(r.average_progress),
  }));
}

// ---------------------------------------------------------------------------------------------
// Active students

export interface ActiveRow {
  start: string | null;
  students: number;
  progressing: number;
  signedIn: number;
}

/**
 * Students active in the period: a lesson progress whose last write falls in it, or a sign-in (a
 * session of a student started in it). One row per bucket (start) and one for the whole period (start null).
 */
export async function activeRows(scope: ReportScope, p: Period): Promise<ActiveRow[]> {
  const result = await scope.ctx.db.execute(sql`
    with series as (${series(p)}),
    acts as (
      select ${lessonProgress.studentId} as student_id, ${bucketOf(lessonProgress.updatedAt, p)} as bucket, 'progress' as source
      from ${lessonProgress} join ${schools} on ${schools.id} = ${lessonProgress.schoolId}
      where ${where(scope, lessonProgress.schoolId)} and ${inPeriod(lessonProgress.updatedAt, p)}
      union all
      select ${sessions.userId}, ${bucketOf(sessions.createdAt, p)}, 'sign_in'
      from ${sessions} join ${schools} on ${schools.id} = ${sessions.schoolId} join ${users} on ${users.id} = ${sessions.userId}
      where ${where(scope, sessions.schoolId)} and ${inPeriod(sessions.createdAt, p)} and ${users.type} = 'Student'
    )
    select ${day(sql`series.bucket`)} as start, count(distinct acts.student_id)::int as students,
      (count(distinct acts.student_id) filter (where acts.source = 'progress'))::int as progressing,
      (count(distinct acts.student_id) filter (where acts.source = 'sign_in'))::int as signed_in
    from series left join acts on acts.bucket = series.bucket
    group by grouping sets ((series.bucket), ())
    order by series.bucket nulls first`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    start: (r.start as string | null) ?? null,
    students: num(r.students),
    progressing: num(r.progressing),
    signedIn: num(r.signed_in),
  }));
}

// ---------------------------------------------------------------------------------------------
// Funnel

export interface FunnelRow {
  orders: number;
  paid: number;
  enrolled: number;
  completed: number;
}

/**
 * Orders made in the period; of them, those confirmed (confirmed_at set: paid, even if refunded
 * since), those that made an enrollment, and those with an enrollment that completed every lesson of its product.
 */
export async function funnelRow(scope: ReportScope, p: Period): Promise<FunnelRow> {
  const result = await scope.ctx.db.execute(sql`
    with o as (
      select ${orders.id} as id, ${orders.confirmedAt} as confirmed_at
      from ${orders} join ${schools} on ${schools.id} = ${orders.schoolId}
      where ${where(scope, orders.schoolId)} and ${inPeriod(orders.createdAt, p)}
    ),
    e as (
      select ${enrollments.id} as id, ${enrollments.orderId} as order_id, ${enrollments.schoolProductId} as product_id
      from ${enrollments} where ${enrollments.orderId} in (select id from o)
    ),
    pl as (${productLessons(sql`select product_id from e`)}),
    done as (
      select e.order_id from e
      join pl on pl.school_product_id = e.product_id
      left join lesson_progress lp on lp.enrollment_id = e.id and lp.lesson_id = pl.lesson_id
      group by e.id, e.order_id
      having count(distinct pl.lesson_id) filter (where lp.completed_at is not null) = count(distinct pl.lesson_id)
    )
    select count(*)::int as orders, (count(*) filter (where o.confirmed_at is not null))::int as paid,
      (count(*) filter (where o.id in (select order_id from e)))::int as enrolled,
      (count(*) filter (where o.id in (select order_id from done)))::int as completed
    from o`);
  const [r] = rowsOf<Record<string, unknown>>(result);
  return { orders: num(r?.orders), paid: num(r?.paid), enrolled: num(r?.enrolled), completed: num(r?.completed) };
}
