import { z } from 'zod';

/**
 * The catalog of the events the service emits: the one place that says, for each event, its name,
 * version, subject, the operations that emit it and its payload. The payload is a zod schema,
 * written once: `emitEvent` takes `z.infer` of it (a payload that does not fit is a compile
 * error), and the JSON Schema shown to users (README, GraphQL `EventName` descriptions, webhook
 * documentation) is `z.toJSONSchema` of it.
 *
 * A payload only ever gains optional fields within a version; anything else is a new version.
 */
const id = z.number().int();
const nullableId = id.nullable();
const isoTime = z.string().describe('RFC 3339 time');

interface Definition<S extends string, P extends z.ZodObject> {
  version: number;
  subject: S;
  /** The GraphQL operations (root fields) that emit it, or the process that does. */
  emittedBy: readonly string[];
  description: string;
  payload: P;
  /**
   * The payload field naming the one user the event is addressed to, when there is one: its
   * NOTIFY carries it (event-bus.ts), so a subscriber listening for someone else skips the event
   * without reading anything.
   */
  recipient?: keyof z.infer<P> & string;
}
const event = <const S extends string, P extends z.ZodObject>(d: Definition<S, P>) => d;

const enrollment = z.object({ studentId: id, registrationId: id, schoolProductId: id, status: z.string() });
const orderStatus = z.object({ from: z.string().nullable(), to: z.string(), studentId: id });
const completion = z.object({ enrollmentId: id, studentId: id, schoolProductId: id, progress: z.number().int() });
/** An event of an enrollment's completion, recorded by the progress writes that complete it. */
const onCompletion = <const S extends string, P extends z.ZodObject>(subject: S, description: string, payload: P) =>
  event({ version: 1, subject, emittedBy: ['recordLessonProgress', 'submitActivityAttempt'], description, payload });
const payment = z.object({
  orderId: id,
  invoiceId: id,
  status: z.string(),
  kind: z.number().int(),
  amount: z.number().int().nullable().describe('cents'),
  uuid: z.string().nullable(),
});
const changed = z.array(z.string()).describe('the input fields the write gave');

