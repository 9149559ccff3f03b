import { text } from 'drizzle-orm/pg-core';
import { orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { listTable, schoolTable } from '../../db/tables.js';
import { courses } from '../courses/course.table.js';

/** A learning path: an ordered list of courses. */
export const paths = schoolTable(
  'paths',
  {
    name: text().notNull(),
    description: text(),
    imageUrl: text(),
    code: text(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    uniqueIndexOn(t.schoolId, t.code),
  ],
);

export const pathCourses = listTable('path_courses', { pathId: () => paths.id, courseId: () => courses.id });

export type PathRow = typeof paths.$inferSelect;
export type PathCourseRow = typeof pathCourses.$inferSelect;
