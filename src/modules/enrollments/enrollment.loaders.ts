import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { inList, inListPlaceholder } from '../../db/columns.js';
import { inSchool, ownRows, ownStudentId } from '../../auth/tenancy.js';
import { type Context, defineLoader } from '../../graphql/context.js';
import { byIdLoader, linkedIdsLoader, narrowedVariants, schoolScopedRead } from '../../graphql/loaders.js';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import { childConnectionLoaders } from '../../graphql/pagination.js';
import { users } from '../users/user.table.js';
import { enrollmentCourseClasses, enrollments, registrations } from './enrollment.table.js';

/** The enrollments the caller may see: its school's, and for a student credential only its own. */
export function visibleEnrollments(ctx: Context): SQL | undefined {
  return and(inSchool(ctx, enrollments.schoolId), ownRows(ctx, enrollments.studentId));
}

export function visibleRegistrations(ctx: Context): SQL | undefined {
  return and(inSchool(ctx, registrations.schoolId), ownRows(ctx, registrations.studentId));
}


export const enrollmentById = byIdLoader('enrollment.byId', enrollments, visibleEnrollments);
export const registrationById = byIdLoader('registration.byId', registrations, visibleRegistrations);

/**
 * Students of the caller's school by id (a student credential sees only itself), all their columns or
 * only `selected` ones; for the usual reader, of one school or of every school, in a statement built once.
 */
function studentLoader(name: string, selected?: Record<string, PgColumn>) {
  const select = (db: Queryable) => (selected ? db.select(selected) : db.select()).from(users);
  const studentsOfSchool = schoolScopedRead<typeof users.$inferSelect>(
    users,
    name,
    (db, where) => select(db).where(where),
    and(inListPlaceholder(users.id, 'keys'), eq(users.type, 'Student')),
  );
  return defineLoader<number, typeof users.$inferSelect | null>(name, async (ctx, ids) => {
    const rows =
      (ownStudentId(ctx) === null ? await studentsOfSchool(ctx, { keys: [...ids] }) : null) ??
      ((await select(ctx.db).where(
        and(inList(users.id, [...ids]), eq(users.type, 'Student'), inSchool(ctx, users.schoolId), ownRows(ctx, users.id)),
      )) as (typeof users.$inferSelect)[]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/** Students of the caller's school by id; `narrowed` reads only the columns asked for (with the id and school). */
export const studentById = Object.assign(studentLoader('enrollment.studentById'), {
  table: users,
  narrowed: narrowedVariants('enrollment.studentById', users, ['id', 'schoolId'], studentLoader),
});

export { courseClassById } from '../course-classes/course-class.loaders.js';

export const courseClassIdsOfEnrollment = linkedIdsLoader(
  'enrollment.courseClassIds',
  enrollmentCourseClasses,
  enrollmentCourseClasses.enrollmentId,
  enrollmentCourseClasses.courseClassId,
  enrollments,
);

export const enrollmentsOfStudent = childConnectionLoaders('student.enrollments', enrollments, enrollments.studentId, visibleEnrollments);
export const enrollmentsOfProduct = childConnectionLoaders('schoolProduct.enrollments', enrollments, enrollments.schoolProductId, visibleEnrollments);
export const enrollmentsOfRegistration = childConnectionLoaders(
  'registration.enrollments',
  enrollments,
  enrollments.registrationId,
  visibleEnrollments,
);

/** The enrollments in a course class, as a condition on enrollments.id. */
export const inCourseClass = (courseClassId: number): SQL =>
  inArray(
    enrollments.id,
    sql`(select ${enrollmentCourseClasses.enrollmentId} from ${enrollmentCourseClasses} where ${enrollmentCourseClasses.courseClassId} = ${courseClassId})`,
  );
