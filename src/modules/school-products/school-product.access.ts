import type { schoolProducts } from './school-product.table.js';

type AccessColumns = Pick<typeof schoolProducts.$inferSelect, 'availableTimeType' | 'availableTimeLength' | 'availableTimeUnit' | 'expireDate' | 'maxAttendanceType' | 'maxAttendanceLength'>;

/** Adds `length` `unit`s to `from` in UTC (a month from Jan 31 is Mar 3 in a short year, as Date does). */
function later(from: Date, length: number, unit: 'days' | 'weeks' | 'months' | 'years'): Date {
  const d = new Date(from);
  if (unit === 'days') d.setUTCDate(d.getUTCDate() + length);
  else if (unit === 'weeks') d.setUTCDate(d.getUTCDate() + 7 * length);
  else if (unit === 'months') d.setUTCMonth(d.getUTCMonth() + length);
  else d.setUTCFullYear(d.getUTCFullYear() + length);
  return d;
}

/**
 * The access a product gives an enrollment starting at `start`: `available_time_type` time →
 * `available_until` = start + length × unit; date → its `expire_date`; none → unlimited. And its
 * attendance limit (none: indeterminate). Used by a paid order's enrollments and by POST /enrollments
 * when the client gives no `available_until`.
 */
export function productAccess(product: AccessColumns, start: Date) {
  const attendance = {
    maxAttendanceType: product.maxAttendanceType ?? ('indeterminate' as const),
    maxAttendanceLength: product.maxAttendanceType ? product.maxAttendanceLength : null,
  };
  if (product.availableTimeType === 'time' && product.availableTimeLength && product.availableTimeUnit)
    return { unlimited: false, availableUntil: later(start, product.availableTimeLength, product.availableTimeUnit), ...attendance };
  if (product.availableTimeType === 'date' && product.expireDate) return { unlimited: false, availableUntil: product.expireDate, ...attendance };
  return { unlimited: true, availableUntil: null, ...attendance };
}
