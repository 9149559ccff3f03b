import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { ranOut } from '../enrollments/enrollment.status.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { emitEvents } from '../events/events.js';
import { rowsOf } from '../../db/rows.js';

/** How often each instance sweeps (the event's lateness at most; reads are right at once). */
export const EXPIRY_SWEEP_INTERVAL_MS = 60_000;

/**
 * Records `enrollment.expired` once for every enrollment that has run out. Expiry itself is computed
 * on read (enrollments/enrollment.status.ts); this only announces it. Safe with several instances:
 * the claim is an insert guarded by the unique (enrollment, available_until) key, so of two
 * concurrent sweeps only one inserts a given claim, and only the claims it inserted get events,
 * in the same transaction. Returns how many it recorded.
 */
export async function sweepExpiredEnrollments(db: Queryable, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      insert into enrollment_expirations (school_id, enrollment_id, available_until)
      select ${enrollments.schoolId}, ${enrollments.id}, ${enrollments.availableUntil} from ${enrollments}
      where ${ranOut(now)} and not exists (
        select 1 from enrollment_expirations x where x.enrollment_id = ${enrollments.id} and x.available_until = ${enrollments.availableUntil})
      on conflict (enrollment_id, available_until, school_id) do nothing
      returning school_id, enrollment_id, available_until`);
    const claimed = rowsOf<{ school_id: number; enrollment_id: number; available_until: string | Date }>(result);
    await emitEvents(
      tx,
      claimed.map((c) => ({
        schoolId: Number(c.school_id),
        name: 'enrollment.expired' as const,
        subjectType: 'Enrollment',
        subjectId: Number(c.enrollment_id),
        payload: { availableUntil: new Date(c.available_until).toISOString() },
      })),
    );
    return claimed.length;
  });
}
