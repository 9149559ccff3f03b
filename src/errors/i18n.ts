import { AsyncLocalStorage } from 'node:async_hooks';
import i18next, { type TFunction } from 'i18next';
import Negotiator from 'negotiator';
import { type ErrorCode, errorCodes } from './codes.js';
import es from './locales/es.json' with { type: 'json' };
import ptBR from './locales/pt-BR.json' with { type: 'json' };

/**
 * The languages of the API's error messages, chosen per request from `Accept-Language`. English is
 * the default and the table's own (codes.ts); Portuguese (Brazil) and Spanish are JSON files under
 * locales/, in Rails' wording for its validation messages ("já está em uso", "no puede estar en
 * blanco"), loaded once with the module through one i18next instance.
 */
export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** English from the table, so a code has one English message; `%{count}` is Rails' interpolation, kept as it is. */
const en = { errors: Object.fromEntries(Object.entries(errorCodes).map(([code, entry]) => [code, entry.message])) };
export const localeResources: Record<Locale, { errors: Record<string, string> }> = { en, 'pt-BR': ptBR, es };

const i18n = i18next.createInstance();
void i18n.init({
  resources: Object.fromEntries(Object.entries(localeResources).map(([lng, r]) => [lng, { translation: r }])),
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // The resources are in memory: init completes before it returns.
  initAsync: false,
  interpolation: { prefix: '%{', suffix: '}', escapeValue: false },
});
const translators = new Map<Locale, TFunction>(LOCALES.map((l) => [l, i18n.getFixedT(l)]));

/** The codes whose message names a `%{count}`: without a count they read their `<code>_bare` form. */
const counted = new Set((Object.keys(errorCodes) as ErrorCode[]).filter((c) => errorCodes[c].message.includes('%{count}')));

/** The code's message in `locale`, plural by `count` (Intl.PluralRules through i18next). */
export function codeMessage(locale: Locale, code: ErrorCode, count?: number): string {
  const t = translators.get(locale)!;
  const bare = count === undefined && counted.has(code);
  return t(`errors.${bare ? `${code}_bare` : code}`, count === undefined ? {} : { count });
}

/**
 * A refusal's or a UserError's message as `locale` reads it. English: the producer's own message (or
 * the code's). Other languages: the code's message, so a reply is in one language; but the detailed
 * English of a malformed request (`bad_request` naming what is wrong: a cursor, a parameter) is kept,
 * being for the developer who wrote the request rather than for the person using the client.
 */
export function localizedMessage(locale: Locale, code: ErrorCode, message?: string, count?: number): string {
  if (locale === DEFAULT_LOCALE) return message ?? codeMessage(locale, code, count);
  if (code === 'bad_request' && message !== undefined) return message;
  return codeMessage(locale, code, count);
}

/** `pt` and every `pt-*` read Brazilian Portuguese; every `es-*` Spanish. */
const OFFERED = ['en', 'pt-BR', 'pt', 'es'];
const offeredLocale: Record<string, Locale> = { en: 'en', 'pt-BR': 'pt-BR', pt: 'pt-BR', es: 'es' };

/**
 * The locale of an `Accept-Language` header, by its q-values (negotiator): `pt`, `pt-BR`, `pt-PT` →
 * pt-BR; `es`, `es-MX` → es; no header, `*`, or only languages the service does not speak → English.
 */
export function negotiateLocale(acceptLanguage: string | string[] | undefined): Locale {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header) return DEFAULT_LOCALE;
  const best = new Negotiator({ headers: { 'accept-language': header } }).language(OFFERED);
  return (best && offeredLocale[best]) || DEFAULT_LOCALE;
}

/** The locale a request's headers ask for. */
export const requestLocale = (headers: Record<string, string | string[] | undefined>): Locale => negotiateLocale(headers['accept-language']);

/**
 * The locale of the request being answered, for what writes an error with no request context at
 * hand (Apollo's formatError): app.ts runs each /graphql request inside it. Resolvers read `ctx.locale`.
 */
const localeOfRequest = new AsyncLocalStorage<Locale>();
export const inLocale = <T>(locale: Locale, work: () => T): T => localeOfRequest.run(locale, work);
export const currentLocale = (): Locale => localeOfRequest.getStore() ?? DEFAULT_LOCALE;
