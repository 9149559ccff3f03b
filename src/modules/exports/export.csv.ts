import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type KeysetPage, readInBatches } from '../../db/batches.js';
import type { Context } from '../../graphql/context.js';
import { enrollmentsWhere } from '../enrollments/enrollment.filters.js';
import { effectiveStatus } from '../enrollments/enrollment.status.js';
import { enrollments, enrollmentStatus } from '../enrollments/enrollment.table.js';
import type { EnrollmentStatusValue } from '../enrollments/enrollment.type.js';
import { ordersWhere } from '../orders/order.filters.js';
import type { OrderStatus } from '../orders/order.state.js';
import { orders, orderStatus } from '../orders/order.table.js';
import { progressOf } from '../progress/progress.sql.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { users } from '../users/user.table.js';
import type { ExportKindValue, StoredFilters } from './export.table.js';

/**
 * The CSV files of a school: what each kind reads (with the filters of its matching list, through
 * that list's own filter code), its columns, and the file as a stream of text, written RFC 4180 by
 * csv-stringify (CRLF line ends, fields quoted when they hold a comma, a quote or a line break),
 * UTF-8 with a byte-order mark (spreadsheets then read accents right). Dates are ISO 8601 in UTC,
 * money in cents, booleans true/false, nothing an empty field.
 */

/** The filters an export takes, whatever the face (GraphQL arguments, REST parameters, a stored job). */
export interface ExportFilterValues {
  studentId?: string;
  courseClassId?: string;
  schoolProductId?: string;
  status?: string;
  createdFrom?: Date;
  createdTo?: Date;
}
export type ExportFilterName = keyof ExportFilterValues;
const DATE_FILTERS: readonly ExportFilterName[] = ['createdFrom', 'createdTo'];

/** Rows a batch reads: one statement per batch (the cursor's fetch, or a keyset page). */
export const BATCH_ROWS = 1000;

interface KindDefinition {
  /** The filters of the matching list. */
  filters: readonly ExportFilterName[];
  /** The values `status` may take. */
  statuses: readonly string[];
  columns: readonly string[];
  /** The list's condition (its own filter code: a named row of another school is a 404). */
  where(ctx: Context, filters: ExportFilterValues): Promise<SQL | undefined>;
  /** The statement, in id order; a keyset page of it when `page` is given (db/batches.ts). */
  statement(where: SQL | undefined, page: KeysetPage | null): SQL;
  /** A batch of rows as the file's lines (their values in `columns`' order, by name). */
  lines(rows: Record<string, unknown>[], ctx: Context): Promise<Record<string, unknown>[]> | Record<string, unknown>[];
}

/** A timestamp as ISO 8601 text in UTC, formatted by the database (the same text whichever driver reads it). */
const iso = (column: PgColumn) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `where`, the keyset page's bound, the order and the page's limit. */
function paged(where: SQL | undefined, id: PgColumn, page: KeysetPage | null): SQL {
  const conditions = and(where, page ? sql`${id} > ${page.after}` : undefined);
  return sql`${conditions ? sql`where ${conditions}` : sql``} order by ${id}${page ? sql` limit ${page.limit}` : sql``}`;
}

/** The enrollments list's condition, with its product check answered first (a 404 before the file starts). */
async function enrollmentsCondition(ctx: Context, filters: ExportFilterValues): Promise<SQL | undefined> {
  const { where, parent } = await enrollmentsWhere(ctx, { ...filters, status: filters.status as EnrollmentStatusValue | undefined });
  if (parent) {
    const [{ found }] = await ctx.db.select({ found: sql<boolean>`${parent.exists}` }).from(sql`(select 1) as one`);
    if (!found) throw parent.missing();
  }
  return where;
}

const ENROLLMENT_FILTERS = ['studentId', 'courseClassId', 'schoolProductId', 'status'] as const;

