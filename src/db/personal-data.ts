import { eq, getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { apiTokens } from '../auth/api-token.table.js';
import { passwordResets } from '../auth/password-reset.table.js';
import { organizations, schools } from './school.table.js';
import { graphqlPersistedQueries } from '../http/persisted-query.table.js';
import { rateLimitBuckets } from '../http/rate-limit.table.js';
import { readYourWrites } from './read-your-writes.table.js';
import { activities, examAnswers, examQuestionAnswers, examQuestionAssertions, examQuestionOptions, examQuestions } from '../modules/activities/activity.table.js';
import { collaborativeComments, collaborativeDiscussions } from '../modules/collaborative/collaborative.table.js';
import { courseClasses } from '../modules/course-classes/course-class.table.js';
import { courseModuleLinks, courseModules, courses, lessons } from '../modules/courses/course.table.js';
import { enrollmentCourseClasses, enrollments, registrations } from '../modules/enrollments/enrollment.table.js';
import { domainEvents } from '../modules/events/domain-event.table.js';
import { extraContents } from '../modules/extra-contents/extra-content.table.js';
import { forumAnswers, forumQuestions, forums, forumSections } from '../modules/forums/forum.table.js';
import { integrationSuggestions, integrations } from '../modules/integrations/integration.table.js';
import { categories, hostCredentials, images, libraries, libraryResources } from '../modules/library/library.table.js';
import { media, videoSlideSyncs } from '../modules/media/media.table.js';
import { channels, messageChannels, messageOwners, messages } from '../modules/messages/message.table.js';
import { notifications } from '../modules/notifications/notification.table.js';
import { gatewayNotifications, gatewaySigningSecrets } from '../modules/orders/gateway-notification.table.js';
import { couponTokens, coupons, gatewayCredentials, invoices, orderItems, orders, paymentOptions, payments } from '../modules/orders/order.table.js';
import { pathCourses, paths } from '../modules/paths/path.table.js';
import { activityAttempts, certificates, contentOpenings, enrollmentExpirations, lessonProgress } from '../modules/progress/progress.table.js';
import { schoolProductCourses, schoolProductPaths } from '../modules/school-products/school-product-content.table.js';
import {
  schoolProductCategories,
  schoolProductClassTeachers,
  schoolProductGalleryMedia,
  schoolProducts,
  schoolProductTopics,
} from '../modules/school-products/school-product.table.js';
import { schoolDomains, schoolStatusChanges } from '../modules/schools/school.table.js';
import { users } from '../modules/users/user.table.js';
import { addresses } from '../modules/users/address.table.js';
import { integrationSigningSecrets, webhookAttempts, webhookDeliveries } from '../modules/webhooks/webhook.table.js';
import { personalDataErasures } from '../modules/privacy/privacy.table.js';
import { refreshTokens, sessions } from '../modules/identity/session.table.js';
import { signInFailures } from '../modules/identity/sign-in-failure.table.js';
import { lessonReleaseNotices, mails, mailSettings, mailUnsubscribes } from '../modules/mail/mail.table.js';
import { billingSettings } from '../modules/orders/billing-settings.table.js';
import { ssoJwtUses, ssoOidcStates, ssoSettings } from '../modules/sso/sso.table.js';
import { exportChunks, exportFiles } from '../modules/exports/export.table.js';

/**
 * What the service holds about a person, table by table: the one registry the export
 * (`exportPerson`) and the erasure (`erasePerson`) read, and the README's "Personal data" section
 * renders (npm run schema:write). Every table of the schema has a line (test/privacy/coverage.test.ts
 * fails on a table that refers to users or has a column named like a personal field and is not
 * here). It lives in the data layer, beside the tables it names, so naming every module's table
 * ties no modules together (test/layout.test.ts):
 *
 * - `person(table, ...)`: the users table itself: its row is anonymised in place, never deleted
 *   (orders, certificates and posts keep pointing at it).
 * - `owned(table, rows, erase, ...)`: the person's rows (`rows(userId)` selects them), exported
 *   under `key`; on erasure `keep` (ids, numbers and dates only: nothing left to anonymise),
 *   `anonymise` (the listed columns replaced) or `delete` (no reason to keep them).
 * - `none(table, why)`: holds nothing about a person.
 *
 * Decisions: free text a person wrote (posts, comments, messages, essay answers) is replaced by
 * `[erased]`: nobody can tell which sentence names them, and the threads keep their shape (others'
 * replies stay). Records the school must keep by law (orders, items, invoices, payments,
 * certificates already issued) are kept with their amounts and dates, the gateway's free text and
 * the card holder's name cleared. Notifications, addressed to the person alone, are deleted; others'
 * notifications and events that quote what they wrote lose the quote. Their rows that hold only ids,
 * numbers and dates (enrollments, progress, grades) are kept: they point at the anonymised person.
 */

/** Replaces free text a person wrote. */
export const ERASED_TEXT = '[erased]';
/** The name an erased person goes by. */
export const ERASED_NAME = 'Erased person';
/** A non-deliverable address (RFC 2606's `.invalid`), unique per user as the school's e-mails must be. */
export const erasedEmail = (userId: number) => `erased-${userId}@erased.invalid`;

/** Selects the person's rows of a table. */
export type PersonRows = (userId: number) => SQL;
/** A column's value after erasure: a constant, an SQL expression, or one computed from the person's id. */
export type Replacement = string | null | SQL | ((userId: number) => string | SQL);

export type Erase = 'keep' | 'anonymise' | 'delete';

export interface PersonalTable {
  readonly table: PgTable;
  readonly relation: 'person' | 'owned' | 'none';
  /** The export document's key for these rows (owned and person tables). */
  readonly key?: string;
  readonly rows?: PersonRows;
  readonly erase?: Erase;
  /** Column (property) → its value after erasure. */
  readonly anonymise?: Readonly<Record<string, Replacement>>;
  /** Columns never exported (secrets: hashes, digests). */
  readonly hidden?: readonly string[];
  /** False for rows that are others' (a notification quoting the person's post): erased, not exported. */
  readonly exported?: false;
  /** Columns named like personal data that are not the person's, each with why (the coverage test reads them). */
  readonly notPersonal?: Readonly<Record<string, string>>;
  readonly why: string;
}

/** Rows whose column names the person. */
const by =
  (column: PgColumn): PersonRows =>
  (userId) =>
    eq(column, userId);

/** Rows whose `column` refers to a row of `parent` (its id column) that the person owns. */
const through =
  (column: PgColumn, parentId: PgColumn, parentRows: PersonRows): PersonRows =>
  (userId) =>
    sql`${column} in (select ${parentId} from ${parentId.table} where ${parentRows(userId)})`;

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const person = (table: PgTable, anonymise: Record<string, Replacement>, hidden: string[], why: string): PersonalTable => ({
  table,
  relation: 'person',
  key: 'person',
  rows: by(users.id),
  erase: 'anonymise',
  anonymise,
  hidden,
  why,
});
const owned = (
  table: PgTable,
  rows: PersonRows,
  erase: Erase,
  why: string,
  more: Partial<Pick<PersonalTable, 'anonymise' | 'hidden' | 'key' | 'notPersonal' | 'exported'>> = {},
): PersonalTable => ({ table, relation: 'owned', key: more.key ?? camel(getTableName(table)), rows, erase, why, ...more });
const none = (table: PgTable, why: string, notPersonal?: Record<string, string>): PersonalTable => ({ table, relation: 'none', why, notPersonal });

const text = { text: ERASED_TEXT };
const ownEnrollments = by(enrollments.studentId);
const ownOrders = by(orders.studentId);
const ownInvoices = through(invoices.orderId, orders.id, ownOrders);
const ownExamAnswers = by(examAnswers.userId);
const ownTokens = by(apiTokens.userId);
const PEOPLE = sql.raw(`('Student', 'Collaborator', 'Admin', 'User')`);
/** The exports of the person's school: their files may quote anyone of it. */
const schoolExports: PersonRows = (userId) => sql`${exportFiles.schoolId} in (select ${users.schoolId} from ${users} where ${users.id} = ${userId})`;
/** Messages naming the person among their owners (addressed to them). */
const addressed: PersonRows = (userId) => sql`${messageOwners.ownerType} in ${PEOPLE} and ${messageOwners.ownerId} = ${userId}`;
/** Messages to them: naming them among the owners, or posted to a channel of their enrollment. */
const received: PersonRows = (userId) =>
  sql`(${messages.id} in (select ${messageOwners.messageId} from ${messageOwners} where ${addressed(userId)})
    or ${messages.id} in (select ${messageChannels.messageId} from ${messageChannels} where ${messageChannels.channelId} in
      (select ${channels.id} from ${channels} where ${channels.enrollmentId} in (select ${enrollments.id} from ${enrollments} where ${ownEnrollments(userId)}))))`;
/**
 * The paths of what the person wrote that notifications to others link to and quote (`New
 * message: <subject>`, `New forum question: <title>`: messages/message.create.ts, forums/forum.rules.ts).
 */
const quotedPaths = (userId: number) =>
  sql`(select '/messages/' || ${messages.id} from ${messages} where ${messages.senderId} = ${userId}
    union all select '/forum_questions/' || ${forumQuestions.id} from ${forumQuestions} where ${forumQuestions.userId} = ${userId})`;
/** Notifications to others quoting what the person wrote. */
const quoting: PersonRows = (userId) => sql`${notifications.url} in ${quotedPaths(userId)}`;
/** Events about the person: their subject, a payload naming them, or a notification quoting them. */
const aboutPerson: PersonRows = (userId) => {
  const p = domainEvents.payload;
  const u = String(userId);
  return sql`((${domainEvents.subjectType} in ${PEOPLE} and ${domainEvents.subjectId} = ${userId})
    or ${p}->>'userId' = ${u} or ${p}->>'user_id' = ${u} or ${p}->>'studentId' = ${u} or ${p}->>'senderId' = ${u}
    or ${p}->>'url' in ${quotedPaths(userId)})`;
};
/** An event payload with its free-text fields replaced (ids, statuses and amounts kept). */
const erasedPayload = sql`coalesce((select jsonb_object_agg(k, case when k in ('text', 'title', 'description', 'subject', 'url', 'name', 'email')
  and jsonb_typeof(v) = 'string' then to_jsonb(${ERASED_TEXT}::text) else v end) from jsonb_each(${domainEvents.payload}) as e(k, v)), '{}'::jsonb)`;
/** An attempt's answers with their essay texts and the graders' comments on them replaced. */
const erasedAnswers = sql`coalesce((select jsonb_agg(a || jsonb_strip_nulls(jsonb_build_object(
    'text', case when a->>'text' is not null then ${ERASED_TEXT}::text end, 'comment', case when a->>'comment' is not null then ${ERASED_TEXT}::text end)))
  from jsonb_array_elements(${activityAttempts.answers}) as a), '[]'::jsonb)`;

export const personalData: readonly PersonalTable[] = [
  // People.
  person(
    users,
    { fullName: ERASED_NAME, email: erasedEmail, passwordHash: null, document: null, phone: null },
    ['passwordHash'],
    'The person: name, e-mail, document and phone anonymised in place, the password cleared; the row stays for what refers to it.',
  ),
  owned(apiTokens, ownTokens, 'anonymise', 'Their credentials: revoked, labels cleared; exported without the digest.', {
    key: 'tokens',
    anonymise: { label: null, revokedAt: sql`coalesce(${apiTokens.revokedAt}, now())` },
    hidden: ['tokenDigest'],
  }),
  owned(sessions, by(sessions.userId), 'anonymise', 'Their signed-in sessions (method and times): revoked.', {
    anonymise: { revokedAt: sql`coalesce(${sessions.revokedAt}, now())` },
  }),
  owned(refreshTokens, through(refreshTokens.sessionId, sessions.id, by(sessions.userId)), 'keep', "Their sessions' refresh tokens: times; exported without the digest.", {
    hidden: ['tokenDigest'],
  }),
  owned(passwordResets, by(passwordResets.userId), 'delete', 'Their set-password links (digests and times): deleted.', { hidden: ['tokenDigest'] }),
  none(signInFailures, 'Failed sign-ins, keyed by a digest of school and e-mail or by a client address, kept for the lock-out window only.'),
  owned(addresses, by(addresses.userId), 'delete', 'Their postal addresses: deleted.'),
  owned(personalDataErasures, by(personalDataErasures.userId), 'keep', 'The record that the person was erased: ids and a time.', { key: 'erasure' }),
  // Learning.
  owned(registrations, by(registrations.studentId), 'keep', 'Ids and a status.'),
  owned(enrollments, ownEnrollments, 'keep', "The school's record of access: ids, dates, status."),
  owned(enrollmentCourseClasses, through(enrollmentCourseClasses.enrollmentId, enrollments.id, ownEnrollments), 'keep', 'Links.'),
  owned(lessonProgress, by(lessonProgress.studentId), 'keep', 'Times and positions.'),
  owned(contentOpenings, through(contentOpenings.enrollmentId, enrollments.id, ownEnrollments), 'keep', 'Days.'),
  owned(enrollmentExpirations, through(enrollmentExpirations.enrollmentId, enrollments.id, ownEnrollments), 'keep', 'Dates.'),
  owned(activityAttempts, by(activityAttempts.studentId), 'anonymise', 'Scores and grades kept; essay texts and the comments on them erased.', { anonymise: { answers: erasedAnswers } }),
  owned(examAnswers, ownExamAnswers, 'keep', 'Grades and times.'),
  owned(examQuestionAnswers, through(examQuestionAnswers.examAnswerId, examAnswers.id, ownExamAnswers), 'anonymise', 'Essay texts erased.', { anonymise: text }),
  owned(certificates, by(certificates.studentId), 'keep', 'Issued certificates are kept (ids, code, date); they now name the erased person.'),
  owned(schoolProductClassTeachers, by(schoolProductClassTeachers.userId), 'keep', 'A collaborator teaching a product: a link.', { key: 'teaching' }),
  // Commerce: kept for the school's books, without personal data.
  owned(orders, ownOrders, 'anonymise', "Kept for the school's books; the gateway's reply (which may echo the buyer) cleared.", { anonymise: { response: null } }),
  owned(orderItems, through(orderItems.orderId, orders.id, ownOrders), 'keep', 'Amounts.'),
  owned(invoices, ownInvoices, 'keep', 'Amounts and dates.'),
  owned(payments, through(payments.invoiceId, invoices.id, ownInvoices), 'anonymise', "Amounts kept; the card holder's name and the gateway's reply cleared.", {
    anonymise: { cardholder: null, response: null },
  }),
  // Communication.
  owned(messages, by(messages.senderId), 'anonymise', 'Messages they sent: subject and text erased.', { anonymise: { subject: ERASED_TEXT, text: ERASED_TEXT } }),
  owned(messages, received, 'keep', 'Messages to them (as an owner, or in their enrollment’s channel): the sender’s words, kept.', { key: 'messagesReceived' }),
  owned(messageOwners, addressed, 'keep', 'Their place among the owners of a message: links.', { key: 'messageOwners' }),
  owned(notifications, by(notifications.userId), 'delete', 'Addressed to the person alone: deleted.'),
  owned(notifications, quoting, 'anonymise', "Others' notifications quoting their message or question: the quote erased.", {
    key: 'notificationsQuoting',
    anonymise: text,
    exported: false,
  }),
  owned(forumQuestions, by(forumQuestions.userId), 'anonymise', 'Their questions: title and description erased, the thread kept.', {
    anonymise: { title: ERASED_TEXT, description: ERASED_TEXT },
  }),
  owned(forumAnswers, by(forumAnswers.userId), 'anonymise', 'Their answers: text erased.', { anonymise: text }),
  owned(collaborativeComments, by(collaborativeComments.userId), 'anonymise', 'Their comments: text erased.', { anonymise: text }),
  owned(domainEvents, aboutPerson, 'anonymise', 'Events about them: free-text payload fields erased, ids kept.', {
    key: 'events',
    anonymise: { payload: erasedPayload },
    notPersonal: { name: "the event's name" },
  }),
  // Nothing about a person.
  none(schools, "The school's own business contact (company, CNPJ, address).", {
    email: "the school's contact",
    phone: "the school's contact",
    cnpj: "the school's company id",
    address: "the school's address",
    companyName: "the school's company",
    name: "the school's name",
  }),
  none(organizations, "A school's organization.", { name: "the organization's name" }),
  none(schoolDomains, 'Domains.'),
  none(schoolStatusChanges, 'Status history.'),
  none(graphqlPersistedQueries, 'GraphQL documents.', { document: 'a GraphQL document' }),
  none(rateLimitBuckets, 'Token buckets keyed by digests and addresses, short-lived.'),
  none(readYourWrites, "Per credential id, the WAL position of its latest write, short-lived."),
  none(schoolProducts, 'Catalogue.'),
  none(schoolProductTopics, 'Catalogue.'),
  none(schoolProductCategories, 'Catalogue.'),
  none(schoolProductGalleryMedia, 'Catalogue.'),
  none(schoolProductCourses, 'Catalogue.'),
  none(schoolProductPaths, 'Catalogue.'),
  none(courses, 'Content.', { name: "the course's name" }),
  none(courseModules, 'Content.', { name: "the module's name" }),
  none(courseModuleLinks, 'Content.'),
  none(lessons, 'Content.'),
  none(paths, 'Content.', { name: "the path's name" }),
  none(pathCourses, 'Content.'),
  none(courseClasses, 'Classes.'),
  none(activities, 'Content.'),
  none(examQuestions, 'Content.'),
  none(examQuestionOptions, 'Content.'),
  none(examQuestionAssertions, 'Content.'),
  none(libraries, 'Content.', { name: "the library's name" }),
  none(libraryResources, 'Content.'),
  none(hostCredentials, "The school's media host."),
  none(images, 'Content.'),
  none(categories, 'Catalogue.', { name: "the category's name" }),
  none(media, 'Content.'),
  none(videoSlideSyncs, 'Content.'),
  none(extraContents, 'Content.'),
  none(forums, 'Structure.'),
  none(forumSections, 'Structure.'),
  none(collaborativeDiscussions, 'Structure.'),
  none(channels, 'Structure.', { name: "the channel's name" }),
  none(messageChannels, 'Links between messages and channels.'),
  none(paymentOptions, 'Catalogue.', { name: "the option's name" }),
  none(coupons, 'Catalogue.'),
  none(couponTokens, 'Catalogue.'),
  none(gatewayCredentials, "The school's gateway account.", { name: "the account's name" }),
  none(gatewaySigningSecrets, 'Secrets.'),
  none(gatewayNotifications, "A gateway's reports of payment statuses by event id: ids, statuses, amounts; the reason is the gateway's word about the payment."),
  none(integrations, "The school's integrations (owned by the school or a product).", { ownerId: 'a school or a product, never a person' }),
  none(integrationSuggestions, 'A suggestion to the platform.', { name: 'the suggested integration' }),
  none(integrationSigningSecrets, 'Secrets.'),
  none(webhookDeliveries, 'Delivery state of events (their payloads live in domain_events).', { eventName: "the event's name" }),
  none(webhookAttempts, 'Delivery attempts.'),
  // Mail.
  owned(mails, by(mails.userId), 'delete', 'Mails to the person: their address, name and the words sent; deleted (nothing the school must keep).', {
    notPersonal: { messageId: "the mail's id" },
  }),
  owned(mails, by(mails.quotesUserId), 'delete', "Mails to others naming the person (their message's sender, their answer's author): deleted.", {
    key: 'mailsQuoting',
    exported: false,
    notPersonal: { messageId: "the mail's id" },
  }),
  owned(mailUnsubscribes, by(mailUnsubscribes.userId), 'keep', 'Their choice to receive no optional mail: ids and a time.'),
  owned(lessonReleaseNotices, through(lessonReleaseNotices.enrollmentId, enrollments.id, ownEnrollments), 'keep', 'Which released lessons they were told of: ids and times.'),
  none(billingSettings, "The school's terms for recurring invoices: due and grace days."),
  none(mailSettings, "The school's sender.", { senderName: "the school's name as the sender", replyTo: "the school's address" }),
  // Single sign-on.
  none(ssoSettings, "The school's single sign-on.", { allowedEmailDomains: 'domains the school admits, not an address' }),
  none(ssoOidcStates, 'A sign-in under way: a digest, a nonce and an encrypted verifier, for minutes; it names no one.'),
  none(ssoJwtUses, 'The ids of tokens used, until they expire.'),
  // CSV exports (modules/exports/): files of the school's rows, which may quote anyone of it.
  owned(exportChunks, through(exportChunks.exportId, exportFiles.id, schoolExports), 'delete', "The school's CSV files may quote the person (name, e-mail): deleted (they expire in 7 days anyway); never exported to them (others' rows).", {
    exported: false,
  }),
  owned(exportFiles, schoolExports, 'delete', "The export jobs of the person's school, whose files may quote them: deleted with their files.", { exported: false }),
];

/** The registry's tables with the person's rows, in the registry's order (the export document's). */
export const personTables = personalData.filter((t) => t.relation !== 'none');

/** The columns of a table by property name. */
export const columnsOf = (table: PgTable): Record<string, PgColumn> => getTableColumns(table) as Record<string, PgColumn>;
