import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { issuePasswordLinks } from '../../auth/password-link.js';
import type { Queryable } from '../../db/client.js';
import { schools } from '../../db/school.table.js';
import { users } from '../users/user.table.js';
import { isEssential, mailLocale, type MailData } from './mail.kinds.js';
import { certificateUrl, fromAddress, SET_PASSWORD_TTL_SECONDS, schoolSite, unsubscribeToken, unsubscribeUrl } from './mail.links.js';
import { type MailContext, renderMail, type MailSchool } from './mail.render.js';
import { type MailKind, type MailRow, mails, mailSettings, mailUnsubscribes } from './mail.table.js';

export interface MailRequest<K extends MailKind = MailKind> {
  schoolId: number;
  userId: number;
  kind: K;
  data: MailData[K] & { link?: string };
  /** Another person the mail names (personal-data.ts: erasing them deletes it). */
  quotesUserId?: number | null;
}

const DEFAULT_COLOR = '#4f46e5';
const HEX_COLOR = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;

/** The school's brand colour, when its metadata names one (`primary_color`, `primaryColor`, `color`). */
function colorOf(metadata: Record<string, unknown> | null): string {
  const given = metadata?.primary_color ?? metadata?.primaryColor ?? metadata?.color;
  return typeof given === 'string' && HEX_COLOR.test(given) ? given : DEFAULT_COLOR;
}

/** The kind's main link: the one given, or the one the kind always carries. */
function actionOf(kind: MailKind, data: Record<string, unknown>, site: string, schoolId: number, userId: number): string | null {
  if (typeof data.link === 'string' && data.link) return data.link;
  switch (kind) {
    case 'invitation':
    case 'password_reset':
      return null;
    case 'certificate_issued':
      return (data.verifyUrl as string | undefined) ?? certificateUrl(String(data.code));
    case 'order_receipt':
      return `${site}/orders/${data.orderId}`;
    case 'lesson_released':
      return data.lessonId ? `${site}/lessons/${data.lessonId}` : site;
    case 'forum_question_answered':
      return data.questionId ? `${site}/forum_questions/${data.questionId}` : site;
    default:
      return site;
  }
}

/** The Message-ID's right side: the sender's domain. */
const messageDomain = () => fromAddress().split('@')[1] || 'localhost';

/**
 * Writes rendered mails of one kind to people of one school in the caller's transaction (as events
 * are): they exist exactly when the change that causes them commits, and the worker of any instance
 * sends them. A non-essential kind the school turned off, or sent to a person who unsubscribed, is
 * written `suppressed` and never sent: the school's admin sees why a person got no mail. People not
 * of the school are skipped. Three statements however many people.
 */
export async function enqueueMails<K extends MailKind>(
  tx: Queryable,
  schoolId: number,
  kind: K,
  recipients: readonly Pick<MailRequest<K>, 'userId' | 'data' | 'quotesUserId'>[],
): Promise<MailRow[]> {
  if (recipients.length === 0) return [];
  const [school] = await tx
    .select({
      name: schools.name,
      logo: schools.logo,
      metadata: schools.metadata,
      locale: schools.locale,
      site: schools.site,
      subdomain: schools.subdomain,
      disabledKinds: mailSettings.disabledKinds,
    })
    .from(schools)
    .leftJoin(mailSettings, eq(mailSettings.schoolId, schools.id))
    .where(eq(schools.id, schoolId));
  if (!school) return [];
  const people = await tx
    .select({ id: users.id, email: users.email, fullName: users.fullName, locale: users.locale, unsubscribed: mailUnsubscribes.id })
    .from(users)
    .leftJoin(mailUnsubscribes, eq(mailUnsubscribes.userId, users.id))
    .where(and(eq(users.schoolId, schoolId), inArray(users.id, [...new Set(recipients.map((r) => r.userId))])));
  const byId = new Map(people.map((p) => [p.id, p]));
  const site = schoolSite(school);
  const brand: MailSchool = { name: school.name, logo: school.logo, color: colorOf(school.metadata) };
  const essential = isEssential(kind);
  const kindOff = !essential && (school.disabledKinds ?? []).includes(kind);

  const values = recipients.flatMap(({ userId, data, quotesUserId }) => {
    const person = byId.get(userId);
    if (!person) return [];
    const locale = mailLocale(person.locale, school.locale);
    const unsubscribe = essential ? null : unsubscribeUrl(unsubscribeToken(schoolId, userId));
    const context: MailContext = {
      kind,
      locale,
      school: brand,
      person: { name: person.fullName },
      data,
      action: actionOf(kind, data as Record<string, unknown>, site, schoolId, userId),
      unsubscribeUrl: unsubscribe,
    };
    const rendered = renderMail(context);
    const headers: Record<string, string> = { 'Auto-Submitted': 'auto-generated' };
    if (unsubscribe) {
      headers['List-Unsubscribe'] = `<${unsubscribe}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    const suppressed = kindOff || (!essential && person.unsubscribed !== null);
    return [
      {
        schoolId,
        userId,
        quotesUserId: quotesUserId ?? null,
        recipient: person.email,
        kind,
        locale,
        ...rendered,
        messageId: `<${randomUUID()}@${messageDomain()}>`,
        headers,
        status: suppressed ? ('suppressed' as const) : ('queued' as const),
      },
    ];
  });
  if (values.length === 0) return [];
  return tx.insert(mails).values(values).returning();
}

/** One mail to one person: `await enqueueMail(tx, { schoolId, userId, kind, data })` in the change's transaction. */
export async function enqueueMail<K extends MailKind>(tx: Queryable, request: MailRequest<K>): Promise<MailRow | null> {
  const [row] = await enqueueMails(tx, request.schoolId, request.kind, [{ userId: request.userId, data: request.data, quotesUserId: request.quotesUserId }]);
  return row ?? null;
}

/**
 * The invitations of new people of one school: each a welcome whose link sets the person's first
 * password (single use, 7 days; resetPassword takes it). A handful of statements however many people.
 */
export async function enqueueInvitations(tx: Queryable, schoolId: number, userIds: readonly number[], now: Date): Promise<MailRow[]> {
  const links = await issuePasswordLinks(tx, schoolId, userIds, now, SET_PASSWORD_TTL_SECONDS);
  return enqueueMails(tx, schoolId, 'invitation', userIds.map((userId, i) => ({ userId, data: { link: links[i] } })));
}

/** One person's invitation (createStudent, the `POST /invitations` action). */
export async function enqueueInvitation(tx: Queryable, person: { schoolId: number; userId: number }, now: Date): Promise<MailRow | null> {
  return (await enqueueInvitations(tx, person.schoolId, [person.userId], now))[0] ?? null;
}
