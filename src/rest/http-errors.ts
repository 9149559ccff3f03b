import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../graphql/errors.js';
import { baseError, errorBody } from './reply.js';

/**
 * Errors raised by the HTTP layer before a route runs (a malformed body, a wrong content type, a
 * URL too long, no such route), answered in the documented shape of the face that was asked:
 * `{"errors": {...}, "details": {...}}` for REST, `{"errors": [{message, extensions: {code}}]}`
 * on /graphql. Messages are fixed: nothing of the request is echoed back.
 */
interface HttpError {
  status: number;
  /** The REST detail code; GraphQL's `extensions.code` is its upper case. */
  code: string;
  message: string;
}

const byFrameworkCode: Record<string, HttpError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The body is too large' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'A file is too large' },
  FST_PARTS_LIMIT: { status: 413, code: 'payload_too_large', message: 'The body has too many parts' },
  FST_FILES_LIMIT: { status: 413, code: 'payload_too_large', message: 'The body has too many files' },
  FST_FIELDS_LIMIT: { status: 413, code: 'payload_too_large', message: 'The body has too many fields' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Send JSON, urlencoded or multipart bodies' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', message: 'A path segment is too long' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_request', message: 'The URL is not valid' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'The body does not match its Content-Length' },
};

function httpErrorOf(error: any): HttpError | null {
  if (error instanceof AppError) return { status: error.status, code: error.code, message: error.message };
  const known = byFrameworkCode[error?.code];
  if (known) return known;
  const status = Number(error?.statusCode);
  if (status === 413) return byFrameworkCode.FST_ERR_CTP_BODY_TOO_LARGE;
  if (status >= 400 && status < 500) return { status, code: 'bad_request', message: 'The request is malformed' };
  return null;
}

const isGraphql = (request: FastifyRequest) => (request.url ?? '').split('?')[0].replace(/\/+$/, '') === '/graphql';

/** The GraphQL-over-HTTP error body for a request refused before Apollo saw it. */
export const graphqlErrorBody = (code: string, message: string) => ({
  errors: [{ message, extensions: { code: code === 'internal' ? 'INTERNAL_SERVER_ERROR' : code.toUpperCase() } }],
});

export function sendHttpError(request: FastifyRequest, reply: FastifyReply, { status, code, message }: HttpError) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(isGraphql(request) ? graphqlErrorBody(code, message) : errorBody(baseError(code, message)));
}

/** For Fastify's `frameworkErrors` option: a bad URL or an over-long path parameter, answered like any error. */
export function frameworkErrorReply(error: Error, request: FastifyRequest, reply: FastifyReply) {
  return sendHttpError(request, reply, httpErrorOf(error) ?? byFrameworkCode.FST_ERR_BAD_URL);
}

/** For Fastify's `clientErrorHandler` option: a request Node could not parse, in the REST shape. */
export function clientErrorReply(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request took too long to arrive']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request headers are too large']
        : [400, 'bad_request', 'The request is malformed'];
  const body = JSON.stringify(errorBody(baseError(code, message)));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** The not-found and error handlers of the whole service. */
export function registerErrorReplies(app: FastifyInstance, log: (error: unknown) => void) {
  app.setNotFoundHandler((request, reply) => {
    if (isGraphql(request)) {
      reply.header('allow', 'GET, POST, OPTIONS');
      return sendHttpError(request, reply, { status: 405, code: 'method_not_allowed', message: '/graphql answers GET, POST and OPTIONS' });
    }
    return sendHttpError(request, reply, { status: 404, code: 'route_not_found', message: `No route matches ${request.method} on this path` });
  });
  app.setErrorHandler((error, request, reply) => {
    const known = httpErrorOf(error);
    if (known) return sendHttpError(request, reply, known);
    log(error);
    return sendHttpError(request, reply, { status: 500, code: 'internal', message: 'Internal server error' });
  });
}
