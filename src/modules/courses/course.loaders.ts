import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool } from '../../auth/tenancy.js';
import { defineLoader } from '../../graphql/context.js';
import { byIdLoader, childrenLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { pathCourses, paths, type PathRow } from '../paths/path.table.js';
import { courseRanks, lessonRanks } from '../content/content-order.js';
import { courseModuleLinks, courseModules, type CourseModuleRow, type CourseRow, courses, type LessonRow, lessons } from './course.table.js';

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

/** Groups `{ parentId, row }` results by parent, in the keys' order. */
function byParent<V>(keys: readonly number[], rows: { parentId: number; row: V }[]): V[][] {
  const grouped = new Map<number, V[]>();
  for (const r of rows) {
    const list = grouped.get(r.parentId);
    if (list) list.push(r.row);
    else grouped.set(r.parentId, [r.row]);
  }
  return keys.map((k) => grouped.get(k) ?? []);
}

/** The modules of each course, in the course's order: one statement for the batch. */
export const modulesOfCourse = defineLoader<number, CourseModuleRow[]>('course.modules', async (ctx, courseIds) => {
  const rows = await ctx.db
    .select({ parentId: courseModuleLinks.courseId, row: getTableColumns(courseModules) })
    .from(courseModuleLinks)
    .innerJoin(courseModules, eq(courseModules.id, courseModuleLinks.courseModuleId))
    .where(and(inList(courseModuleLinks.courseId, [...courseIds]), inSchool(ctx, courseModules.schoolId)))
    .orderBy(asc(courseModuleLinks.courseId), asc(courseModuleLinks.position), asc(courseModuleLinks.courseModuleId));
  return byParent(courseIds, rows);
});

/** The paths holding each course (in path id order). */
export const pathsOfCourse = defineLoader<number, PathRow[]>('course.paths', async (ctx, courseIds) => {
  const rows = await ctx.db
    .select({ parentId: pathCourses.courseId, row: getTableColumns(paths) })
    .from(pathCourses)
    .innerJoin(paths, eq(paths.id, pathCourses.pathId))
    .where(and(inList(pathCourses.courseId, [...courseIds]), inSchool(ctx, paths.schoolId)))
    .orderBy(asc(pathCourses.courseId), asc(paths.id));
  return byParent(courseIds, rows);
});

/** The lessons of each module, by position (then id). */
export const lessonsOfModule = childrenLoader('courseModule.lessons', lessons, lessons.courseModuleId, [lessons.position]);

/** The courses of each school product (its own, then through its paths), in the product's order. */
export const coursesOfProduct = defineLoader<number, CourseRow[]>('schoolProduct.courses', async (ctx, productIds) => {
  const ranks = courseRanks(ctx.db, [...productIds]);
  const rows = await ctx.db
    .select({ parentId: ranks.productId, row: getTableColumns(courses) })
    .from(ranks)
    .innerJoin(courses, eq(courses.id, ranks.id))
    .where(inSchool(ctx, courses.schoolId))
    .orderBy(asc(ranks.productId), asc(ranks.rank));
  return byParent(productIds, rows);
});

/** The lessons of each school product, in the product's order (release rules are applied by the caller). */
export const lessonsOfProduct = defineLoader<number, LessonRow[]>('schoolProduct.lessons', async (ctx, productIds) => {
  const ranks = lessonRanks(ctx.db, [...productIds]);
  const rows = await ctx.db
    .select({ parentId: ranks.productId, row: getTableColumns(lessons) })
    .from(ranks)
    .innerJoin(lessons, eq(lessons.id, ranks.id))
    .where(inSchool(ctx, lessons.schoolId))
    .orderBy(asc(ranks.productId), asc(ranks.rank));
  return byParent(productIds, rows);
});
