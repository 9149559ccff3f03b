import { isUtf8 } from 'node:buffer';
import { AppError } from '../graphql/errors.js';
import { MAX_INPUT_DEPTH } from '../graphql/input-guard.js';

// GET bodies are parsed by Fastify like any other (body-parsers.ts): this file keeps the shared readers.
export const QS_OPTIONS = { depth: 10, arrayLimit: 1000, parameterLimit: 5000 } as const;

/**
 * The body's text, refused when it is not UTF-8. isUtf8 then toString is a native check and a copy, where
 * a fatal TextDecoder costs more per call; its leading byte-order mark is dropped as TextDecoder drops it.
 */
function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) throw new TypeError('not UTF-8');
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Whether JSON text opens more than `max` objects or arrays at once (a scan, so nothing deep is ever built). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * A JSON body, for both faces: UTF-8, at most MAX_INPUT_DEPTH levels deep, else a 400. An empty
 * body is `{}` (clients send `Content-Type: application/json` on bodiless requests).
 */
export function parseJsonBody(body: Buffer | string): unknown {
  let text: string;
  try {
    text = typeof body === 'string' ? body : utf8Text(body);
  } catch {
    throw new AppError('bad_request', 'The body is not valid UTF-8');
  }
  if (text.trim() === '') return {};
  if (nestsDeeperThan(text, MAX_INPUT_DEPTH)) throw new AppError('bad_request', `The body nests deeper than ${MAX_INPUT_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The body is not valid JSON');
  }
}
