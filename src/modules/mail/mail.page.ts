import { negotiateLocale } from '../../errors/i18n.js';
import type { PageRequest } from '../../rest/route-table.js';
import { localeOf, type Locale, SCHOOL_DEFAULT_LOCALE } from './mail.kinds.js';
import { mailWords } from './mail.render.js';
import type { MailUnsubscribeLink, MailUnsubscription } from './mail.type.js';

/**
 * The pages a browser gets at the one-click unsubscribe link (`/mails/unsubscribe?token=…`, the
 * REST rows' `page`): GET asks to confirm with a form that POSTs the RFC 8058 body to the same
 * URL (mail scanners follow links: opening one must change nothing); the POST says it is done.
 * No script (the page's CSP allows none), and the form has no action: it posts to the page's own URL.
 */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The person's language, else the browser's, else the schools' default. */
function localeFor(known: string | null | undefined, request: PageRequest): Locale {
  const accept = request.headers['accept-language'];
  return localeOf(known) ?? (accept ? negotiateLocale(accept) : SCHOOL_DEFAULT_LOCALE);
}

function page(locale: Locale, title: string, body: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f4f5;color:#18181b;margin:0;padding:48px 16px}main{max-width:480px;margin:0 auto;background:#fff;border-radius:8px;padding:32px}button{background:#4f46e5;color:#fff;border:0;border-radius:6px;padding:12px 20px;font-size:16px;cursor:pointer}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

function invalid(locale: Locale) {
  const t = mailWords(locale);
  return { status: 400, html: page(locale, t('unsubscribe_page.invalid_title'), `<p>${escapeHtml(t('unsubscribe_page.invalid'))}</p>`) };
}

/** GET: the confirmation (or, already unsubscribed, that it is done); an invalid or expired link: 400. */
export function confirmUnsubscribePage(link: MailUnsubscribeLink, request: PageRequest) {
  const locale = localeFor(link.locale, request);
  if (!link.valid) return invalid(locale);
  const t = mailWords(locale);
  const school = link.schoolName ?? '';
  const title = t('unsubscribe_page.title', { school });
  if (link.unsubscribed) return { status: 200, html: page(locale, title, `<p>${escapeHtml(t('unsubscribe_page.done', { school }))}</p>`) };
  const form = `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(t('unsubscribe_page.confirm'))}</button></form>`;
  return { status: 200, html: page(locale, title, `<p>${escapeHtml(t('unsubscribe_page.question', { school }))}</p>\n${form}`) };
}

/** POST from the form: done; a refused token (the payload's errors): 400. */
export function doneUnsubscribePage(payload: { unsubscription: MailUnsubscription | null; errors: unknown[] }, request: PageRequest) {
  const done = payload.unsubscription;
  const locale = localeFor(done?.locale, request);
  if (!done || payload.errors.length) return invalid(locale);
  const t = mailWords(locale);
  const school = done.schoolName ?? '';
  return { status: 200, html: page(locale, t('unsubscribe_page.title', { school }), `<p>${escapeHtml(t('unsubscribe_page.done', { school }))}</p>`) };
}
