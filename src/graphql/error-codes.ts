/**
 * Every error code the service answers with, in one table: its default message, the HTTP status a
 * REST reply carries and, for a code raised instead of a result, its GraphQL `extensions.code`.
 * test/error-codes.test.ts fails when the source uses a code this table lacks, or when a module's
 * payload can carry a code its domain's enum lacks.
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
  too_short: { message: 'is too short (minimum is %{count} characters)' },
  not_a_number: { message: 'is not a number' },
  invalid_transition: { message: 'cannot happen from the current state' },
  duplicate: { message: 'is a duplicate of another item of this list' },
  unpermitted: { message: 'cannot be changed' },
  too_many_attempts: { message: 'has no attempts left' },
  inactive: { message: 'is not active' },
  no_access: { message: 'does not give access to this record' },
  not_scorm: { message: 'is not a SCORM package' },
  foreign_host: { message: "must be on one of the school's domains" },
  // Raised instead of a result (AppError); `not_found`, `forbidden` and `too_long` above are raised too.
  bad_request: { message: 'The request is malformed', raised: { status: 400, graphql: 'BAD_USER_INPUT' } },
  unauthenticated: { message: 'A valid credential is required (Authorization: Bearer <token>)', raised: { status: 401, graphql: 'UNAUTHENTICATED' } },
  conflict: { message: 'The record changed meanwhile', raised: { status: 409, graphql: 'CONFLICT' } },
  payload_too_large: { message: 'The body is too large', raised: { status: 413, graphql: 'PAYLOAD_TOO_LARGE' } },
  internal: { message: 'Internal server error', raised: { status: 500, graphql: 'INTERNAL_SERVER_ERROR' } },
  // Refusals of the HTTP layer and of REST's reading of parameters (REST details; /graphql shows them upper case).
  invalid_type: { message: 'has the wrong type', raised: { status: 400 } },
  invalid_characters: { message: 'contains a character text cannot hold', raised: { status: 400 } },
  too_deep: { message: 'nests too deeply', raised: { status: 400 } },
  route_not_found: { message: 'No route matches this request', raised: { status: 404 } },
  method_not_allowed: { message: 'This path does not answer this method', raised: { status: 405 } },
  not_acceptable: { message: 'This service speaks version 1 of the interface (application/json)', raised: { status: 406 } },
  request_timeout: { message: 'The request took too long to arrive', raised: { status: 408 } },
  uri_too_long: { message: 'A path segment is too long', raised: { status: 414 } },
  unsupported_media_type: { message: 'Send JSON, urlencoded or multipart bodies', raised: { status: 415 } },
  headers_too_large: { message: 'The request headers are too large', raised: { status: 431 } },
  rate_limited: { message: 'Too many requests: retry after the Retry-After seconds', raised: { status: 429 } },
  // An operation's budget, spent while it ran (graphql/budget.ts).
  result_too_large: { message: 'The reply would be too large', raised: { status: 400 } },
  query_timeout: { message: 'The operation ran too long', raised: { status: 503 } },
} as const satisfies Record<string, CodeEntry>;

export type ErrorCode = keyof typeof errorCodes;
/** Codes raised instead of a result (an AppError): those with a GraphQL code. */
export type RaisedErrorCode = { [K in ErrorCode]: (typeof errorCodes)[K] extends { raised: { graphql: string } } ? K : never }[ErrorCode];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(errorCodes, code);
export const defaultMessage = (code: ErrorCode, count?: number) => errorCodes[code].message.replace('%{count}', String(count ?? ''));
/** GraphQL's `extensions.code` of a raised code. */
export const graphqlCode = (code: RaisedErrorCode): string => errorCodes[code].raised.graphql;
/** The HTTP status of a raised code (or of a refusal of the HTTP layer). */
export const raisedStatus = (code: RaisedErrorCode | ErrorCode): number => (errorCodes[code] as CodeEntry).raised?.status ?? 500;
/** The HTTP status of a payload carrying these codes: the most severe wins (403, then 409, then 422). */
export function payloadStatus(codes: Iterable<ErrorCode | string>): number {
  const statuses = [...codes].map((c) => (isErrorCode(c) ? ((errorCodes[c] as CodeEntry).status ?? 422) : 422));
  return [403, 409].find((s) => statuses.includes(s)) ?? 422;
}

/** Payload codes every domain's mutations can return: the shared checks, references and constraint violations. */
export const commonCodes = [
  'blank',
  'invalid',
  'inclusion',
  'not_found',
  'taken',
  'in_use',
  'greater_than_or_equal_to',
  'less_than_or_equal_to',
] as const satisfies readonly ErrorCode[];

export interface ErrorDomain {
  /** The GraphQL names: `<name>Error` and `<name>ErrorCode`. */
  name: string;
  /** The module folders whose payloads carry these codes (src/modules/<folder>). */
  folders: string[];
  /** The payloads' node types (the first argument of `Payload(...)`) that belong here. */
  nodes: string[];
  /** Payload type names that belong here whatever their node type. */
  payloads?: string[];
  /** The codes of this domain besides `commonCodes`. */
  codes: ErrorCode[];
}

