import { type Checks, isHttpUrl } from '../../graphql/validation.js';

/** A trimmed optional text: '' and whitespace are null; undefined stays undefined (not sent). */
export const optionalText = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

/** Checks an address field that must be http(s) when given; returns it trimmed (null when cleared). */
export function httpUrl(checks: Checks, field: string, value: string | null | undefined): string | null | undefined {
  const url = optionalText(value);
  if (url && !isHttpUrl(url)) checks.add(field, 'invalid', 'must be an http or https address');
  return url;
}

