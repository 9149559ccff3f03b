import { and, asc, count, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.js';
import { inListPlaceholder } from '../db/columns.js';
import { courseModuleLinks as links, lessons } from '../modules/courses/course.table.js';
import { pathCourses } from '../modules/paths/path.table.js';
import { schoolProductCourses as spc, schoolProductPaths as spp } from '../modules/school-products/school-product-content.table.js';
import { childRowOf, PARENT_KEY } from '../db/rows.js';
import type { Reader } from './reader.js';

/**
 * The products a ranking is of: their ids, or PRODUCT_IDS, the placeholder `productIds` of a
 * statement built once (its ids given as an array at each execution).
 */
export const PRODUCT_IDS = Symbol('productIds');
export type ProductIds = number[] | typeof PRODUCT_IDS;

const inProducts = (column: PgColumn, productIds: ProductIds): SQL =>
  productIds === PRODUCT_IDS ? inListPlaceholder(column, 'productIds') : inArray(column, productIds);

/** A product's content id with its rank within the product: by `order`, then by id. */
function rankedInProduct<P, I>(productId: P, id: I, order: SQL) {
  return {
    productId,
    id,
    rank: sql<number>`(row_number() over (partition by ${productId} order by ${order}, ${id}))::int`.mapWith(Number).as('rank'),
  };
}

/**
 * The order of a school product's content, as its students walk it: the product's own courses in
 * their position order, then the courses of its paths (path by path, each in the path's order), a
 * course counted once at its first place; the modules of those courses in that order (each course
 * orders its modules); the lessons of each module by position. Each builder ranks the content of
 * several products at once (`rank` restarts at 1 for each product), so a nested field loads the
 * content of a whole batch of products in one statement.
 */
export function courseRanks(db: Db, productIds: ProductIds) {
  const direct = db
    .select({ productId: spc.schoolProductId, courseId: spc.courseId, key: sql<number[]>`array[0, ${spc.position}, 0]`.as('key') })
    .from(spc)
    .where(inProducts(spc.schoolProductId, productIds));
  const viaPaths = db
    .select({ productId: spp.schoolProductId, courseId: pathCourses.courseId, key: sql<number[]>`array[1, ${spp.position}, ${pathCourses.position}]`.as('key') })
    .from(spp)
    .innerJoin(pathCourses, eq(pathCourses.pathId, spp.pathId))
    .where(inProducts(spp.schoolProductId, productIds));
  const content = unionAll(direct, viaPaths).as('product_content');
  return db
    .select(rankedInProduct(content.productId, content.courseId, sql`min(${content.key})`))
    .from(content)
    .groupBy(content.productId, content.courseId)
    .as('course_ranks');
}

export function moduleRanks(db: Db, productIds: ProductIds) {
  const c = courseRanks(db, productIds);
  return db
    .select(rankedInProduct(c.productId, links.courseModuleId, sql`min(array[${c.rank}, ${links.position}])`))
    .from(c)
    .innerJoin(links, eq(links.courseId, c.id))
    .groupBy(c.productId, links.courseModuleId)
    .as('module_ranks');
}

export function lessonRanks(db: Db, productIds: ProductIds) {
  const m = moduleRanks(db, productIds);
  return db
    .select(rankedInProduct(m.productId, lessons.id, sql`${m.rank}, ${lessons.position}`))
    .from(m)
    .innerJoin(lessons, eq(lessons.courseModuleId, m.id))
    .as('lesson_ranks');
}

/** The rows of `table` under one parent, ranked by position (then id). */
function positionRanks(db: Db, table: PgTable, id: PgColumn, position: PgColumn, parent: PgColumn, parentId: number, name: string) {
  return db
    .select({ id, rank: sql<number>`(row_number() over (order by ${position}, ${id}))::int`.mapWith(Number).as('rank') })
    .from(table)
    .where(eq(parent, parentId))
    .as(name);
}

/** The modules of one course in the course's order. */
export function courseModuleRanks(db: Db, courseId: number) {
  return positionRanks(db, links, links.courseModuleId, links.position, links.courseId, courseId, 'course_module_ranks');
}

/** The lessons of one module by position (then id). */
export function moduleLessonRanks(db: Db, moduleId: number) {
  return positionRanks(db, lessons, lessons.id, lessons.position, lessons.courseModuleId, moduleId, 'module_lesson_ranks');
}

/** The paths of one product in the product's order. */
export function productPathRanks(db: Db, productId: number) {
  return positionRanks(db, spp, spp.pathId, spp.position, spp.schoolProductId, productId, 'product_path_ranks');
}

/** Ids with their rank (a ranking above, as a subquery). */
export type Ranked = { id: PgColumn | SQL.Aliased; rank: SQL.Aliased<number> };
export type TableWithId = PgTable & { id: PgColumn };

/** Which rows a page holds: `limit` rows (one more is read, to tell whether a next page exists) after `offset`, or after the row `afterId`. */
export interface PageWindow {
  limit: number;
  offset: number;
  afterId: number | null;
}

/**
 * One page of `table`'s rows that have a rank (and match `where`), in rank order, with one row more
 * than the window's limit, and their count on demand. The page after a row starts after its rank.
 */
export async function rankedRows<T extends TableWithId>(
  db: Db,
  table: T,
  ranks: Ranked & object,
  where: SQL | undefined,
  window: PageWindow,
): Promise<{ rows: (T['$inferSelect'] & { id: number })[]; count: () => Promise<number> }> {
  type Row = T['$inferSelect'] & { id: number };
  const r = db.$with('ranks').as(db.select({ id: ranks.id as PgColumn, rank: ranks.rank }).from(ranks as never));
  const after =
    window.afterId === null ? undefined : sql`${r.rank} > coalesce((select ${r.rank} from ${r} where ${r.id} = ${window.afterId}), 2147483647)`;
  const found = await db
    .with(r)
    .select({ row: table as PgTable, rank: r.rank })
    .from(table as PgTable)
    .innerJoin(r, eq(r.id, table.id))
    .where(and(where, after))
    .orderBy(asc(r.rank))
    .limit(window.limit + 1)
    .offset(window.offset);
  const rows = found.map((f) => (f as unknown as { row: Row }).row);
  const counted = () =>
    db
      .with(r)
      .select({ n: count() })
      .from(table as PgTable)
      .innerJoin(r, eq(r.id, table.id))
      .where(where)
      .then(([c]) => Number(c.n));
  return { rows, count: counted };
}

/** A ranking of several products' content (courseRanks, lessonRanks): each product's ids with their rank. */
export type ProductRanks = (db: Db, productIds: ProductIds) => { productId: SQL.Aliased<number> | PgColumn; id: SQL.Aliased<number> | PgColumn; rank: SQL.Aliased<number> };

/**
 * The select of `table`'s rows in each of `productIds` that match `where`, in the product's order
 * (`ranks`), each with its product (under PARENT_KEY, beside the row's columns: a flat select):
 * `productIds` may be PRODUCT_IDS, for a statement built once. Only the `selected` columns of the rows when given (a narrowed read), every column otherwise.
 */
export function productRowsSelect<T extends TableWithId>(
  db: Db,
  ranks: ProductRanks,
  table: T,
  productIds: ProductIds,
  where: SQL | undefined,
  selected?: Record<string, PgColumn>,
) {
  const r = ranks(db, productIds);
  return db
    .select({ ...(selected ?? getTableColumns(table as PgTable)), [PARENT_KEY]: r.productId })
    .from(r as never)
    .innerJoin(table as PgTable, eq(table.id, r.id))
    .where(where)
    .orderBy(asc(r.productId), asc(r.rank));
}

/** The rows of `table` of the reader's school in each of `productIds`, in the product's order (`ranks`): one statement for the batch. */
export async function productRows<T extends TableWithId & { schoolId: PgColumn }>(
  reader: Reader,
  ranks: ProductRanks,
  table: T,
  productIds: readonly number[],
  selected?: Record<string, PgColumn>,
) {
  const rows = (await productRowsSelect(reader.db, ranks, table, [...productIds], reader.inSchool(table.schoolId), selected)) as Record<string, unknown>[];
  const rowOf = childRowOf<T['$inferSelect']>(Object.keys(selected ?? getTableColumns(table as PgTable)));
  return rows.map((r) => ({ parentId: r[PARENT_KEY] as number, row: rowOf(r) }));
}
