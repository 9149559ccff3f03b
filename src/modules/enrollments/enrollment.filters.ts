import { and, eq, sql, type SQL } from 'drizzle-orm';
import { inSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import type { PageOptions } from '../../graphql/pagination.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import { courseClassById, inCourseClass, studentById, visibleEnrollments } from './enrollment.loaders.js';
import { readsAs } from './enrollment.status.js';
import { enrollments } from './enrollment.table.js';
import type { EnrollmentStatusValue } from './enrollment.type.js';

/** The filters of the enrollments list (`GET /enrollments?status=…`, under a student, class or product): also the CSV export's. */
export interface EnrollmentFilters {
  studentId?: string | null;
  courseClassId?: string | null;
  schoolProductId?: string | null;
  status?: EnrollmentStatusValue | null;
}

/**
 * The rows an enrollments list reads: the caller's (a student's own), narrowed by the filters; a named
 * student, class or product of another school is a 404. The product's check is returned as the page's
 * `parent` (one statement) unless a class's check must answer after it.
 */
export async function enrollmentsWhere(ctx: Context, args: EnrollmentFilters): Promise<{ where: SQL | undefined; parent?: PageOptions['parent'] }> {
  const conditions: (SQL | undefined)[] = [visibleEnrollments(ctx)];
  if (args.studentId !== undefined && args.studentId !== null) {
    const student = await findOr404(ctx, studentById, parseId(args.studentId, 'Student'), 'Student');
    conditions.push(eq(enrollments.studentId, student.id));
  }
  let parent: PageOptions['parent'];
  if (args.schoolProductId !== undefined && args.schoolProductId !== null) {
    const productId = parseId(args.schoolProductId, 'SchoolProduct');
    conditions.push(eq(enrollments.schoolProductId, productId));
    const visible = sql`exists (select 1 from ${schoolProducts} where ${and(eq(schoolProducts.id, productId), inSchool(ctx, schoolProducts.schoolId))})`;
    if (args.courseClassId === undefined || args.courseClassId === null) parent = { exists: visible, missing: () => notFound('SchoolProduct') };
    else await findOr404(ctx, schoolProductById, productId, 'SchoolProduct');
  }
  if (args.courseClassId !== undefined && args.courseClassId !== null) {
    const courseClass = await findOr404(ctx, courseClassById, parseId(args.courseClassId, 'CourseClass'), 'CourseClass');
    conditions.push(inCourseClass(courseClass.id));
  }
  if (args.status) conditions.push(readsAs(args.status, ctx.now()));
  return { where: and(...conditions), parent };
}
