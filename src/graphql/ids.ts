import { notFound } from './errors.js';

const MAX_INT = 2_147_483_647;

/** An `ID` argument as the integer it holds; anything else names no record (404). */
export function parseId(value: string | number, what = 'Record'): number {
  const text = String(value).trim();
  if (!/^\d{1,10}$/.test(text) || Number(text) > MAX_INT || Number(text) < 1) throw notFound(what);
  return Number(text);
}

/** Same for ids inside an input: invalid ones are reported by the caller's validation. */
export function idOrNull(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return /^\d{1,10}$/.test(text) && Number(text) <= MAX_INT && Number(text) >= 1 ? Number(text) : null;
}

/** The fields of an input that were given (undefined = not sent; null = cleared). */
export function given<T extends object, K extends keyof T = never>(input: T, exclude: readonly K[] = []): Partial<Omit<T, K>> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined && !exclude.includes(key as K)) out[key] = value;
  }
  return out as Partial<Omit<T, K>>;
}
