import { text } from 'drizzle-orm/pg-core';
import { codedRowIndexes } from '../../db/indexes.js';
import { listTable, schoolTable } from '../../db/tables.js';
import { namedContentColumns } from '../../db/columns.js';
import { courses } from '../courses/course.table.js';

/** A learning path: an ordered list of courses. */
export const paths = schoolTable(
  'paths',
  {
    ...namedContentColumns(),
    code: text(),
  },
  (t) => codedRowIndexes(t),
);

export const pathCourses = listTable('path_courses', { pathId: () => paths.id, courseId: () => courses.id });

export type PathRow = typeof paths.$inferSelect;
