import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { requestLocale } from '../errors/i18n.js';
import { errorReply, type Refusal, refusalOf, sendErrorReply } from '../errors/reply.js';

/**
 * Errors raised by the HTTP layer before a route runs (a malformed body, a wrong content type, a
 * URL too long, no such route), answered in the documented shape of the face that was asked:
 * `{"errors": {...}, "details": {...}}` for REST, `{"errors": [{message, extensions: {code}}]}`
 * on /graphql. Messages are fixed: nothing of the request is echoed back.
 */
const byFrameworkCode: Record<string, Refusal> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
  FST_REQ_FILE_TOO_LARGE: { code: 'payload_too_large', message: 'A file is too large' },
  FST_PARTS_LIMIT: { code: 'payload_too_large', message: 'The body has too many parts' },
  FST_FILES_LIMIT: { code: 'payload_too_large', message: 'The body has too many files' },
  FST_FIELDS_LIMIT: { code: 'payload_too_large', message: 'The body has too many fields' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'uri_too_long' },
  FST_ERR_BAD_URL: { code: 'bad_request', message: 'The URL is not valid' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'bad_request', message: 'The body does not match its Content-Length' },
};

function httpErrorOf(error: any): Refusal | null {
  // An AppError's field stays out of these replies, as it always has: the request as a whole.
  if (error instanceof AppError) return { ...refusalOf(error), field: [] };
  const known = byFrameworkCode[error?.code];
  if (known) return known;
  const status = Number(error?.statusCode);
  if (status === 413) return byFrameworkCode.FST_ERR_CTP_BODY_TOO_LARGE;
  // Another refusal of the framework or a plugin keeps its own 4xx status (a multipart body's 406).
  if (status >= 400 && status < 500) return { code: 'bad_request', status };
  return null;
}

const isGraphql = (request: FastifyRequest) => (request.url ?? '').split('?')[0].replace(/\/+$/, '') === '/graphql';

export function sendHttpError(request: FastifyRequest, reply: FastifyReply, refusal: Refusal) {
  const locale = requestLocale(request.headers);
  return sendErrorReply(reply, isGraphql(request) ? errorReply('graphql-http', refusal, locale) : errorReply('rest', refusal, locale));
}

/** For Fastify's `frameworkErrors` option: a bad URL or an over-long path parameter, answered like any error. */
export function frameworkErrorReply(error: Error, request: FastifyRequest, reply: FastifyReply) {
  return sendHttpError(request, reply, httpErrorOf(error) ?? byFrameworkCode.FST_ERR_BAD_URL);
}

/** For Fastify's `clientErrorHandler` option: a request Node could not parse, in the REST shape. */
export function clientErrorReply(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'bad_request';
  if (socket.writable) socket.write(errorReply('socket', { code }));
  socket.destroy(error);
}

/** The not-found and error handlers of the whole service. */
export function registerErrorReplies(app: FastifyInstance, log: (error: unknown) => void) {
  app.setNotFoundHandler((request, reply) => {
    if (isGraphql(request)) {
      reply.header('allow', 'GET, POST, OPTIONS');
      return sendHttpError(request, reply, { code: 'method_not_allowed', message: '/graphql answers GET, POST and OPTIONS' });
    }
    return sendHttpError(request, reply, { code: 'route_not_found', message: `No route matches ${request.method} on this path` });
  });
  app.setErrorHandler((error, request, reply) => {
    const known = httpErrorOf(error);
    if (known) return sendHttpError(request, reply, known);
    log(error);
    return sendHttpError(request, reply, { code: 'internal' });
  });
}
