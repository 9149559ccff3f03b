import 'reflect-metadata';
import { relationsResolver } from '../../graphql/relations.js';
import { courseById } from '../courses/course.loaders.js';
import type { CourseRow } from '../courses/course.table.js';
import { Course } from '../courses/course.type.js';
import { classesOfCourse } from './course-class.loaders.js';
import type { CourseClassRow } from './course-class.table.js';
import { CourseClass } from './course-class.type.js';

/** `CourseClass.course`, through the courses' own loader (so it batches with every other course read). */
export const CourseClassFieldsResolver = relationsResolver<CourseClassRow>(CourseClass, {
  course: { type: () => Course, loader: courseById, key: 'courseId' },
});

/** `Course.classes`: what `/courses/:id/course_classes` lists, as a field. */
export const CourseClassesOfCourseResolver = relationsResolver<CourseRow>(Course, {
  classes: { type: () => [CourseClass], loader: classesOfCourse, key: 'id', description: "The course's classes, in id order." },
});
