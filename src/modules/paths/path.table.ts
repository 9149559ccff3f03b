import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { courses } from '../courses/course.table.js';

/** A learning path: an ordered list of courses. */
export const paths = pgTable(
  'paths',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text().notNull(),
    description: text(),
    imageUrl: text(),
    code: text(),
    ...timestamps,
  },
  (t) => [
    index('paths_school_id_idx').on(t.schoolId, t.id),
    uniqueIndex('paths_school_id_code_key').on(t.schoolId, t.code),
  ],
);

export const pathCourses = pgTable(
  'path_courses',
  {
    pathId: belongsTo(() => paths.id),
    courseId: belongsTo(() => courses.id),
    position: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.pathId, t.courseId] }), index('path_courses_course_id_idx').on(t.courseId)],
);

export type PathRow = typeof paths.$inferSelect;
export type PathCourseRow = typeof pathCourses.$inferSelect;
