import { type ErrorCode } from '../errors/codes.js';

export * from '../errors/codes.js';

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
