import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { LESSON_L, momentSql, releaseRule } from '../../content/release.js';
import { PRODUCT_COURSES } from '../../content/scope.js';
import { enrollments } from '../enrollments/enrollment.table.js';

export interface ProgressFigures {
  total: number;
  done: number;
  percent: number;
}

/**
 * The progress of many enrollments in ONE statement. Required items: every lesson the enrollment
 * releases (the product's courses, directly or through its paths; `available`, `release_at` passed,
 * `release_after` days since activation passed: src/content/release.ts' releaseRule),
 * and every activity on such a lesson. A lesson is done when its progress is completed; an activity
 * when it has a passed attempt. percent = floor(100 * done / total), 0 when nothing is required.
 */
export async function progressOf(db: Queryable, ids: readonly number[], now: Date, visible?: SQL): Promise<Map<number, ProgressFigures>> {
  const figures = new Map<number, ProgressFigures>();
  if (ids.length === 0) return figures;
  const at = momentSql(now);
  const result = await db.execute(sql`
    with e as (
      select ${enrollments.id} as id, ${enrollments.schoolProductId} as product_id, coalesce(${enrollments.activatedAt}, ${at}) as activated
      from ${enrollments} where ${inArray(enrollments.id, [...ids])} ${visible ? sql`and ${visible}` : sql``}
    ), product_courses as (${PRODUCT_COURSES}), released as (
      select distinct e.id as enrollment_id, l.id as lesson_id
      from e
      join product_courses c on c.school_product_id = e.product_id
      join course_module_links m on m.course_id = c.course_id
      join lessons l on l.course_module_id = m.course_module_id
      where ${releaseRule(LESSON_L, sql`e.activated`, at)}
    ), items as (
      select r.enrollment_id, p.completed_at is not null as done
      from released r left join lesson_progress p on p.enrollment_id = r.enrollment_id and p.lesson_id = r.lesson_id
      union all
      select r.enrollment_id, exists (select 1 from activity_attempts t where t.enrollment_id = r.enrollment_id and t.activity_id = a.id and t.passed)
      from released r join activities a on a.exam_lesson_id = r.lesson_id
    )
    select e.id, count(i.enrollment_id)::int as total, count(*) filter (where i.done)::int as done
    from e left join items i on i.enrollment_id = e.id group by e.id`);
  for (const row of rowsOf<{ id: number; total: number; done: number }>(result)) {
    const total = Number(row.total);
    const done = Number(row.done);
    figures.set(Number(row.id), { total, done, percent: total === 0 ? 0 : Math.floor((100 * done) / total) });
  }
  return figures;
}
