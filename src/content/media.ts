import { and, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import { lessons } from '../modules/courses/course.table.js';
import { extraContents } from '../modules/extra-contents/extra-content.table.js';
import { media } from '../modules/media/media.table.js';
import type { DbHandle } from './reader.js';
import { type ContentScope, lessonCondition, productCourseIds } from './scope.js';

/**
 * The media of a scope: of its lessons (through an enrollment, released ones) and of its extra
 * contents (the product's own, its courses' and its lessons'; through an enrollment, available
 * ones). Undefined for the whole school.
 */
export function mediaCondition(on: DbHandle, scope: ContentScope): SQL | undefined {
  if (scope.kind === 'school') return undefined;
  if (scope.kind === 'nothing') return sql`false`;
  const { db } = on;
  const lessonsOfScope = lessonCondition(on, scope);
  const ofLessons = db
    .select({ id: lessons.mediaId })
    .from(lessons)
    .where(and(lessonsOfScope, isNotNull(lessons.mediaId)));
  const ofExtraContents = db
    .select({ id: extraContents.mediaId })
    .from(extraContents)
    .where(
      and(
        scope.kind === 'enrollment' ? eq(extraContents.available, true) : undefined,
        or(
          and(eq(extraContents.resourceType, 'SchoolProduct'), eq(extraContents.resourceId, scope.productId)),
          and(eq(extraContents.resourceType, 'Course'), inArray(extraContents.resourceId, productCourseIds(on, scope.productId))),
          and(eq(extraContents.resourceType, 'Lesson'), inArray(extraContents.resourceId, db.select({ id: lessons.id }).from(lessons).where(lessonsOfScope))),
        ),
      ),
    );
  return inArray(media.id, ofLessons.union(ofExtraContents));
}
