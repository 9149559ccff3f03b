import type { FastifyReply } from 'fastify';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { type AppError, raisedErrorOf, type UserError } from './app-error.js';
import { codeOfGraphql, closeCode, defaultMessage, type ErrorCode, errorCodes, payloadStatus, raisedStatus, refusalGraphqlCode } from './codes.js';
import { restFieldName } from './field-names.js';
import { DEFAULT_LOCALE, type Locale, localizedMessage } from './i18n.js';

// Read as Node's own module, not an ESM import: importing node:http builds its namespace, and so
// runs its lazy WebSocket getter, which loads undici (fetch) at start-up (about 100 ms, 4 MB).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

/**
 * The one writer of error replies: `errorReply(face, refusal)` writes a refusal for the face that was
 * asked. Codes are the table's (codes.ts); statuses and default messages are read from it.
 *
 * - `rest`: `{status, body}` with the REST body `{"errors": {"title": ["can't be blank"]}, "details": {"title": [{"error": "blank"}]}}`;
 * - `graphql-http`: `{status, body}` with GraphQL over HTTP's `{"errors": [{message, extensions: {code}}]}`,
 *   for a request refused before Apollo saw it (the HTTP layer, the rate limit): codes in upper case;
 * - `graphql`: a GraphQLError as an operation reports it (Apollo, a WebSocket frame): an AppError's
 *   GraphQL code (`BAD_USER_INPUT` for `bad_request`), any other code in upper case;
 * - `graphql-request`: a GraphQLError refusing a request before it runs (a WebSocket's subscribe
 *   frame), its code in upper case as `graphql-http` writes it;
 * - `socket`, `socket-graphql`: a whole HTTP response for a raw socket (Node could not parse the
 *   request; an upgrade refused), with the REST or the GraphQL body;
 * - `close`: a WebSocket's close frame, `{code: 4000 + status, reason}`.
 *
 * Messages are written in the `locale` asked (the request's `Accept-Language`, i18n.ts; English by default).
 *
 * test/layout.test.ts fails when another file of src/ writes an error reply.
 */

/** A row of REST's error body: the field as REST names it (`base` for the request as a whole). */
export interface RestError {
  field: string;
  code: ErrorCode;
  message: string;
  /** The number the code's message names, for another language. */
  count?: number;
}

/** One refusal, before a face writes it. */
export interface Refusal {
  code: ErrorCode;
  /** Default: the table's message. */
  message?: string;
  /** The input path it names (GraphQL's `extensions.field`; REST's field); none: the request as a whole. */
  field?: readonly (string | number)[];
  /** Default: the code's status in the table. Given where one code answers with several (a payload's 422 or 409, a filter's 400). */
  status?: number;
  /** More GraphQL extensions after the code (`retryAfter`, the budget's use). */
  extensions?: Record<string, unknown>;
  /** REST: several rows (input problems, a payload's UserErrors); default: the one this refusal names. */
  rows?: readonly RestError[];
  /** The number the code's message names, for another language. */
  count?: number;
  /** Its messages are already in the request's language (a payload's UserErrors, as GraphQL wrote them). */
  localized?: true;
}

type RestBody = { errors: Record<string, string[]>; details: Record<string, { error: ErrorCode }[]> };
type GraphqlBody = { errors: { message: string; extensions: Record<string, unknown> }[] };

interface Written {
  rest: { status: number; body: RestBody };
  'graphql-http': { status: number; body: GraphqlBody };
  graphql: GraphQLError;
  'graphql-request': GraphQLError;
  socket: string;
  'socket-graphql': string;
  close: { code: number; reason: string };
}
export type Face = keyof Written;

const messageOf = (r: Refusal) => r.message ?? defaultMessage(r.code, r.count);
const statusOf = (r: Refusal) => r.status ?? raisedStatus(r.code);
const rowsOf = (r: Refusal): readonly RestError[] => r.rows ?? [{ field: restFieldName(r.field ?? []), code: r.code, message: messageOf(r) }];

/** `r` with its messages in `locale` (i18n.ts' `localizedMessage`); as it is in English or when already localized. */
function inLocale(r: Refusal, locale: Locale): Refusal {
  if (locale === DEFAULT_LOCALE || r.localized) return r;
  return {
    ...r,
    message: localizedMessage(locale, r.code, r.message, r.count),
    rows: r.rows?.map((row) => ({ ...row, message: localizedMessage(locale, row.code, row.message, row.count) })),
  };
}

function restBody(rows: readonly RestError[]): RestBody {
  const body: RestBody = { errors: {}, details: {} };
  for (const e of rows) {
    (body.errors[e.field] ??= []).push(e.message);
    (body.details[e.field] ??= []).push({ error: e.code });
  }
  return body;
}

const graphqlBody = (r: Refusal): GraphqlBody => ({ errors: [{ message: messageOf(r), extensions: { code: refusalGraphqlCode(r.code), ...r.extensions } }] });

