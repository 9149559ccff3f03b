/**
 * Every error code the service answers with, in one table: its default message, the HTTP status a
 * REST reply carries and, for a code raised instead of a result, its GraphQL `extensions.code`.
 * Every code is typed `ErrorCode` (this table's keys): a code the table lacks fails the compiler.
 * Statuses and messages are read only from here; src/errors/reply.ts writes every error reply.
 */
interface CodeEntry {
  /** The default message (a UserError's, when its producer gives none); raised errors carry their own. */
  message: string;
  /** REST status of a payload whose errors carry this code (the most severe wins); 422 when absent. */
  status?: number;
  /** Raised instead of a result: its HTTP status and, for an AppError, GraphQL's `extensions.code`. */
  raised?: { status: number; graphql?: string };
}

export const errorCodes = {
  // Payload codes (UserError.code): data, REST 422 unless a status is given.
  blank: { message: "can't be blank" },
  present: { message: 'must be blank' },
  inclusion: { message: 'is not included in the list' },
  exclusion: { message: 'is reserved' },
  invalid: { message: 'is invalid' },
  taken: { message: 'has already been taken', status: 409 },
  in_use: { message: 'is still in use by other records', status: 409 },
  not_found: { message: 'must exist', raised: { status: 404, graphql: 'NOT_FOUND' } },
  forbidden: { message: 'is not allowed for this credential', status: 403, raised: { status: 403, graphql: 'FORBIDDEN' } },
  greater_than: { message: 'must be greater than %{count}' },
  greater_than_or_equal_to: { message: 'must be greater than or equal to %{count}' },
  less_than_or_equal_to: { message: 'must be less than or equal to %{count}' },
  too_long: { message: 'is too long (maximum is %{count} characters)', raised: { status: 422, graphql: 'BAD_USER_INPUT' } },
  too_short: { message: 'is too short (minimum is %{count} characters)', raised: { status: 422, graphql: 'BAD_USER_INPUT' } },
  not_a_number: { message: 'is not a number' },
  invalid_transition: { message: 'cannot happen from the current state' },
  duplicate: { message: 'is a duplicate of another item of this list' },
  unpermitted: { message: 'cannot be changed' },
  too_many_attempts: { message: 'has no attempts left' },
  inactive: { message: 'is not active' },
  no_access: { message: 'does not give access to this record' },
  not_scorm: { message: 'is not a SCORM package' },
  erased: { message: 'belongs to a person erased at their request' },
  foreign_host: { message: "must be on one of the school's domains" },
  too_common: { message: 'is too common or too easy to guess: choose a longer, less usual one' },
  // Selling (orders/): prices the service computes, coupons, and the order/invoice/payment machine.
  price_mismatch: { message: 'differs from the price the service computes' },
  coupon_used: { message: 'has already been used' },
  coupon_expired: { message: 'is outside its validity window' },
  coupon_exhausted: { message: 'has no uses left' },
  coupon_not_applicable: { message: 'does not apply to this school product' },
  payment_required: { message: 'needs a paid invoice: an order with something to pay is confirmed by its payment' },
  refund_required: { message: 'is paid: refund its payment (refundPayment, POST /payments/:id/refund) instead' },
  not_subscription: { message: 'is not a subscription (kind 1 with a period 1..4)' },
  // Grading by hand (progress/grading.write.ts).
  auto_graded: { message: 'was graded automatically by its correct options: only open answers are graded by hand' },
  // Raised instead of a result (AppError); `not_found`, `forbidden`, `too_long` and `too_short` above are raised too.
  bad_request: { message: 'The request is malformed', raised: { status: 400, graphql: 'BAD_USER_INPUT' } },
  unauthenticated: { message: 'A valid credential is required (Authorization: Bearer <token>)', raised: { status: 401, graphql: 'UNAUTHENTICATED' } },
  invalid_credentials: { message: 'Invalid e-mail or password', raised: { status: 401, graphql: 'INVALID_CREDENTIALS' } },
  token_expired: { message: 'The credential has expired: refresh it or sign in again', raised: { status: 401, graphql: 'TOKEN_EXPIRED' } },
  conflict: { message: 'The record changed meanwhile', raised: { status: 409, graphql: 'CONFLICT' } },
  payload_too_large: { message: 'The body is too large', raised: { status: 413, graphql: 'PAYLOAD_TOO_LARGE' } },
  internal: { message: 'Internal server error', raised: { status: 500, graphql: 'INTERNAL_SERVER_ERROR' } },
  // Single sign-on (modules/sso/): raised, the sign-in does not happen.
  sso_not_configured: { message: 'Single sign-on is not configured for this school', raised: { status: 404, graphql: 'SSO_NOT_CONFIGURED' } },
  invalid_sso_token: { message: 'The sign-in could not be verified', raised: { status: 401, graphql: 'INVALID_SSO_TOKEN' } },
  unverified_email: { message: 'The identity provider did not verify the e-mail', raised: { status: 403, graphql: 'UNVERIFIED_EMAIL' } },
  email_domain_not_allowed: { message: "The e-mail's domain may not sign in to this school", raised: { status: 403, graphql: 'EMAIL_DOMAIN_NOT_ALLOWED' } },
  sso_no_account: { message: 'No person of this school has this e-mail', raised: { status: 403, graphql: 'SSO_NO_ACCOUNT' } },
  sso_provider_unavailable: { message: 'The identity provider could not be reached', raised: { status: 502, graphql: 'SSO_PROVIDER_UNAVAILABLE' } },
  // Payment gateways' callbacks (orders/gateway-notification.ts): raised, nothing is written.
  invalid_signature: { message: "The callback's signature could not be verified", raised: { status: 401, graphql: 'INVALID_SIGNATURE' } },
  stale_timestamp: { message: "The callback's webhook-timestamp is too far from the service's clock", raised: { status: 401, graphql: 'STALE_TIMESTAMP' } },
  // Refusals of the HTTP layer and of REST's reading of parameters (REST details; /graphql shows them upper case).
  invalid_type: { message: 'has the wrong type', raised: { status: 400 } },
  invalid_characters: { message: 'contains a character text cannot hold', raised: { status: 400 } },
  too_deep: { message: 'nests too deeply', raised: { status: 400 } },
  unknown_parameter: { message: 'is not a query parameter of this route', raised: { status: 400 } },
  route_not_found: { message: 'No route matches this request', raised: { status: 404 } },
  method_not_allowed: { message: 'This path does not answer this method', raised: { status: 405 } },
  not_acceptable: { message: 'This service speaks version 1 of the interface (application/json)', raised: { status: 406 } },
  request_timeout: { message: 'The request took too long to arrive', raised: { status: 408 } },
  uri_too_long: { message: 'A path segment is too long', raised: { status: 414 } },
  unsupported_media_type: { message: 'Send JSON, urlencoded or multipart bodies', raised: { status: 415 } },
  headers_too_large: { message: 'The request headers are too large', raised: { status: 431 } },
  rate_limited: { message: 'Too many requests: retry after the Retry-After seconds', raised: { status: 429, graphql: 'RATE_LIMITED' } },
  too_many_sockets: { message: 'Too many sockets', raised: { status: 429 } },
  // The query limits, checked before an operation runs (graphql/limits.ts).
  query_too_large: { message: 'The query has too many tokens', raised: { status: 400 } },
  query_too_deep: { message: 'The query nests too deeply', raised: { status: 400 } },
  too_many_aliases: { message: 'The query uses too many aliases', raised: { status: 400 } },
  too_many_directives: { message: 'The query uses too many directives', raised: { status: 400 } },
  query_too_complex: { message: 'The query may cost too much', raised: { status: 400 } },
  introspection_disabled: { message: 'Introspection is disabled on this service', raised: { status: 400 } },
  // An operation's budget, spent while it ran (graphql/budget.ts).
  result_too_large: { message: 'The reply would be too large', raised: { status: 400 } },
  query_timeout: { message: 'The operation ran too long', raised: { status: 503 } },
  // A query's arguments refused together (modules/reports: a report's period): 422, each bad argument a row of its own.
  invalid_arguments: { message: 'The arguments are not valid', raised: { status: 422, graphql: 'BAD_USER_INPUT' } },
  // Exports (modules/exports/): a file asked for before its job has written it.
  export_not_ready: { message: 'The export is not finished: export(id) tells its status', raised: { status: 409, graphql: 'EXPORT_NOT_READY' } },
} as const satisfies Record<string, CodeEntry>;

