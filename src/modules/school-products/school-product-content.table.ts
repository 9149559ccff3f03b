import { index, integer, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { schoolProducts } from './school-product.table.js';
import { courses } from '../courses/course.table.js';
import { paths } from '../paths/path.table.js';

/** The content of a school product: its courses and learning paths, in order. */
export const schoolProductCourses = pgTable(
  'school_product_courses',
  {
    schoolProductId: integer()
      .notNull()
      .references(() => schoolProducts.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.schoolProductId, t.courseId] }),
    index('school_product_courses_course_id_idx').on(t.courseId),
  ],
);

export const schoolProductPaths = pgTable(
  'school_product_paths',
  {
    schoolProductId: integer()
      .notNull()
      .references(() => schoolProducts.id, { onDelete: 'cascade' }),
    pathId: integer()
      .notNull()
      .references(() => paths.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.schoolProductId, t.pathId] }),
    index('school_product_paths_path_id_idx').on(t.pathId),
  ],
);

export type SchoolProductCourseRow = typeof schoolProductCourses.$inferSelect;
export type SchoolProductPathRow = typeof schoolProductPaths.$inferSelect;