export const eventCatalog = {
  'school.status_changed': event({
    version: 1,
    subject: 'School',
    emittedBy: ['updateSchool'],
    description: 'A lifecycle event moved the school to another status.',
    payload: z.object({ event: z.string(), from: z.string(), to: z.string() }),
  }),
  'school_product.created': event({
    version: 1,
    subject: 'SchoolProduct',
    emittedBy: ['createSchoolProduct'],
    description: 'A school product was created.',
    payload: z.object({ title: z.string(), published: z.boolean() }),
  }),
  'school_product.updated': event({
    version: 1,
    subject: 'SchoolProduct',
    emittedBy: ['updateSchoolProduct'],
    description: 'A school product was changed (its columns or its linked lists).',
    payload: z.object({ title: z.string(), published: z.boolean(), changed }),
  }),
  'enrollment.created': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['createEnrollment', 'createEnrollments'],
    description: 'An enrollment was created.',
    payload: enrollment,
  }),
  'enrollment.updated': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['updateEnrollment'],
    description: 'An enrollment was changed.',
    payload: enrollment.extend({ changed }),
  }),
  'enrollment.activated': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['createEnrollment', 'createEnrollments', 'updateEnrollment'],
    description: 'An enrollment became active.',
    payload: enrollment,
  }),
  'enrollment.canceled': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['updateEnrollment'],
    description: 'An enrollment was canceled (status canceled).',
    payload: enrollment,
  }),
  'enrollment.expired': event({
    version: 1,
    subject: 'Enrollment',
    emittedBy: ['the expiry sweep (once a minute)', 'updateEnrollment'],
    description: 'An enrollment ran out (available_until passed; recorded once per available_until) or was set to expired.',
    payload: z.object({ availableUntil: isoTime.nullable() }),
  }),
  'enrollment.completed': onCompletion('Enrollment', "An enrollment reached its product's certification progress.", completion),
  'certificate.issued': onCompletion(
    'Certificate',
    'A certificate was issued for a completed enrollment.',
    completion.extend({ code: z.string() }),
  ),
  'order.created': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['createOrder'],
    description: 'An order was created.',
    payload: z.object({ status: z.string(), studentId: id }),
  }),
  'order.confirmed': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['createOrder', 'updateOrder'],
    description: 'An order became confirmed.',
    payload: orderStatus,
  }),
  'order.canceled': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['updateOrder', 'cancelOrder'],
    description: 'An order was canceled.',
    payload: orderStatus,
  }),
  'order.imported': event({
    version: 1,
    subject: 'Order',
    emittedBy: ['importOrder'],
    description: 'An order was imported with its items, invoices and payments.',
    payload: z.object({ uuid: z.string().nullable(), status: z.string(), items: z.number().int(), invoices: z.number().int(), payments: z.number().int() }),
  }),
  'invoice.paid': event({
    version: 1,
    subject: 'Invoice',
    emittedBy: ['importOrder'],
    description: 'An invoice was recorded paid (invoices are written by imports only).',
    payload: z.object({ orderId: id, amount: z.number().int().describe('cents'), occurrence: z.number().int(), uuid: z.string().nullable() }),
  }),
  'payment.confirmed': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['importOrder'],
    description: 'A payment was recorded confirmed (payments are written by imports only).',
    payload: payment,
  }),
  'payment.refunded': event({
    version: 1,
    subject: 'Payment',
    emittedBy: ['importOrder'],
    description: 'A payment was recorded refunded (payments are written by imports only).',
    payload: payment,
  }),
  'course.created': event({
    version: 1,
    subject: 'Course',
    emittedBy: ['createCourse', 'duplicateCourse'],
    description: 'A course was created (or copied: duplicatedFromId names the source).',
    payload: z.object({ name: z.string(), code: z.string().nullable(), duplicatedFromId: id.optional() }),
  }),
  'course.updated': event({
    version: 1,
    subject: 'Course',
    emittedBy: ['updateCourse'],
    description: 'A course was changed.',
    payload: z.object({ name: z.string(), code: z.string().nullable(), changed }),
  }),
  'course.deleted': event({
    version: 1,
    subject: 'Course',
    emittedBy: ['deleteCourse'],
    description: 'A course was deleted.',
    payload: z.object({ name: z.string(), code: z.string().nullable() }),
  }),
  'lesson.created': event({
    version: 1,
    subject: 'Lesson',
    emittedBy: ['createLesson'],
    description: 'A lesson was created.',
    payload: z.object({ title: z.string(), courseModuleId: nullableId }),
  }),
  'lesson.updated': event({
    version: 1,
    subject: 'Lesson',
    emittedBy: ['updateLesson'],
    description: 'A lesson was changed (or moved).',
    payload: z.object({ title: z.string(), courseModuleId: nullableId, changed }),
  }),
  'lesson.deleted': event({
    version: 1,
    subject: 'Lesson',
    emittedBy: ['deleteLesson'],
    description: 'A lesson was deleted.',
    payload: z.object({ title: z.string(), courseModuleId: nullableId }),
  }),
  'media.reprocess_requested': event({
    version: 1,
    subject: 'Media',
    emittedBy: ['reprocessMedia'],
    description: 'A media was queued for processing again.',
    payload: z.object({ type: z.string(), previousStatus: z.string() }),
  }),
  'media.processed': event({
    version: 1,
    subject: 'Media',
    emittedBy: ['reportMediaProcessing'],
    description: 'The processing of a media ended (ready or failed).',
    payload: z.object({ status: z.string() }),
  }),
  'forum_question.created': event({
    version: 1,
    subject: 'ForumQuestion',
    emittedBy: ['createForumQuestion'],
    description: 'A forum question was asked.',
    payload: z.object({ id, forum_section_id: id, user_id: nullableId, title: z.string() }),
  }),
  'forum_question.answered': event({
    version: 1,
    subject: 'ForumQuestion',
    emittedBy: ['createForumAnswer'],
    description: 'A collaborator or an admin answered a question no staff had answered yet (what answeredByAdmin reads).',
    payload: z.object({ id, forum_answer_id: id, user_id: nullableId }),
  }),
  'forum_answer.created': event({
    version: 1,
    subject: 'ForumAnswer',
    emittedBy: ['createForumAnswer'],
    description: 'A forum question got an answer.',
    payload: z.object({ id, forum_question_id: id, user_id: nullableId }),
  }),
  'message.created': event({
    version: 1,
    subject: 'Message',
    emittedBy: ['createMessage'],
    description: 'A message was posted.',
    payload: z.object({
      channelIds: z.array(id),
      senderId: id,
      owners: z.array(z.object({ ownerId: id, ownerType: z.string() })),
      notifiedUserIds: z.array(id),
    }),
  }),
  'notification.created': event({
    version: 1,
    subject: 'Notification',
    emittedBy: ['createNotification', 'createMessage', 'createForumQuestion'],
    description: 'A person was notified.',
    payload: z.object({ userId: id, text: z.string().nullable(), url: z.string().nullable() }),
    recipient: 'userId',
  }),
  'collaborative_comment.created': event({
    version: 1,
    subject: 'CollaborativeComment',
    emittedBy: ['createCollaborativeComment'],
    description: 'A comment was posted to a collaborative discussion.',
    payload: z.object({ id, collaborative_discussion_id: id, user_id: id }),
  }),
} as const;

type Catalog = typeof eventCatalog;
export type EventName = keyof Catalog;
export const EVENT_NAMES = Object.keys(eventCatalog) as EventName[];
export type EventPayload<N extends EventName> = z.infer<Catalog[N]['payload']>;
export type EventSubject<N extends EventName> = Catalog[N]['subject'];

/** One event to emit: its payload and subject typed by the catalog entry its name picks. */
export type DomainEvent = {
  [N in EventName]: { schoolId: number; name: N; subjectType: EventSubject<N>; subjectId: number | null; payload: EventPayload<N> };
}[EventName];

/** The payload field naming the user an event is addressed to (the catalog's `recipient`), or undefined. */
export const recipientField = (name: EventName): string | undefined => (eventCatalog[name] as { recipient?: string }).recipient;

export const isEventName = (name: string): name is EventName => Object.hasOwn(eventCatalog, name);

/** The GraphQL enum value of an event name: `enrollment.created` → `ENROLLMENT_CREATED`. */
export const enumKeyOf = (name: EventName) => name.replace(/\./g, '_').toUpperCase();

/** The payload's JSON Schema, as users see it. */
export function payloadJsonSchema(name: EventName): Record<string, unknown> {
  return z.toJSONSchema(eventCatalog[name].payload) as Record<string, unknown>;
}

/** Checks a payload against its schema (tests, and a reader's sanity check). */
export function parsePayload(name: EventName, payload: unknown) {
  return eventCatalog[name].payload.safeParse(payload);
}
