import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { momentSql, releaseRule } from '../content/content-release.js';
import type { EnrollmentRow } from '../enrollments/enrollment.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';

export interface ProgressFigures {
  total: number;
  done: number;
  percent: number;
}

/** The columns of the lesson `l` of the statement below, for the release rule. */
const RAW_LESSON = { available: sql`l.available`, releaseAt: sql`l.release_at`, releaseAfter: sql`l.release_after` };

/**
 * The progress of many enrollments in ONE statement. Required items: every lesson the enrollment
 * releases (the product's courses, directly or through its paths; `available`, `release_at` passed,
 * `release_after` days since activation passed: content/content-release.ts' releaseRule),
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
    ), product_courses as (
      select school_product_id, course_id from school_product_courses
      union
      select spp.school_product_id, pc.course_id from school_product_paths spp join path_courses pc on pc.path_id = spp.path_id
    ), released as (
      select distinct e.id as enrollment_id, l.id as lesson_id
      from e
      join product_courses c on c.school_product_id = e.product_id
      join course_module_links m on m.course_id = c.course_id
      join lessons l on l.course_module_id = m.course_module_id
      where ${releaseRule(RAW_LESSON, sql`e.activated`, at)}
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

/** The UTC day of a moment: openings are counted per lesson and day. */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** What an enrollment has used of its attendance: content openings (and whether one is today's), and seconds of time spent. */
export async function attendanceUsage(db: Queryable, enrollment: EnrollmentRow, now: Date): Promise<{ openings: number; openToday: boolean; seconds: number }> {
  const result = await db.execute(sql`
    select (select count(*) from content_openings where enrollment_id = ${enrollment.id})::int as openings,
           exists (select 1 from content_openings where enrollment_id = ${enrollment.id} and day = ${dayOf(now)}::date) as open_today,
           greatest(${enrollment.timeSpent}::int, coalesce((select sum(time_spent) from lesson_progress where enrollment_id = ${enrollment.id}), 0))::int as seconds`);
  const [row] = rowsOf<{ openings: number; open_today: boolean; seconds: number }>(result);
  return { openings: Number(row.openings), openToday: row.open_today === true || (row.open_today as unknown) === 't', seconds: Number(row.seconds) };
}

/**
 * Why an enrollment's attendance limit refuses content now, or null.
 * - `attempts`: max_attendance_length content openings. An opening is the first progress write
 *   for a lesson on a (UTC) day; it lasts the rest of that day. A write that would record one more
 *   than the limit is refused (`newOpening`); reads are refused once the limit is recorded and no
 *   opening is today's.
 * - `time`: max_attendance_length minutes, spent once the time spent (the larger of the
 *   enrollment's time_spent and the sum of its lessons' time spent) reaches them.
 */
export async function attendanceRefusal(db: Queryable, enrollment: EnrollmentRow, now: Date, newOpening: boolean | null): Promise<string | null> {
  const limit = enrollment.maxAttendanceLength;
  if (enrollment.maxAttendanceType === 'indeterminate' || !limit) return null;
  const used = await attendanceUsage(db, enrollment, now);
  if (enrollment.maxAttendanceType === 'attempts') {
    const spent = newOpening === null ? used.openings >= limit && !used.openToday : newOpening && used.openings + 1 > limit;
    return spent ? `This enrollment has used its ${limit} content openings (max_attendance_type attempts)` : null;
  }
  return used.seconds >= limit * 60
    ? `This enrollment has used its ${limit} minutes of attendance (max_attendance_type time; ${Math.floor(used.seconds / 60)} minutes spent)`
    : null;
}
