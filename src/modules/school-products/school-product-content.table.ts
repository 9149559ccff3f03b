import { integer, pgTable } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { linkKeys } from '../../db/tables.js';
import { schoolProducts } from './school-product.table.js';
import { courses } from '../courses/course.table.js';
import { paths } from '../paths/path.table.js';

/** The content of a school product: its courses and learning paths, in order. */
export const schoolProductCourses = pgTable(
  'school_product_courses',
  {
    schoolProductId: belongsTo(() => schoolProducts.id),
    courseId: belongsTo(() => courses.id),
    position: integer().notNull().default(0),
  },
  (t) => linkKeys(t.schoolProductId, t.courseId),
);

export const schoolProductPaths = pgTable(
  'school_product_paths',
  {
    schoolProductId: belongsTo(() => schoolProducts.id),
    pathId: belongsTo(() => paths.id),
    position: integer().notNull().default(0),
  },
  (t) => linkKeys(t.schoolProductId, t.pathId),
);

export type SchoolProductCourseRow = typeof schoolProductCourses.$inferSelect;
export type SchoolProductPathRow = typeof schoolProductPaths.$inferSelect;
