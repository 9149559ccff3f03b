import { expect } from 'vitest';
import type { Reply } from './service.js';

/**
 * The one error shape of every REST error status: `{"errors": {...}, "details": {...}}`, and nothing
 * internal in the text (no stack frame, no node_modules path, no SQL).
 */
export function expectErrorBody(res: Reply, status: number) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body ?? {}).sort(), res.text).toEqual(['details', 'errors']);
  expect(res.text).not.toMatch(/\bat .*\.(ts|js):\d+|node_modules|insert into|select .* from/i);
}

/** An error body naming `field`: a non-empty list of messages (all strings) and, when `code` is given, that code in `details`. */
export function expectFieldError(res: Reply, status: number, field: string, code?: string) {
  expectErrorBody(res, status);
  const messages = res.body.errors[field];
  expect(messages, res.text).toEqual(expect.arrayContaining([expect.any(String)]));
  expect(messages, res.text).toEqual(messages.map(() => expect.any(String)));
  if (code !== undefined) expect(res.body.details[field], res.text).toContainEqual({ error: code });
}

/** 404 with the `base` detail `not_found`. */
export function expectNotFound(res: Reply) {
  expectErrorBody(res, 404);
  expect(res.body.details.base, res.text).toEqual([{ error: 'not_found' }]);
}
