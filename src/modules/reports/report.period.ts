import { invalidArguments } from '../../errors/app-error.js';
import { Checks } from '../../graphql/validation.js';
import type { ReportInterval } from './report.type.js';

/** The longest period a report takes, in days, by its buckets (none: not bucketed): each statement reads a bounded span. */
export const MAX_SPAN_DAYS: Record<ReportInterval | 'none', number> = { day: 366, week: 1096, month: 1827, none: 1827 };

export interface Period {
  /** YYYY-MM-DD, both included. */
  from: string;
  to: string;
  interval: ReportInterval;
}

const DAY_MS = 86_400_000;

/** A calendar day `YYYY-MM-DD` that exists, as its UTC midnight; null otherwise. */
function calendarDay(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? null : time;
}

/**
 * The period of a report, or a 422 naming every bad argument at once: `from` and `to` required
 * days, `to` not before `from`, the span within MAX_SPAN_DAYS of its buckets.
 */
export function reportPeriod(args: { from?: string | null; to?: string | null; interval?: ReportInterval | null }, bucketed: boolean): Period {
  const checks = new Checks();
  const from = args.from?.trim() ?? '';
  const to = args.to?.trim() ?? '';
  const interval = args.interval ?? 'day';
  const days = { from: from ? calendarDay(from) : null, to: to ? calendarDay(to) : null };
  for (const [field, text] of [['from', from], ['to', to]] as const) {
    if (!text) checks.add(field, 'blank');
    else if (days[field] === null) checks.add(field, 'invalid', 'is not a day (YYYY-MM-DD)');
  }
  if (days.from !== null && days.to !== null) {
    const span = (days.to - days.from) / DAY_MS + 1;
    const max = MAX_SPAN_DAYS[bucketed ? interval : 'none'];
    if (span < 1) checks.add('to', 'invalid', `must be on or after from (${from})`);
    else if (span > max) checks.add('to', 'less_than_or_equal_to', `must be at most ${max} days from from${bucketed ? ` by ${interval}` : ''} (the period holds ${span})`, max);
  }
  if (!checks.ok) throw invalidArguments(checks.errors);
  return { from, to, interval };
}
