import type { FastifyRequest } from 'fastify';
import qs from 'qs';
import { AppError } from '../graphql/errors.js';

export const QS_OPTIONS = { depth: 10, arrayLimit: 1000, parameterLimit: 5000 } as const;
const LIMIT = 1024 * 1024;

/**
 * Fastify parses no body on GET, but Rails-era clients send list filters that way
 * (`GET /schools` with `email=...&type=...`): read JSON and urlencoded bodies of a GET here.
 */
export async function getRequestBody(request: FastifyRequest): Promise<unknown> {
  const headers = request.raw.headers;
  const length = Number(headers['content-length'] ?? 0);
  if (!(length > 0 || headers['transfer-encoding'])) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += chunk.length;
    if (size > LIMIT) throw new AppError('payload_too_large', 'The body is too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const type = String(headers['content-type'] ?? '');
  if (text.trim() === '') return undefined;
  if (/json/i.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      throw new AppError('bad_request', 'The body is not valid JSON');
    }
  }
  if (/x-www-form-urlencoded/i.test(type)) return qs.parse(text, QS_OPTIONS);
  throw new AppError('bad_request', 'A GET body must be JSON or urlencoded');
}
