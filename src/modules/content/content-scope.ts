import { and, eq } from 'drizzle-orm';
import type { Context } from '../../graphql/context.js';
import { forbidden, notFound } from '../../graphql/errors.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { inSchool, ownRows, ownStudentId } from '../../auth/tenancy.js';
import { attendanceRefusal } from '../../content/attendance.js';
import { type ContentScope, enrollmentScope, isActiveEnrollment } from '../../content/scope.js';

/** The scope named by a query's `schoolProductId` / `enrollmentId` arguments (a foreign or unknown one is a 404). */
export async function contentScope(
  ctx: Context,
  args: { schoolProductId?: string | null; enrollmentId?: string | null },
): Promise<ContentScope> {
  if (args.schoolProductId) {
    const product = await findOr404(ctx, schoolProductById, parseId(args.schoolProductId, 'SchoolProduct'), 'SchoolProduct');
    return { kind: 'product', productId: product.id };
  }
  if (args.enrollmentId) {
    const id = idOrNull(args.enrollmentId);
    const [enrollment] = id
      ? await ctx.db
          .select()
          .from(enrollments)
          .where(and(eq(enrollments.id, id), inSchool(ctx, enrollments.schoolId), ownRows(ctx, enrollments.studentId)))
      : [];
    if (!enrollment) throw notFound('Enrollment');
    const now = ctx.now();
    if (!isActiveEnrollment(enrollment, now)) return { kind: 'nothing' };
    // Past its attendance limit (src/content/attendance.ts), the enrollment releases nothing more: 403 with the reason.
    const refusal = await attendanceRefusal(ctx.db, enrollment, now, null);
    if (refusal) throw forbidden(refusal);
    return enrollmentScope(enrollment, now);
  }
  return { kind: 'school' };
}

/**
 * Students read content only as their enrollments show it (released lessons), never the whole
 * school's or a product's: `things` names what is read, `route` where a student reads it.
 */
export function requireEnrollmentForStudent(ctx: Context, scope: ContentScope, things: string, route: string): void {
  if (ownStudentId(ctx) !== null && scope.kind !== 'enrollment' && scope.kind !== 'nothing')
    throw forbidden(`A student reads ${things} through its enrollment (enrollmentId, or ${route})`);
}
