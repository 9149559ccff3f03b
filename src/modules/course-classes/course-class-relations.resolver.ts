import 'reflect-metadata';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { courseById } from '../courses/course.loaders.js';
import type { CourseRow } from '../courses/course.table.js';
import { Course } from '../courses/course.type.js';
import { classesOfCourse } from './course-class.loaders.js';
import type { CourseClassRow } from './course-class.table.js';
import { CourseClass } from './course-class.type.js';

/** `CourseClass.course`, through the courses' own loader (so it batches with every other course read). */
@Resolver(() => CourseClass)
export class CourseClassFieldsResolver {
  @FieldResolver(() => Course)
  course(@Root() courseClass: CourseClassRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(courseById).load(courseClass.courseId);
  }
}

/** `Course.classes`: what `/courses/:id/course_classes` lists, as a field. */
@Resolver(() => Course)
export class CourseClassesOfCourseResolver {
  @FieldResolver(() => [CourseClass], { description: "The course's classes, in id order." })
  classes(@Root() course: CourseRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(classesOfCourse).load(course.id);
  }
}
