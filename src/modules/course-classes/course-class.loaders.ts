import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import { courseClasses } from './course-class.table.js';

export const courseClassById = byIdLoader('courseClass.byId', courseClasses);
/** The classes of each course, in id order. */
export const classesOfCourse = childrenLoader('course.classes', courseClasses, courseClasses.courseId);
