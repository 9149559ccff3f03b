import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Context } from '../../graphql/context.js';
import { forbidden, notFound } from '../../graphql/errors.js';
import { idOrNull, parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { courseModuleLinks, lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { pathCourses } from '../paths/path.table.js';
import { schoolProductById } from '../school-products/school-product.loaders.js';
import { schoolProductCourses, schoolProductPaths } from '../school-products/school-product-content.table.js';
import { inSchool, ownRows, ownStudentId } from '../../auth/tenancy.js';
import { attendanceRefusal } from '../progress/progress.sql.js';
import { type EnrollmentScope, releasedInScope } from './content-release.js';

/**
 * Where content is read: the whole school (`/lessons`), one product's content
 * (`/school_products/:id/lessons`: its courses, directly or through its paths), or what one
 * enrollment's student may see (`/enrollments/:id/lessons`: the enrolled product's content, lessons
 * only once released, nothing at all unless the enrollment is active).
 */
export type ContentScope =
  | { kind: 'school' }
  | { kind: 'product'; productId: number }
  | EnrollmentScope
  | { kind: 'nothing' };

/** An enrollment is active when its status says so and it has not run out. */
export function isActiveEnrollment(e: { status: string; unlimited: boolean; availableUntil: Date | null }, now: Date): boolean {
  return e.status === 'active' && (e.unlimited || !e.availableUntil || e.availableUntil > now);
}

/** The scope an enrollment's student reads in, at `now` (whether the enrollment is active is the caller's to check). */
export function enrollmentScope(
  enrollment: { id: number; schoolProductId: number; activatedAt: Date | null },
  now: Date,
): EnrollmentScope {
  return { kind: 'enrollment', productId: enrollment.schoolProductId, enrollmentId: enrollment.id, activatedAt: enrollment.activatedAt, now };
}

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
    // Past its attendance limit (progress/progress.sql.ts), the enrollment releases nothing more: 403 with the reason.
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

/** Course ids of a product: its own courses and those of its paths (a subquery, for `inArray`). */
export function productCourseIds(ctx: Context, productId: number) {
  const direct = ctx.db.select({ id: schoolProductCourses.courseId }).from(schoolProductCourses).where(eq(schoolProductCourses.schoolProductId, productId));
  const viaPaths = ctx.db
    .select({ id: pathCourses.courseId })
    .from(pathCourses)
    .where(inArray(pathCourses.pathId, ctx.db.select({ id: schoolProductPaths.pathId }).from(schoolProductPaths).where(eq(schoolProductPaths.schoolProductId, productId))));
  return direct.union(viaPaths);
}

/** Path ids of a product (a subquery). */
export function productPathIds(ctx: Context, productId: number) {
  return ctx.db.select({ id: schoolProductPaths.pathId }).from(schoolProductPaths).where(eq(schoolProductPaths.schoolProductId, productId));
}

const FALSE = sql`false`;

/** The condition on `courses.id`-like column for a scope; undefined for the whole school. */
export function courseCondition(ctx: Context, scope: ContentScope, courseIdColumn: Parameters<typeof inArray>[0]): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return FALSE;
  return inArray(courseIdColumn, productCourseIds(ctx, scope.productId));
}

/** The condition on a course-module id column: modules of the scope's courses. */
export function moduleCondition(ctx: Context, scope: ContentScope, moduleIdColumn: Parameters<typeof inArray>[0]): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return FALSE;
  return inArray(
    moduleIdColumn,
    ctx.db
      .select({ id: courseModuleLinks.courseModuleId })
      .from(courseModuleLinks)
      .where(inArray(courseModuleLinks.courseId, productCourseIds(ctx, scope.productId))),
  );
}

/** The condition on a path id column: paths of the scope's product. */
export function pathCondition(ctx: Context, scope: ContentScope, pathIdColumn: Parameters<typeof inArray>[0]): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return FALSE;
  return inArray(pathIdColumn, productPathIds(ctx, scope.productId));
}

/** Lessons of the scope; for an enrollment, released ones only (releaseRule). */
export function lessonCondition(ctx: Context, scope: ContentScope): SQL | undefined {
  const inModules = moduleCondition(ctx, scope, lessons.courseModuleId);
  if (scope.kind !== 'enrollment') return inModules;
  return and(inModules, releasedInScope(scope));
}
