import { listTable } from '../../db/tables.js';
import { schoolProducts } from './school-product.table.js';
import { courses } from '../courses/course.table.js';
import { paths } from '../paths/path.table.js';

/** The content of a school product: its courses and learning paths, in order. */
export const schoolProductCourses = listTable('school_product_courses', {
  schoolProductId: () => schoolProducts.id,
  courseId: () => courses.id,
});

export const schoolProductPaths = listTable('school_product_paths', {
  schoolProductId: () => schoolProducts.id,
  pathId: () => paths.id,
});

