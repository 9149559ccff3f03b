import type { Locale } from '../../errors/i18n.js';
import type { MailKind } from './mail.table.js';

/**
 * Mails a person cannot unsubscribe from, nor a school turn off: they carry the link the person
 * needs to get into the account at all (RFC 8058 asks unsubscribe links only of the others).
 */
export const ESSENTIAL_KINDS: ReadonlySet<MailKind> = new Set<MailKind>(['invitation', 'password_reset']);
export const isEssential = (kind: MailKind) => ESSENTIAL_KINDS.has(kind);

/** What each kind's template reads (`data`); a caller passes these to enqueueMail. */
export interface MailData {
  /** invitation and password_reset: the set-password link (auth/password-link.ts). */
  invitation: { link: string };
  password_reset: { link: string };
  order_receipt: { orderId: number; total: number; currency?: string; items: { title: string; amount: number }[]; paidAt?: string | Date };
  enrollment_activated: { productTitle: string; availableUntil?: string | Date | null };
  /** The first lesson (title, id: the link); `lessons` when several opened together (mail.drip.ts groups them). */
  lesson_released: { productTitle: string; lessonTitle: string; lessonId?: number; lessons?: { id: number; title: string }[] };
  certificate_issued: { productTitle: string; code: string; verifyUrl?: string };
  /** `questionId`: the link to the question on the school's site. */
  forum_question_answered: { questionTitle: string; answeredBy?: string | null; questionId?: number };
  new_message: { senderName: string };
}

/** Mails are written in the API's languages (errors/i18n.ts); `en` stands for any other. */
export { LOCALES, type Locale } from '../../errors/i18n.js';
export const SCHOOL_DEFAULT_LOCALE: Locale = 'pt-BR';

/** A language tag as given (pt, pt-br, en-US, es-419, ...) to one of LOCALES; unknown ones give English. */
export function localeOf(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (language === 'pt') return 'pt-BR';
  if (language === 'es') return 'es';
  return 'en';
}

/** The person's language, else the school's, else Portuguese (Brazil). */
export const mailLocale = (personal: string | null | undefined, school: string | null | undefined): Locale =>
  localeOf(personal) ?? localeOf(school) ?? SCHOOL_DEFAULT_LOCALE;
