import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, text, unique } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolEntryTable, schoolTable } from '../../db/tables.js';
import { lessons } from '../courses/course.table.js';
import { enrollments } from '../enrollments/enrollment.table.js';
import { users } from '../users/user.table.js';

/** What a mail is about; each kind has its template pair in templates/ and its strings in locales/. */
export const MAIL_KINDS = [
  'invitation',
  'password_reset',
  'order_receipt',
  'enrollment_activated',
  'lesson_released',
  'certificate_issued',
  'forum_question_answered',
  'new_message',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const mailKind = pgEnum('mail_kind', MAIL_KINDS);

/**
 * queued: due for the worker; sent: the SMTP server accepted it; failed: refused for good (5xx) or
 * out of retries; kept: no SMTP_URL, so it stays here to be read (GET /mails); suppressed: written
 * for the record but never sent (the kind is off for the school, or the person unsubscribed).
 */
export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'kept', 'suppressed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
export const mailStatus = pgEnum('mail_status', MAIL_STATUSES);

/**
 * The e-mail outbox: one rendered mail to one person, written in the transaction of the change that
 * causes it (mail.enqueue.ts) and sent by the worker of any instance (mail.worker.ts), which claims
 * it with FOR UPDATE SKIP LOCKED and a lease (`claimedUntil`).
 */
export const mails = schoolTable(
  'mails',
  {
    userId: belongsTo(() => users.id),
    /** Another person the mail names (a message's sender, a question's answerer): its erasure deletes the mail. */
    quotesUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    recipient: text().notNull(),
    kind: mailKind().notNull(),
    locale: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    messageId: text().notNull(),
    /** The extra headers sent (List-Unsubscribe, Auto-Submitted, ...). */
    headers: jsonb().$type<Record<string, string>>().notNull(),
    status: mailStatus().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: tstz().notNull().defaultNow(),
    claimedUntil: tstz(),
    lastError: text(),
    sentAt: tstz(),
  },
  (t) => [
    // The worker's claim: due queued mails, oldest first.
    index('mails_due_idx').on(t.nextAttemptAt, t.id).where(sql`status = 'queued'`),
    // The school's list, newest last, and its filters.
    orderedIndex(t.schoolId, t.id),
    indexOn(t.schoolId, t.kind),
    indexOn(t.schoolId, t.status),
    indexOn(t.userId),
    indexOn(t.quotesUserId),
    unique('mails_message_id_key').on(t.messageId, t.schoolId),
  ],
);
export type MailRow = typeof mails.$inferSelect;

/** A school's mail settings (one row at most): its sender name, reply-to, and the kinds it turned off. */
export const mailSettings = schoolTable(
  'mail_settings',
  {
    senderName: text(),
    replyTo: text(),
    disabledKinds: jsonb().$type<MailKind[]>().notNull().default([]),
  },
  (t) => [unique('mail_settings_school_id_key').on(t.schoolId)],
);
export type MailSettingsRow = typeof mailSettings.$inferSelect;

/** A person who unsubscribed from the school's non-essential mails (the one-click link). */
export const mailUnsubscribes = schoolEntryTable(
  'mail_unsubscribes',
  { userId: belongsTo(() => users.id) },
  (t) => [unique('mail_unsubscribes_user_id_key').on(t.userId, t.schoolId), indexOn(t.schoolId)],
);

/**
 * A lesson released by drip that a student was told of (mail.drip.ts): the claim of the
 * `lesson_released` mail, inserted in its transaction. The unique key is what makes two instances
 * announce a lesson once; rows past the catch-up window are pruned (they can no longer be found).
 */
export const lessonReleaseNotices = schoolEntryTable(
  'lesson_release_notices',
  {
    enrollmentId: belongsTo(() => enrollments.id),
    lessonId: belongsTo(() => lessons.id),
    /** When the lesson was released to the enrollment (what the window and the pruning read). */
    releasedAt: tstz().notNull(),
  },
  (t) => [unique('lesson_release_notices_enrollment_id_lesson_id_key').on(t.enrollmentId, t.lessonId, t.schoolId), indexOn(t.lessonId), indexOn(t.releasedAt), indexOn(t.schoolId)],
);