/** A whole HTTP response for a raw socket; the REST one keeps the header order and type it always had. */
function rawResponse(status: number, body: RestBody | GraphqlBody | null, rest = false): string {
  const line = `HTTP/1.1 ${status} ${STATUS_CODES[status]}`;
  if (!body) return `${line}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
  const text = JSON.stringify(body);
  const length = Buffer.byteLength(text);
  return rest
    ? `${line}\r\nContent-Length: ${length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${text}`
    : `${line}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${length}\r\n\r\n${text}`;
}

/** Writes `refusal` for `face`, in `locale`. A `socket` refusal with no code answers its status with no body. */
export function errorReply<F extends Face>(face: F, refusal: Refusal, locale?: Locale): Written[F];
export function errorReply(face: Face, refusal: Refusal, locale: Locale = DEFAULT_LOCALE): Written[Face] {
  const r = inLocale(refusal, locale);
  switch (face) {
    case 'rest':
      return { status: statusOf(r), body: restBody(rowsOf(r)) };
    case 'graphql-http':
      return { status: statusOf(r), body: graphqlBody(r) };
    case 'graphql': {
      const { raised } = errorCodes[r.code] as { raised?: { graphql?: string } };
      const field = r.field?.length ? { field: r.field } : {};
      return new GraphQLError(messageOf(r), { extensions: { code: raised?.graphql ?? refusalGraphqlCode(r.code), ...field, ...r.extensions } });
    }
    case 'graphql-request':
      return new GraphQLError(messageOf(r), { extensions: graphqlBody(r).errors[0].extensions });
    case 'socket':
      return rawResponse(statusOf(r), restBody(rowsOf(r)), true);
    case 'socket-graphql':
      return rawResponse(statusOf(r), graphqlBody(r));
    case 'close':
      return { code: closeCode(r.code), reason: messageOf(r) };
  }
}

/** A raw socket's answer with a status and no body (an upgrade to a path that takes none). */
export const emptyReply = (status: 404): string => rawResponse(status, null);

/** The `Retry-After` seconds a refusal names (a 429's), if any. */
export const retryAfterOf = (refusal: Refusal): number | undefined =>
  typeof refusal.extensions?.retryAfter === 'number' ? refusal.extensions.retryAfter : undefined;

/** Sends what `errorReply` wrote for `rest` or `graphql-http` on a Fastify reply. */
export function sendErrorReply(reply: FastifyReply, { status, body }: Written['rest'] | Written['graphql-http']): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * An HTML page for a browser (a REST row's `page`: rest/route-table.ts), which may be a refusal in
 * words (400: a link invalid or expired), so it is written here with the other error replies.
 */
export function sendPage(reply: FastifyReply, { status, html }: { status: number; html: string }): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** An AppError as a refusal (its code, message and field; `invalidArguments`' problems as REST rows). */
export const refusalOf = (error: AppError): Refusal => ({
  code: error.code,
  message: error.message,
  field: error.field,
  count: error.count,
  ...(Object.keys(error.more).length ? { extensions: error.more } : {}),
  ...(error.code === 'invalid_arguments' ? { rows: (error.more.problems as UserError[]).map((p) => ({ field: restFieldName(p.field), code: p.code, message: p.message, count: p.count })) } : {}),
});

/** A payload's UserErrors as REST answers them (their messages as GraphQL wrote them, in the request's language): the most severe status, one row each. */
export function userErrorsRefusal(errors: readonly UserError[]): Refusal {
  return {
    code: errors[0].code,
    status: payloadStatus(errors.map((e) => e.code)),
    rows: errors.map((e) => ({ field: restFieldName(e.field), code: e.code, message: e.message })),
    localized: true,
  };
}

/**
 * `error` as GraphQL shows it: the message, `extensions.code` (and `field` when it names one) and
 * `extensions.http.status`, which Apollo turns into the status of a request refused before execution
 * (and strips from the body). Null when the error is not the client's doing (the caller logs and masks it).
 */
export function toGraphqlError(error: unknown, locale: Locale = DEFAULT_LOCALE): GraphQLError | null {
  const raised = raisedErrorOf(error);
  if (!raised) return null;
  const refusal = refusalOf(raised);
  return errorReply('graphql', { ...refusal, extensions: { ...refusal.extensions, http: { status: raised.status } } }, locale);
}

/**
 * `error` as REST answers it: the refusal to write. Takes an error thrown while handling a route or
 * one that executing its operation reported; null when it is not the client's doing.
 */
export function toRestRefusal(error: unknown): Refusal | null {
  const raised = raisedErrorOf(error);
  if (raised) return refusalOf(raised);
  if (error instanceof GraphQLError) {
    const graphql = error.extensions?.code;
    // The operation's budget ran out while it ran (graphql/budget.ts): its own status and code.
    const budget = codeOfGraphql(graphql);
    if (budget === 'result_too_large' || budget === 'query_timeout') return { code: budget, message: error.message };
    // No path: the request itself failed (a variable its type refuses), before any resolver ran.
    if (graphql === 'BAD_USER_INPUT' || !error.path || (!error.originalError && !graphql)) return { code: 'bad_request', message: error.message };
  }
  return null;
}

/**
 * The errors of an executed operation as Apollo Server writes them (its normalizeAndFormatErrors),
 * for the known path (graphql/known-operations.ts) that runs without its pipeline: a code on each
 * (INTERNAL_SERVER_ERROR when none), the HTTP status an error carries taken out of its extensions
 * (the last one wins), then `format` (graphql/apollo.ts's formatGraphqlError).
 */
export function executionErrors(
  errors: readonly GraphQLError[],
  format: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError,
): { errors: GraphQLFormattedError[]; status?: number } {
  let status: number | undefined;
  const formatted = errors.map((error) => {
    const { http, ...extensions } = { ...error.extensions, code: error.extensions.code ?? 'INTERNAL_SERVER_ERROR' } as Record<string, unknown>;
    if (http && typeof http === 'object' && typeof (http as { status?: unknown }).status === 'number') status = (http as { status: number }).status;
    try {
      return format({ ...error.toJSON(), extensions }, error);
    } catch {
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
  });
  return { errors: formatted, status };
}