const enrollmentsKind: KindDefinition = {
  filters: ENROLLMENT_FILTERS,
  statuses: enrollmentStatus.enumValues,
  columns: [
    'id',
    'code',
    'status',
    'student_id',
    'student_name',
    'student_email',
    'school_product_id',
    'school_product_title',
    'max_attendance_type',
    'max_attendance_length',
    'unlimited',
    'available_until',
    'activated_at',
    'order_id',
    'created_at',
  ],
  where: enrollmentsCondition,
  statement: (where, page) => sql`
    select ${enrollments.id} as id, ${enrollments.code} as code, ${enrollments.status} as status,
      ${enrollments.studentId} as student_id, ${users.fullName} as student_name, ${users.email} as student_email,
      ${enrollments.schoolProductId} as school_product_id, ${schoolProducts.title} as school_product_title,
      ${enrollments.maxAttendanceType} as max_attendance_type, ${enrollments.maxAttendanceLength} as max_attendance_length,
      ${enrollments.unlimited} as unlimited, ${iso(enrollments.availableUntil)} as available_until,
      ${iso(enrollments.activatedAt)} as activated_at, ${enrollments.orderId} as order_id, ${iso(enrollments.createdAt)} as created_at
    from ${enrollments}
    join ${users} on ${eq(users.id, enrollments.studentId)}
    join ${schoolProducts} on ${eq(schoolProducts.id, enrollments.schoolProductId)}
    ${paged(where, enrollments.id, page)}`,
  // The status as the API reads it: past availableUntil, active or pending reads expired.
  lines: (rows, ctx) => {
    const now = ctx.now();
    return rows.map((row) => ({
      ...row,
      status: effectiveStatus(
        { status: String(row.status), unlimited: row.unlimited === true, availableUntil: row.available_until ? new Date(String(row.available_until)) : null },
        now,
      ),
    }));
  },
};

const progressKind: KindDefinition = {
  filters: ENROLLMENT_FILTERS,
  statuses: enrollmentStatus.enumValues,
  columns: [
    'enrollment_id',
    'enrollment_status',
    'student_id',
    'student_name',
    'student_email',
    'school_product_id',
    'school_product_title',
    'items_total',
    'items_done',
    'progress_percent',
    'completion_percent',
  ],
  where: enrollmentsCondition,
  statement: (where, page) => sql`
    select ${enrollments.id} as id, ${enrollments.status} as status, ${enrollments.unlimited} as unlimited,
      ${iso(enrollments.availableUntil)} as available_until,
      ${enrollments.studentId} as student_id, ${users.fullName} as student_name, ${users.email} as student_email,
      ${enrollments.schoolProductId} as school_product_id, ${schoolProducts.title} as school_product_title
    from ${enrollments}
    join ${users} on ${eq(users.id, enrollments.studentId)}
    join ${schoolProducts} on ${eq(schoolProducts.id, enrollments.schoolProductId)}
    ${paged(where, enrollments.id, page)}`,
  // The figures of the enrollments' page (progress/progress.sql.ts): one statement per batch.
  async lines(rows, ctx) {
    const now = ctx.now();
    const figures = await progressOf(
      ctx.db,
      rows.map((r) => Number(r.id)),
      now,
    );
    return rows.map((row) => {
      const f = figures.get(Number(row.id));
      return {
        ...row,
        enrollment_id: row.id,
        enrollment_status: effectiveStatus(
          { status: String(row.status), unlimited: row.unlimited === true, availableUntil: row.available_until ? new Date(String(row.available_until)) : null },
          now,
        ),
        items_total: f?.progress.total ?? 0,
        items_done: f?.progress.done ?? 0,
        progress_percent: f?.progress.percent ?? 0,
        completion_percent: f?.completion.percent ?? 0,
      };
    });
  },
};

const ordersKind: KindDefinition = {
  filters: ['studentId', 'status', 'createdFrom', 'createdTo'],
  statuses: orderStatus.enumValues,
  columns: [
    'id',
    'uuid',
    'status',
    'student_id',
    'student_name',
    'student_email',
    'total',
    'amount_to_pay',
    'kind',
    'period',
    'coupon_id',
    'test',
    'created_at',
    'confirmed_at',
    'canceled_at',
  ],
  where: async (ctx, filters) => ordersWhere(ctx, { ...filters, status: filters.status as OrderStatus | undefined }),
  statement: (where, page) => sql`
    select ${orders.id} as id, ${orders.uuid} as uuid, ${orders.status} as status,
      ${orders.studentId} as student_id, ${users.fullName} as student_name, ${users.email} as student_email,
      ${orders.total} as total, ${orders.amountToPay} as amount_to_pay, ${orders.kind} as kind, ${orders.period} as period,
      ${orders.couponId} as coupon_id, ${orders.test} as test,
      ${iso(orders.createdAt)} as created_at, ${iso(orders.confirmedAt)} as confirmed_at, ${iso(orders.canceledAt)} as canceled_at
    from ${orders}
    join ${users} on ${eq(users.id, orders.studentId)}
    ${paged(where, orders.id, page)}`,
  lines: (rows) => rows,
};

