import { GraphQLError } from 'graphql';
import { type AppError, raisedErrorOf } from '../graphql/errors.js';
import { restFieldName } from '../rest/names.js';
import { baseError, type RestError } from '../rest/reply.js';

/**
 * The one pair that turns an error into a reply: `toGraphqlError` for the GraphQL face (HTTP and
 * WebSocket), `toRestReply` for REST. Both answer the service's own refusals (AppError, a value the
 * database refused) and return null for anything else, which the caller logs and masks as internal.
 * Codes, messages and statuses come from graphql/error-codes.ts.
 */

/**
 * `error` as GraphQL shows it: the message, `extensions.code` (and `field` when it names one) and
 * `extensions.http.status`, which Apollo turns into the status of a request refused before execution
 * (and strips from the body). Null when the error is not the client's doing.
 */
export function toGraphqlError(error: unknown): GraphQLError | null {
  const raised = raisedErrorOf(error);
  return raised && new GraphQLError(raised.message, { extensions: { ...raised.extensions, http: { status: raised.status } } });
}

export interface RestReply {
  status: number;
  errors: RestError[];
}

/**
 * `error` as REST answers it: the status and the rows of the error body. Takes an error thrown while
 * handling a route or one that executing its operation reported; null when it is not the client's doing.
 */
export function toRestReply(error: unknown): RestReply | null {
  const raised = raisedErrorOf(error);
  if (raised) return raisedReply(raised);
  if (error instanceof GraphQLError) {
    const code = error.extensions?.code;
    // The operation's budget ran out while it ran (graphql/budget.ts): its own status and code.
    if (code === 'RESULT_TOO_LARGE' || code === 'QUERY_TIMEOUT')
      return { status: (error.extensions.http as { status: number }).status, errors: baseError(code === 'RESULT_TOO_LARGE' ? 'result_too_large' : 'query_timeout', error.message) };
    // No path: the request itself failed (a variable its type refuses), before any resolver ran.
    if (code === 'BAD_USER_INPUT' || !error.path || (!error.originalError && !code)) return { status: 400, errors: baseError('bad_request', error.message) };
  }
  return null;
}

const raisedReply = (raised: AppError): RestReply => ({
  status: raised.status,
  errors: [{ field: raised.field.length ? restFieldName(raised.field) : 'base', code: raised.code, message: raised.message }],
});
