import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { EnrollmentRow } from '../modules/enrollments/enrollment.table.js';

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
