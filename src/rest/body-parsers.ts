import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { AppError } from '../graphql/errors.js';
import { parseJsonBody, QS_OPTIONS } from './get-body.js';

/** Bodies: JSON (also vendor +json types), urlencoded and multipart, both with bracket names (`media[title]`). */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^application\/(?:[\w.+-]*\+)?json$/i, { parseAs: 'buffer' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as AppError, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, qs.parse(String(body), QS_OPTIONS));
  });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 10, fields: 5000 } });
  // Multipart fields arrive flat (`media[title]`): collect them, then expand the brackets like a form.
  app.addHook('preValidation', async (request) => {
    if (!request.isMultipart()) return;
    const fields: Record<string, unknown[]> = {};
    try {
      for await (const part of request.parts()) {
        const value = part.type === 'file' ? await part.toBuffer() : part.value;
        (fields[part.fieldname] ??= []).push(value);
      }
    } catch (error) {
      // Limits keep their 413; anything else (no boundary, no closing boundary, a broken part) is the body's fault.
      if ((error as { statusCode?: number }).statusCode === 413) throw error;
      throw new AppError('bad_request', 'The multipart body is malformed');
    }
    const flat = Object.fromEntries(Object.entries(fields).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
    request.body = qs.parse(flat as Record<string, string>, QS_OPTIONS);
  });
}
