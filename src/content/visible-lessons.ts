import { sql, type SQL } from 'drizzle-orm';
import { courseModuleLinks, lessons } from '../modules/courses/course.table.js';
import { enrollments } from '../modules/enrollments/enrollment.table.js';
import { momentSql, releaseRule } from './release.js';
import { PRODUCT_COURSES } from './scope.js';

/**
 * The lessons a student sees across all its enrollments at once (search, which has no enrollment to
 * scope by): a lesson of a course of the product of one of its active enrollments, released to that
 * enrollment (release.ts' releaseRule, from the enrollment's activation). "Active" is scope.ts'
 * isActiveEnrollment as SQL. A condition on the `lessons` table; tenancy stays the caller's.
 */
export function lessonsOfStudent(studentId: number, now: Date): SQL {
  const at = momentSql(now);
  return sql`exists (select 1 from ${enrollments}
    join (${PRODUCT_COURSES}) product_courses on product_courses.school_product_id = ${enrollments.schoolProductId}
    join ${courseModuleLinks} on ${courseModuleLinks.courseId} = product_courses.course_id
    where ${courseModuleLinks.courseModuleId} = ${lessons.courseModuleId}
      and ${enrollments.studentId} = ${studentId}
      and ${enrollments.schoolId} = ${lessons.schoolId}
      and ${enrollments.status} = 'active'
      and (${enrollments.unlimited} or ${enrollments.availableUntil} is null or ${enrollments.availableUntil} > ${at})
      and ${releaseRule(lessons, sql`coalesce(${enrollments.activatedAt}, ${at})`, at)})`;
}