export const exportKinds: Record<ExportKindValue, KindDefinition> = { enrollments: enrollmentsKind, orders: ordersKind, progress: progressKind };

/** The filters as given (GraphQL's Dates, REST's text, a stored job's JSON), absent ones dropped. */
export function filterValues(raw: Record<string, unknown> | null | undefined): ExportFilterValues {
  const values: Record<string, unknown> = {};
  for (const name of ['studentId', 'courseClassId', 'schoolProductId', 'status', 'createdFrom', 'createdTo'] as const) {
    const value = raw?.[name];
    if (value === undefined || value === null || value === '') continue;
    values[name] = DATE_FILTERS.includes(name) ? (value instanceof Date ? value : new Date(String(value))) : String(value);
  }
  return values as ExportFilterValues;
}

/** What is wrong with the filters for this kind: a filter of another list, a status it does not have, a date that is none. */
export function filterProblems(kind: ExportKindValue, filters: ExportFilterValues): { field: ExportFilterName; code: 'invalid' | 'inclusion'; message: string }[] {
  const definition = exportKinds[kind];
  const problems: { field: ExportFilterName; code: 'invalid' | 'inclusion'; message: string }[] = [];
  for (const [name, value] of Object.entries(filters) as [ExportFilterName, unknown][]) {
    if (!definition.filters.includes(name)) problems.push({ field: name, code: 'invalid', message: `is not a filter of ${kind} exports (${definition.filters.join(', ')})` });
    else if (value instanceof Date && Number.isNaN(value.getTime())) problems.push({ field: name, code: 'invalid', message: 'is not a date' });
    else if (name === 'status' && !definition.statuses.includes(String(value)))
      problems.push({ field: name, code: 'inclusion', message: `is not one of ${definition.statuses.join(', ')}` });
  }
  return problems;
}

/** The filters as a job keeps them (JSON: dates as ISO text). */
export const storedFilters = (filters: ExportFilterValues): StoredFilters =>
  Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]));

/** The file's name: `enrollments-<school>-<date>.csv`. */
export const exportFilename = (kind: ExportKindValue, schoolId: number, at: Date) => `${kind}-${schoolId}-${at.toISOString().slice(0, 10)}.csv`;

const CSV_OPTIONS = {
  record_delimiter: 'windows',
  cast: { boolean: (value: boolean) => (value ? 'true' : 'false') },
} as const;

/**
 * The file as text, one piece per batch (the header first, with the byte-order mark): the rows read
 * in batches from a cursor (db/batches.ts), so memory holds one batch whatever the file's size. The
 * caller pulls it (a stream's reads, the job's writes); stopping early (`return()`) closes the cursor.
 */
export async function* csvText(ctx: Context, kind: ExportKindValue, where: SQL | undefined, counted?: (rows: number) => void): AsyncGenerator<string> {
  const definition = exportKinds[kind];
  const columns = [...definition.columns];
  yield '\ufeff' + stringify([columns], CSV_OPTIONS);
  for await (const rows of readInBatches(ctx.db, (page) => definition.statement(where, page), 'id', BATCH_ROWS)) {
    const lines = await definition.lines(rows, ctx);
    counted?.(lines.length);
    // Pieces of PIECE_ROWS lines (about 16 kB): small enough to be allocated, and collected, in V8's young
    // generation; a whole batch's text (150 kB and more) would go to the large-object space, which only
    // a full collection frees, and the process would grow by the garbage of many batches before one runs.
    for (let i = 0; i < lines.length; i += PIECE_ROWS) yield stringify(lines.slice(i, i + PIECE_ROWS), { ...CSV_OPTIONS, columns });
  }
}

/** Lines per piece of text a file is yielded in. */
const PIECE_ROWS = 100;

/**
 * The file as a byte stream for an HTTP reply: pulled as the client takes it (a Readable reads its
 * source only while the reply is below its high-water mark: the response's drain paces the cursor),
 * and destroyed when the client goes away, which ends the generator and so closes the cursor.
 */
export const csvStream = (ctx: Context, kind: ExportKindValue, where: SQL | undefined): Readable =>
  Readable.from(csvText(ctx, kind, where), { objectMode: false, highWaterMark: 64 * 1024 });