export type ErrorCode = keyof typeof errorCodes;
/** Codes raised instead of a result (an AppError): those with a GraphQL code. */
export type RaisedErrorCode = { [K in ErrorCode]: (typeof errorCodes)[K] extends { raised: { graphql: string } } ? K : never }[ErrorCode];

export const defaultMessage = (code: ErrorCode, count?: number) => errorCodes[code].message.replace('%{count}', String(count ?? ''));
/** GraphQL's `extensions.code` of a raised code. */
export const graphqlCode = (code: RaisedErrorCode): string => errorCodes[code].raised.graphql;
/** The HTTP status of a raised code (or of a refusal of the HTTP layer). */
export const raisedStatus = (code: RaisedErrorCode | ErrorCode): number => (errorCodes[code] as CodeEntry).raised?.status ?? 500;
/** The HTTP status of a payload carrying these codes: the most severe wins (403, then 409, then 422). */
export function payloadStatus(codes: Iterable<ErrorCode>): number {
  const statuses = [...codes].map((c) => (errorCodes[c] as CodeEntry).status ?? 422);
  return [403, 409].find((s) => statuses.includes(s)) ?? 422;
}
/**
 * GraphQL's `extensions.code` of a refusal written without an AppError (the HTTP layer before Apollo,
 * the rate limit, an operation's budget, a socket): the code in upper case, `internal` as GraphQL names it.
 */
export const refusalGraphqlCode = (code: ErrorCode): string => (code === 'internal' ? graphqlCode('internal') : code.toUpperCase());
/** The table's code whose upper case (or GraphQL code) a GraphQL error carries, if any. */
export const codeOfGraphql = (graphql: unknown): ErrorCode | undefined =>
  typeof graphql === 'string' ? (Object.keys(errorCodes) as ErrorCode[]).find((c) => refusalGraphqlCode(c) === graphql) : undefined;
/** The WebSocket close code of a refusal: 4000 plus its HTTP status (4401, 4403, 4429, 4400, 4500). */
export const closeCode = (code: ErrorCode): number => 4000 + raisedStatus(code);
