import { byIdLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { linkedRowsLoader } from '../content/related-rows.js';
import { courses } from '../courses/course.table.js';
import { schoolProductPaths } from '../school-products/school-product-content.table.js';
import { pathCourses, paths } from './path.table.js';

export const pathById = byIdLoader('path.byId', paths);

/** The course ids of each path, in the path's order. */
export const courseIdsOfPath = linkedIdsLoader('path.courseIds', pathCourses, pathCourses.pathId, pathCourses.courseId, paths, pathCourses.position);

/** The courses of each path, in the path's order: one statement for every path of the batch. */
export const coursesOfPath = linkedRowsLoader('path.courses', pathCourses, pathCourses.pathId, pathCourses.courseId, courses, [pathCourses.position, pathCourses.courseId]);

/** The paths of each school product, in the product's order: one statement for every product of the batch. */
export const pathsOfProduct = linkedRowsLoader('schoolProduct.paths', schoolProductPaths, schoolProductPaths.schoolProductId, schoolProductPaths.pathId, paths, [
  schoolProductPaths.position,
  schoolProductPaths.pathId,
]);
