import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { courses } from '../courses/course.table.js';

export const courseClasses = pgTable(
  'course_classes',
  {
    id: id(),
    schoolId: schoolRef(),
    courseId: belongsTo(() => courses.id),
    code: text(),
    startAt: tstz(),
    endAt: tstz(),
    main: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('course_classes_school_id_idx').on(t.schoolId, t.id),
    index('course_classes_course_id_idx').on(t.courseId, t.id),
    uniqueIndex('course_classes_school_id_code_key').on(t.schoolId, t.code),
    // At most one main class per course.
    uniqueIndex('course_classes_course_id_main_key').on(t.courseId).where(sql`${t.main}`),
  ],
);

export type CourseClassRow = typeof courseClasses.$inferSelect;