/** One error-code enum per domain, as Saleor does: each lists what its payloads may return. */
export const errorDomains = {
  activity: { name: 'Activity', folders: ['activities'], nodes: ['Activity', 'ExamAnswer', 'ExamQuestionAnswer'], codes: ['forbidden', 'present', 'too_many_attempts'] },
  apiToken: { name: 'ApiToken', folders: ['auth-tokens'], nodes: ['ApiToken'], codes: ['present'] },
  collaborative: { name: 'Collaborative', folders: ['collaborative'], nodes: ['CollaborativeDiscussion', 'CollaborativeComment'], codes: ['forbidden'] },
  courseClass: { name: 'CourseClass', folders: ['course-classes'], nodes: ['CourseClass'], codes: ['greater_than'] },
  course: { name: 'Course', folders: ['courses'], nodes: ['Course', 'CourseModule', 'Lesson'], codes: [] },
  enrollment: { name: 'Enrollment', folders: ['enrollments'], nodes: ['Enrollment', 'Registration'], payloads: ['EnrollmentsPayload'], codes: ['forbidden', 'greater_than'] },
  extraContent: { name: 'ExtraContent', folders: ['extra-contents'], nodes: ['ExtraContent'], codes: [] },
  forum: { name: 'Forum', folders: ['forums'], nodes: ['Forum', 'ForumSection', 'ForumQuestion', 'ForumAnswer'], codes: ['forbidden'] },
  integration: { name: 'Integration', folders: ['integrations'], nodes: ['Integration', 'IntegrationSuggestion'], codes: [] },
  library: { name: 'Library', folders: ['library'], nodes: ['Library', 'LibraryResource', 'Category', 'Image', 'HostCredential'], codes: ['greater_than'] },
  media: {
    name: 'Media',
    folders: ['media'],
    nodes: ['Media', 'ScormLaunch'],
    codes: ['present', 'duplicate', 'unpermitted', 'inactive', 'no_access', 'not_scorm', 'foreign_host'],
  },
  message: { name: 'Message', folders: ['messages'], nodes: ['Channel', 'Message'], codes: ['present'] },
  notification: { name: 'Notification', folders: ['notifications'], nodes: ['Notification'], codes: [] },
  order: {
    name: 'Order',
    folders: ['orders'],
    nodes: ['Order', 'ImportedOrder', 'PaymentOption', 'Coupon', 'CouponToken', 'GatewayCredential'],
    codes: ['present', 'exclusion', 'invalid_transition'],
  },
  path: { name: 'Path', folders: ['paths'], nodes: ['Path'], codes: [] },
  progress: { name: 'Progress', folders: ['progress'], nodes: ['LessonProgress', 'ActivityAttempt'], codes: ['too_many_attempts'] },
  schoolProduct: { name: 'SchoolProduct', folders: ['school-products'], nodes: ['SchoolProduct', 'SchoolProductTopic'], codes: [] },
  school: { name: 'School', folders: ['schools'], nodes: ['School'], payloads: ['SchoolWizardPayload'], codes: ['forbidden', 'exclusion', 'invalid_transition', 'too_short'] },
  account: { name: 'Account', folders: ['users'], nodes: [], payloads: ['AdminPayload', 'StudentPayload', 'CollaboratorPayload'], codes: ['forbidden', 'too_short'] },
  webhook: { name: 'Webhook', folders: ['webhooks'], nodes: ['WebhookDelivery'], payloads: ['RotateIntegrationSecretPayload', 'RedeliverWebhooksPayload'], codes: [] },
} as const satisfies Record<string, ErrorDomain>;

export type ErrorDomainKey = keyof typeof errorDomains;

/** The codes a domain's payloads may return: the common ones, then its own. */
export const domainCodes = (domain: ErrorDomainKey): ErrorCode[] => [...new Set<ErrorCode>([...commonCodes, ...errorDomains[domain].codes])];

/** The domain of a payload: by its type name, else by its node type's name. */
export function domainOf(payloadName: string, nodeName?: string): ErrorDomainKey {
  const entries = Object.entries(errorDomains) as [ErrorDomainKey, ErrorDomain][];
  const found =
    entries.find(([, d]) => d.payloads?.includes(payloadName)) ?? (nodeName === undefined ? undefined : entries.find(([, d]) => d.nodes.includes(nodeName)));
  if (!found) throw new Error(`No error domain for the payload ${payloadName}${nodeName ? ` (of ${nodeName})` : ''}: add it to errorDomains in src/graphql/error-codes.ts`);
  return found[0];
}

/** Whether a GraphQL type is one of the domains' `<Domain>Error` types (REST reads payloads' errors by it). */
export const isDomainErrorType = (typeName: string): boolean => Object.values(errorDomains).some((d) => `${d.name}Error` === typeName);
