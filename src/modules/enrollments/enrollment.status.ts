import { and, eq, inArray, isNotNull, lte, not, or, type SQL } from 'drizzle-orm';
import { enrollments } from './enrollment.table.js';

/**
 * Expiry is computed on read: an active or pending enrollment whose `available_until` has passed
 * (and that is not unlimited) is `expired` from that moment, whatever its stored status says, so no
 * job is needed for correctness (the sweep in progress/expiry.ts only records the event).
 */
const RUNNING = ['active', 'pending'] as const;

export function effectiveStatus(e: { status: string; unlimited: boolean; availableUntil: Date | null }, now: Date): string {
  const ranOut = !e.unlimited && e.availableUntil !== null && e.availableUntil <= now;
  return ranOut && (RUNNING as readonly string[]).includes(e.status) ? 'expired' : e.status;
}

/** The same rule as a condition: enrollments that read as expired at `now`. */
export function ranOut(now: Date): SQL {
  return and(
    inArray(enrollments.status, [...RUNNING]),
    eq(enrollments.unlimited, false),
    isNotNull(enrollments.availableUntil),
    lte(enrollments.availableUntil, now),
  )!;
}

/** Enrollments whose status reads as `status` at `now` (the list filter). */
export function readsAs(status: string, now: Date): SQL {
  if (status === 'expired') return or(eq(enrollments.status, 'expired'), ranOut(now))!;
  if ((RUNNING as readonly string[]).includes(status)) return and(eq(enrollments.status, status as 'active'), not(ranOut(now)))!;
  return eq(enrollments.status, status as 'active');
}
