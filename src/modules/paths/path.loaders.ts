import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool } from '../../auth/tenancy.js';
import type { Db } from '../../db/client.js';
import { defineLoader } from '../../graphql/context.js';
import { byIdLoader, linkedIdsLoader } from '../../graphql/loaders.js';
import { courses, type CourseRow } from '../courses/course.table.js';
import { schoolProductPaths } from '../school-products/school-product-content.table.js';
import { pathCourses, paths, type PathRow } from './path.table.js';

export const pathById = byIdLoader('path.byId', paths);

/** The course ids of each path, in the path's order. */
export const courseIdsOfPath = linkedIdsLoader('path.courseIds', pathCourses, pathCourses.pathId, pathCourses.courseId, paths, pathCourses.position);

/** The courses of each path, in the path's order: one statement for every path of the batch. */
export const coursesOfPath = defineLoader<number, CourseRow[]>('path.courses', async (ctx, pathIds) => {
  const rows = await ctx.db
    .select({ pathId: pathCourses.pathId, course: getTableColumns(courses) })
    .from(pathCourses)
    .innerJoin(courses, eq(courses.id, pathCourses.courseId))
    .where(and(inList(pathCourses.pathId, [...pathIds]), inSchool(ctx, courses.schoolId)))
    .orderBy(asc(pathCourses.pathId), asc(pathCourses.position), asc(pathCourses.courseId));
  const byPath = new Map<number, CourseRow[]>();
  for (const r of rows) {
    const list = byPath.get(r.pathId) ?? [];
    list.push(r.course);
    byPath.set(r.pathId, list);
  }
  return pathIds.map((id) => byPath.get(id) ?? []);
});

/** The paths of each school product, in the product's order: one statement for every product of the batch. */
export const pathsOfProduct = defineLoader<number, PathRow[]>('schoolProduct.paths', async (ctx, productIds) => {
  const rows = await ctx.db
    .select({ productId: schoolProductPaths.schoolProductId, path: getTableColumns(paths) })
    .from(schoolProductPaths)
    .innerJoin(paths, eq(paths.id, schoolProductPaths.pathId))
    .where(and(inList(schoolProductPaths.schoolProductId, [...productIds]), inSchool(ctx, paths.schoolId)))
    .orderBy(asc(schoolProductPaths.schoolProductId), asc(schoolProductPaths.position), asc(schoolProductPaths.pathId));
  const byProduct = new Map<number, PathRow[]>();
  for (const r of rows) {
    const list = byProduct.get(r.productId) ?? [];
    list.push(r.path);
    byProduct.set(r.productId, list);
  }
  return productIds.map((id) => byProduct.get(id) ?? []);
});

/** The paths of one product ranked in the product's order (for `rankedPage`). */
export function productPathRanks(db: Db, productId: number) {
  return db
    .select({
      id: schoolProductPaths.pathId,
      rank: sql<number>`(row_number() over (order by ${schoolProductPaths.position}, ${schoolProductPaths.pathId}))::int`.mapWith(Number).as('rank'),
    })
    .from(schoolProductPaths)
    .where(eq(schoolProductPaths.schoolProductId, productId))
    .as('product_path_ranks');
}
