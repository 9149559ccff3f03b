import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { LESSON_L, momentSql, releaseRule } from '../../content/release.js';
import { PRODUCT_COURSES } from '../../content/scope.js';
import { enrollments } from '../enrollments/enrollment.table.js';

/** Required items and those done, and the percent (floor(100 * done / total), 0 when nothing is required). */
export interface Figure {
  total: number;
  done: number;
  percent: number;
}

/**
 * An enrollment's two figures: `progress` of what its product releases to it now, and `completion`
 * of the whole product (released or still locked by drip).
 */
export interface ProgressFigures {
  progress: Figure;
  completion: Figure;
}

const figure = (total: number, done: number): Figure => ({ total, done, percent: total === 0 ? 0 : Math.floor((100 * done) / total) });

/** The figures of an enrollment with nothing required (an unknown one). */
export const NO_FIGURES: ProgressFigures = { progress: figure(0, 0), completion: figure(0, 0) };

/**
 * The progress and completion of many enrollments in ONE statement. Required items: every available
 * lesson of the product (its courses, directly or through its paths), and every activity on such a
 * lesson. `completion` counts them all; `progress` only those on a lesson the enrollment releases now
 * (`release_at` passed, `release_after` days since activation passed: src/content/release.ts'
 * releaseRule). An unavailable lesson is never shown to a student, so it is never required. A lesson is
 * done when its progress is completed; an activity when it has a passed attempt.
 */
export async function progressOf(db: Queryable, ids: readonly number[], now: Date, visible?: SQL): Promise<Map<number, ProgressFigures>> {
  const figures = new Map<number, ProgressFigures>();
  if (ids.length === 0) return figures;
  const at = momentSql(now);
  const result = await db.execute(sql`
    with e as (
      select ${enrollments.id} as id, ${enrollments.schoolProductId} as product_id, coalesce(${enrollments.activatedAt}, ${at}) as activated
      from ${enrollments} where ${inArray(enrollments.id, [...ids])} ${visible ? sql`and ${visible}` : sql``}
    ), product_courses as (${PRODUCT_COURSES}), required as (
      select distinct e.id as enrollment_id, l.id as lesson_id, ${releaseRule(LESSON_L, sql`e.activated`, at)} as released
      from e
      join product_courses c on c.school_product_id = e.product_id
      join course_module_links m on m.course_id = c.course_id
      join lessons l on l.course_module_id = m.course_module_id
      where l.available
    ), items as (
      select r.enrollment_id, r.released, p.completed_at is not null as done
      from required r left join lesson_progress p on p.enrollment_id = r.enrollment_id and p.lesson_id = r.lesson_id
      union all
      select r.enrollment_id, r.released, exists (select 1 from activity_attempts t where t.enrollment_id = r.enrollment_id and t.activity_id = a.id and t.passed)
      from required r join activities a on a.exam_lesson_id = r.lesson_id
    )
    select e.id,
      count(i.enrollment_id)::int as total, count(*) filter (where i.done)::int as done,
      count(*) filter (where i.released)::int as released_total, count(*) filter (where i.released and i.done)::int as released_done
    from e left join items i on i.enrollment_id = e.id group by e.id`);
  type Row = { id: number; total: number; done: number; released_total: number; released_done: number };
  for (const row of rowsOf<Row>(result)) {
    figures.set(Number(row.id), {
      progress: figure(Number(row.released_total), Number(row.released_done)),
      completion: figure(Number(row.total), Number(row.done)),
    });
  }
  return figures;
}
