import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { type ConnectionArgs, type ConnectionData, paginate, toConnection, windowOf } from '../../graphql/pagination.js';
import { pathCourses } from '../paths/path.table.js';
import { schoolProductCourses as spc, schoolProductPaths as spp } from '../school-products/school-product-content.table.js';
import { courseModuleLinks as links, lessons } from '../courses/course.table.js';
import type { ContentScope } from './content-scope.js';
import { scopedPage } from './content-read.js';

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
export function courseRanks(db: Db, productIds: number[]) {
  const direct = db
    .select({ productId: spc.schoolProductId, courseId: spc.courseId, key: sql<number[]>`array[0, ${spc.position}, 0]`.as('key') })
    .from(spc)
    .where(inArray(spc.schoolProductId, productIds));
  const viaPaths = db
    .select({ productId: spp.schoolProductId, courseId: pathCourses.courseId, key: sql<number[]>`array[1, ${spp.position}, ${pathCourses.position}]`.as('key') })
    .from(spp)
    .innerJoin(pathCourses, eq(pathCourses.pathId, spp.pathId))
    .where(inArray(spp.schoolProductId, productIds));
  const content = unionAll(direct, viaPaths).as('product_content');
  return db
    .select(rankedInProduct(content.productId, content.courseId, sql`min(${content.key})`))
    .from(content)
    .groupBy(content.productId, content.courseId)
    .as('course_ranks');
}

export function moduleRanks(db: Db, productIds: number[]) {
  const c = courseRanks(db, productIds);
  return db
    .select(rankedInProduct(c.productId, links.courseModuleId, sql`min(array[${c.rank}, ${links.position}])`))
    .from(c)
    .innerJoin(links, eq(links.courseId, c.id))
    .groupBy(c.productId, links.courseModuleId)
    .as('module_ranks');
}

export function lessonRanks(db: Db, productIds: number[]) {
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

type Ranked = { id: PgColumn | SQL.Aliased; rank: SQL.Aliased<number> };
type TableWithId = PgTable & { id: PgColumn };

/**
 * One page of `table`'s rows that have a rank (and match `where`), in rank order. Cursors are the
 * usual id cursors: the page after a cursor starts after that row's rank.
 */
export async function rankedPage<T extends TableWithId>(
  ctx: Context,
  table: T,
  ranks: Ranked & object,
  where: SQL | undefined,
  args: ConnectionArgs,
): Promise<ConnectionData<T['$inferSelect'] & { id: number }>> {
  type Row = T['$inferSelect'] & { id: number };
  const window = windowOf(args);
  const r = ctx.db.$with('ranks').as(ctx.db.select({ id: ranks.id as PgColumn, rank: ranks.rank }).from(ranks as never));
  const after =
    window.afterId === null ? undefined : sql`${r.rank} > coalesce((select ${r.rank} from ${r} where ${r.id} = ${window.afterId}), 2147483647)`;
  const found = await ctx.db
    .with(r)
    .select({ row: table as PgTable, rank: r.rank })
    .from(table as PgTable)
    .innerJoin(r, eq(r.id, table.id))
    .where(and(where, after))
    .orderBy(asc(r.rank))
    .limit(window.limit + 1)
    .offset(window.offset);
  const rows = found.map((f) => (f as unknown as { row: Row }).row);
  let counted: Promise<number> | undefined;
  const totalCount = () =>
    (counted ??= ctx.db
      .with(r)
      .select({ n: count() })
      .from(table as PgTable)
      .innerJoin(r, eq(r.id, table.id))
      .where(where)
      .then(([c]) => Number(c.n)));
  return toConnection(rows, window, totalCount);
}

/**
 * A list read in a scope: the school's rows in id order, nothing for an inactive enrollment, else the
 * product's rows in its order (`ranks` of the product), carrying the scope to the fields under them.
 */
export async function scopedList<T extends TableWithId>(
  ctx: Context,
  scope: ContentScope,
  table: T,
  where: SQL | undefined,
  args: ConnectionArgs,
  ranks: (productId: number) => Ranked & object,
): Promise<ConnectionData<T['$inferSelect'] & { id: number }>> {
  if (scope.kind === 'school') return paginate(ctx, table, where, args);
  if (scope.kind === 'nothing') return emptyConnection();
  return scopedPage(await rankedPage(ctx, table, ranks(scope.productId), where, args), scope);
}

/** A connection with nothing in it (an inactive enrollment's content). */
export function emptyConnection<T extends { id: number }>(): ConnectionData<T> {
  return toConnection<T>([], { limit: 0, offset: 0, afterId: null }, async () => 0);
}
