import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { linkKeys, schoolTable } from '../../db/tables.js';
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

export const pathCourses = pgTable(
  'path_courses',
  {
    pathId: belongsTo(() => paths.id),
    courseId: belongsTo(() => courses.id),
    position: integer().notNull().default(0),
  },
  (t) => linkKeys(t.pathId, t.courseId),
);

export type PathRow = typeof paths.$inferSelect;
export type PathCourseRow = typeof pathCourses.$inferSelect;
