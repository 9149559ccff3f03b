/**
 * Dates as Ruby and Rails clients write them, rewritten to the RFC 3339 form the DateTime scalar
 * reads: `Time#to_s` (`2014-07-25 17:11:29 UTC`, `2014-07-25 17:11:29 -0300`), a local time with no
 * zone (`2014-07-25T17:11:29`, `2014-07-25 17:11`), a plain `Date#to_s` (`2030-01-01`, midnight).
 * Schools carry no time zone, so a time with no zone is UTC (README, "Wire habits").
 */
const RUBY_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The value in RFC 3339, or the value untouched when it is no real date (the scalar then refuses it with its own message). */
export function restDateTime(value: string): string {
  const m = RUBY_TIME.exec(value.trim());
  if (!m) return value;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = m;
  // Only a real date and time is rewritten: `2014-13-45` keeps its own text for the error.
  const date = new Date(Date.UTC(+year, +month - 1, +day));
  if (date.getUTCMonth() !== +month - 1 || date.getUTCDate() !== +day || +hour > 23 || +minute > 59 || +second > 59) return value;
  const offset = /^(Z|UTC|GMT)$/i.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3).replace(':', '') || '00'}`;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${offset}`;
}
