import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { courseModuleLinks, lessons } from '../modules/courses/course.table.js';
import { pathCourses } from '../modules/paths/path.table.js';
import { schoolProductCourses, schoolProductPaths } from '../modules/school-products/school-product-content.table.js';
import type { DbHandle } from './reader.js';
import { type EnrollmentScope, releasedInScope } from './release.js';

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

/** Course ids of a product: its own courses and those of its paths (a subquery, for `inArray`). */
export function productCourseIds({ db }: DbHandle, productId: number) {
  const direct = db.select({ id: schoolProductCourses.courseId }).from(schoolProductCourses).where(eq(schoolProductCourses.schoolProductId, productId));
  const viaPaths = db
    .select({ id: pathCourses.courseId })
    .from(pathCourses)
    .where(inArray(pathCourses.pathId, db.select({ id: schoolProductPaths.pathId }).from(schoolProductPaths).where(eq(schoolProductPaths.schoolProductId, productId))));
  return direct.union(viaPaths);
}

/** Every product's courses, directly or through its paths, as rows (school_product_id, course_id): a CTE of raw statements. */
export const PRODUCT_COURSES = sql`select school_product_id, course_id from school_product_courses
  union
  select spp.school_product_id, pc.course_id from school_product_paths spp join path_courses pc on pc.path_id = spp.path_id`;

/** Path ids of a product (a subquery). */
export function productPathIds({ db }: DbHandle, productId: number) {
  return db.select({ id: schoolProductPaths.pathId }).from(schoolProductPaths).where(eq(schoolProductPaths.schoolProductId, productId));
}

const FALSE = sql`false`;

/** The condition on `courses.id`-like column for a scope; undefined for the whole school. */
export function courseCondition(on: DbHandle, scope: ContentScope, courseIdColumn: Parameters<typeof inArray>[0]): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return FALSE;
  return inArray(courseIdColumn, productCourseIds(on, scope.productId));
}

/** The condition on a course-module id column: modules of the scope's courses. */
export function moduleCondition(on: DbHandle, scope: ContentScope, moduleIdColumn: Parameters<typeof inArray>[0]): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return FALSE;
  return inArray(
    moduleIdColumn,
    on.db
      .select({ id: courseModuleLinks.courseModuleId })
      .from(courseModuleLinks)
      .where(inArray(courseModuleLinks.courseId, productCourseIds(on, scope.productId))),
  );
}

/** The condition on a path id column: paths of the scope's product. */
export function pathCondition(on: DbHandle, scope: ContentScope, pathIdColumn: Parameters<typeof inArray>[0]): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return FALSE;
  return inArray(pathIdColumn, productPathIds(on, scope.productId));
}

/**
 * Lessons of the scope whose content may be read; for an enrollment, released ones only (release.ts'
 * releaseRule): what a lesson's show, its activities, media and progress writes go through.
 */
export function lessonCondition(on: DbHandle, scope: ContentScope): SQL | undefined {
  const inModules = moduleCondition(on, scope, lessons.courseModuleId);
  if (scope.kind !== 'enrollment') return inModules;
  return and(inModules, releasedInScope(scope));
}

/**
 * Lessons of the scope as a list shows them: for an enrollment, every available lesson, released or
 * still locked by its release dates (a locked one is listed with when it opens, and without its
 * content: modules/content/content-view.ts' withLocks). An unavailable lesson is never listed to it.
 */
export function listedLessonCondition(on: DbHandle, scope: ContentScope): SQL | undefined {
  const inModules = moduleCondition(on, scope, lessons.courseModuleId);
  if (scope.kind !== 'enrollment') return inModules;
  return and(inModules, eq(lessons.available, true));
}
