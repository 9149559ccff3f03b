import { byIdLoader, childrenLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { pathCourses, paths } from '../paths/path.table.js';
import { courseRanks, lessonRanks } from '../../content/order.js';
import { linkedRowsLoader, productRowsLoader } from '../content/related-rows.js';
import { courseModuleLinks, courseModules, courses, lessons } from './course.table.js';

export const courseById = byIdLoader('course.byId', courses);
export const courseModuleById = byIdLoader('courseModule.byId', courseModules);
export const lessonById = byIdLoader('lesson.byId', lessons);

/** The module ids of each course, in the course's order. */
export const moduleIdsOfCourse = linkedIdsLoader(
  'course.courseModulesIds',
  courseModuleLinks,
  courseModuleLinks.courseId,
  courseModuleLinks.courseModuleId,
  courses,
  courseModuleLinks.position,
);

/** The modules of each course, in the course's order: one statement for the batch. */
export const modulesOfCourse = linkedRowsLoader('course.modules', courseModuleLinks, courseModuleLinks.courseId, courseModuleLinks.courseModuleId, courseModules, [
  courseModuleLinks.position,
  courseModuleLinks.courseModuleId,
]);

/** The paths holding each course (in path id order). */
export const pathsOfCourse = linkedRowsLoader('course.paths', pathCourses, pathCourses.courseId, pathCourses.pathId, paths, [paths.id]);

/** The lessons of each module, by position (then id). */
export const lessonsOfModule = childrenLoader('courseModule.lessons', lessons, lessons.courseModuleId, [lessons.position]);

/** The courses of each school product (its own, then through its paths), in the product's order. */
export const coursesOfProduct = productRowsLoader('schoolProduct.courses', courseRanks, courses);

/** The lessons of each school product, in the product's order (release rules are applied by the caller). */
export const lessonsOfProduct = productRowsLoader('schoolProduct.lessons', lessonRanks, lessons);
