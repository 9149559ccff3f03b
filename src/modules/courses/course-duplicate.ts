import { and, eq, getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import { databaseColumnName } from '../../db/driver-adapter.js';
import { activities, examQuestionAssertions, examQuestionOptions, examQuestions } from '../activities/activity.table.js';
import { emitRowEvent } from '../events/events.js';
import { courseModuleLinks as links, courseModules, type CourseRow, courses, lessons } from './course.table.js';
import { rowsOf } from '../../db/rows.js';

/**
 * The deep copy of a course: the course, its modules (new modules, linked to the copy in the same
 * order), their lessons, and through the activities tables their activities, exam questions,
 * options and assertions. Students' work (exam answers) is not copied; the copy belongs to no
 * product or path and has no classes. It runs inside the caller's transaction, one set-based
 * `INSERT ... SELECT` per table (a fixed number of statements, whatever the size of the course).
 *
 * Each level allocates the new ids from the table's identity sequence in a CTE, inserts the copies
 * under those ids, and returns the old → new pairs, which the next level receives back as one JSON
 * parameter to find its parents' copies.
 */
type Pairs = { old_id: number; new_id: number }[];
type Copyable = PgTable & { id: PgColumn };

const columnName = (column: PgColumn) => sql.identifier(databaseColumnName(column));

function pairsOf(result: unknown): Pairs {
  return rowsOf(result).map((r) => ({ old_id: Number(r.old_id), new_id: Number(r.new_id) }));
}

/** The rows of `table` whose `parent` was copied, with the copy of their parent: `(old_id, parent_new)`. */
function childrenOf(table: Copyable, parent: PgColumn, parents: Pairs): SQL {
  return sql`select src.id as old_id, pm.new_id as parent_new
    from ${table} src
    join jsonb_to_recordset(${JSON.stringify(parents)}::jsonb) as pm(old_id int, new_id int) on src.${columnName(parent)} = pm.old_id`;
}

/**
 * Copies the rows named by `source` (`old_id`, `parent_new`), every column as it is except the id,
 * the timestamps and (when given) the parent reference, which points at the parent's copy.
 */
async function copyRows(tx: Queryable, table: Copyable, source: SQL, parent: PgColumn | null): Promise<Pairs> {
  const skip = new Set<unknown>([table.id, parent, (table as any).createdAt, (table as any).updatedAt]);
  const copied = Object.values(getTableColumns(table)).filter((c) => !skip.has(c)) as PgColumn[];
  const targets = sql.join([sql`id`, ...(parent ? [columnName(parent)] : []), ...copied.map(columnName)], sql`, `);
  const values = sql.join(
    [sql`map.new_id`, ...(parent ? [sql`map.parent_new`] : []), ...copied.map((c) => sql`src.${columnName(c)}`)],
    sql`, `,
  );
  const name = getTableName(table);
  const result = await tx.execute(sql`
    with map as (
      select s.old_id, nextval(pg_get_serial_sequence(${name}, 'id'))::int as new_id, s.parent_new
      from (select distinct on (old_id) old_id, parent_new from (${source}) as named order by old_id) as s
    ), copied as (
      insert into ${table} (${targets})
      select ${values} from map join ${table} src on src.id = map.old_id
    )
    select old_id, new_id from map`);
  return pairsOf(result);
}

/** `<code>-copy`, then `<code>-copy-2`, `-copy-3`, ...: the first code free in the school. */
async function copyCode(tx: Queryable, schoolId: number, code: string | null): Promise<string | null> {
  if (!code) return null;
  const base = `${code}-copy`;
  const taken = await tx
    .select({ code: courses.code })
    .from(courses)
    .where(and(eq(courses.schoolId, schoolId), sql`(${courses.code} = ${base} or starts_with(${courses.code}, ${`${base}-`}))`));
  const used = new Set(taken.map((r) => r.code));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Copies `source` (already locked by the caller) and returns the new course. */
export async function duplicateCourse(tx: Queryable, source: CourseRow): Promise<CourseRow> {
  const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = source;
  const [copy] = await tx
    .insert(courses)
    .values({ ...fields, name: `${source.name} (copy)`, code: await copyCode(tx, source.schoolId, source.code) })
    .returning();

  const modules = await copyRows(
    tx,
    courseModules,
    sql`select ${links.courseModuleId} as old_id, null::int as parent_new from ${links} where ${links.courseId} = ${source.id}`,
    null,
  );
  if (modules.length) {
    await tx.execute(sql`
      insert into ${links} (school_id, course_id, course_module_id, position)
      select l.school_id, ${copy.id}, pm.new_id, l.position
      from ${links} l join jsonb_to_recordset(${JSON.stringify(modules)}::jsonb) as pm(old_id int, new_id int) on l.course_module_id = pm.old_id
      where l.course_id = ${source.id}`);
  }
  // Each level below copies the children of the rows the level above copied.
  const levels: [Copyable, PgColumn][] = [
    [lessons, lessons.courseModuleId],
    [activities, activities.examLessonId],
    [examQuestions, examQuestions.activityId],
    [examQuestionOptions, examQuestionOptions.examQuestionId],
    [examQuestionAssertions, examQuestionAssertions.optionId],
  ];
  let parents = modules;
  for (const [table, parent] of levels) {
    if (!parents.length) break;
    parents = await copyRows(tx, table, childrenOf(table, parent, parents), parent);
  }
  await emitRowEvent(tx, 'course.created', copy, { name: copy.name, code: copy.code, duplicatedFromId: source.id });
  return copy;
}
