import { readdirSync, readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import i18next, { type TFunction } from 'i18next';
import { type Locale, LOCALES, type MailData } from './mail.kinds.js';
import type { MailKind } from './mail.table.js';

/**
 * Mails rendered from the files beside this one: `templates/<kind>.html.hbs` and `<kind>.txt.hbs`
 * inside `layout.html.hbs` / `layout.txt.hbs` (Handlebars), their words from `locales/<locale>.json`
 * (i18next, ICU-style plurals through Intl.PluralRules), dates and money by Intl for the locale.
 * Everything is read and compiled once per process, at the first mail; src/tools/build.mjs copies
 * the folders into dist/.
 */
const here = new URL('./', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, here), 'utf8');

export interface MailSchool {
  name: string;
  logo: string | null;
  /** A CSS colour for the header and buttons. */
  color: string;
}

export interface MailContext<K extends MailKind = MailKind> {
  kind: K;
  locale: Locale;
  school: MailSchool;
  person: { name: string };
  data: MailData[K];
  /** The kind's main link (set password, see certificate, ...), shown as the button. */
  action: string | null;
  /** The one-click unsubscribe link; null for the essential kinds. */
  unsubscribeUrl: string | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Compiled {
  t: Record<Locale, TFunction>;
  html: Map<string, Handlebars.TemplateDelegate>;
  text: Map<string, Handlebars.TemplateDelegate>;
}

let compiled: Compiled | null = null;

function compile(): Compiled {
  const i18n = i18next.createInstance();
  const resources = Object.fromEntries(LOCALES.map((l) => [l, { translation: JSON.parse(read(`locales/${l}.json`)) }]));
  // Synchronous: the resources are in memory. Handlebars escapes the HTML part; i18next must not escape twice.
  void i18n.init({ resources, fallbackLng: 'en', initAsync: false, interpolation: { escapeValue: false }, returnNull: false });
  const t = Object.fromEntries(LOCALES.map((l) => [l, i18n.getFixedT(l)])) as Record<Locale, TFunction>;

  const env = (noEscape: boolean) => {
    const hb = Handlebars.create();
    hb.registerHelper('t', function (this: unknown, key: string, options: Handlebars.HelperOptions) {
      return (options.data.root as { t: TFunction }).t(key, options.hash);
    });
    hb.registerHelper('concat', (...parts: unknown[]) => parts.slice(0, -1).join(''));
    hb.registerHelper('date', function (this: unknown, value: unknown, options: Handlebars.HelperOptions) {
      if (value === null || value === undefined || value === '') return '';
      const date = new Date(value as string);
      if (Number.isNaN(date.getTime())) return '';
      return new Intl.DateTimeFormat(options.data.root.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
    });
    hb.registerHelper('money', function (this: unknown, cents: unknown, currency: unknown, options: Handlebars.HelperOptions) {
      const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'BRL';
      return new Intl.NumberFormat(options.data.root.locale, { style: 'currency', currency: code }).format(Number(cents ?? 0) / 100);
    });
    return { hb, compile: (source: string) => hb.compile(source, { noEscape, strict: false }) };
  };
  const htmlEnv = env(false);
  const textEnv = env(true);
  const html = new Map<string, Handlebars.TemplateDelegate>();
  const text = new Map<string, Handlebars.TemplateDelegate>();
  for (const file of readdirSync(new URL('templates/', here))) {
    const match = /^(.+)\.(html|txt)\.hbs$/.exec(file);
    if (!match) continue;
    const [, name, part] = match;
    const source = read(`templates/${file}`);
    if (part === 'html') html.set(name, htmlEnv.compile(source));
    else text.set(name, textEnv.compile(source));
  }
  return { t, html, text };
}

/** Reads and compiles the templates and translations now (start-up), not at the first mail. */
export function loadMailTemplates(): void {
  compiled ??= compile();
}

/** The mail module's words in a locale (locales/<locale>.json), for its pages too (mail.page.ts). */
export function mailWords(locale: Locale): TFunction {
  loadMailTemplates();
  return compiled!.t[locale];
}

/** The subject, text and HTML of a mail in its locale. */
export function renderMail(context: MailContext): RenderedMail {
  loadMailTemplates();
  const { t, html, text } = compiled!;
  const tl = t[context.locale];
  const values = { ...context, t: tl };
  const part = (templates: Map<string, Handlebars.TemplateDelegate>, suffix: string) => {
    const body = templates.get(context.kind);
    const layout = templates.get('layout');
    if (!body || !layout) throw new Error(`No ${suffix} template for the mail kind ${context.kind}`);
    return layout({ ...values, body: body(values) });
  };
  const subject = tl(`${context.kind}.subject`, subjectValues(context));
  return { subject, text: part(text, 'text'), html: part(html, 'html') };
}

/** What a subject line names, per kind. */
function subjectValues(context: MailContext): Record<string, unknown> {
  const d = context.data as Record<string, unknown>;
  return {
    school: context.school.name,
    product: d.productTitle,
    lesson: d.lessonTitle,
    // Several lessons released together: the plural subject (lesson_released.subject_other).
    count: Array.isArray(d.lessons) ? d.lessons.length : undefined,
    id: d.orderId,
    title: d.questionTitle,
    sender: d.senderName,
  };
}
