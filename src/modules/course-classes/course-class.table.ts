import { sql } from 'drizzle-orm';
import { boolean, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { codedRowIndexes, orderedIndex } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { courses } from '../courses/course.table.js';

export const courseClasses = schoolTable(
  'course_classes',
  {
    courseId: belongsTo(() => courses.id),
    code: text(),
    startAt: tstz(),
    endAt: tstz(),
    main: boolean().notNull().default(false),
  },
  (t) => [
    ...codedRowIndexes(t),
    orderedIndex(t.courseId, t.id),
    // At most one main class per course.
    uniqueIndex('course_classes_course_id_main_key').on(t.courseId, t.schoolId).where(sql`${t.main}`),
  ],
);

export type CourseClassRow = typeof courseClasses.$inferSelect;
