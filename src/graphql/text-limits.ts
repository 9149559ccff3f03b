import {
  type GraphQLInputType,
  getNullableType,
  isInputObjectType,
  isListType,
  isScalarType,
} from 'graphql';
import type { ValidatorFn } from 'type-graphql';
import { AppError } from './errors.js';

/**
 * How long a text may be, per family of fields (README "Text limits"). One table, read by one
 * check that type-graphql runs on the arguments of every field before its resolver (`validateFn`
 * of buildSchema): a longer value is refused with `too_long` naming the field (422 on REST, a
 * BAD_USER_INPUT error on GraphQL) before any statement runs. Refused rather than returned as a
 * mutation's UserError because queries' arguments (codes, e-mails, tokens) are bounded too, and
 * an oversized value is not an object to correct but a request to refuse.
 *
 * A field belongs to the first family that claims it by its GraphQL name (or scalar); every other
 * text is a name, title, code or slug of 255 characters. JSON hashes are bounded by the size of
 * their JSON text.
 */
export interface TextFamily {
  family: string;
  /** Characters (code points); for JSON hashes, characters of their JSON text. */
  max: number;
  claims: (field: string, scalar: string) => boolean;
}

const named = (...names: string[]) => (field: string) => names.includes(field);

export const TEXT_FAMILIES: TextFamily[] = [
  { family: 'JSON hashes (metadata, metaconfig, ...)', max: 65_536, claims: (_, scalar) => scalar === 'JSON' || scalar === 'JSONObject' },
  { family: 'e-mails', max: 254, claims: (field, scalar) => scalar === 'EmailAddress' || /^email$/i.test(field) },
  {
    family: 'URLs',
    max: 2048,
    claims: (field, scalar) => scalar === 'URL' || /(?:url|uri)$/i.test(field) || /^socialLink\d+$/.test(field) || named('logo', 'site', 'link', 'returnTo')(field),
  },
  {
    family: 'descriptions, texts, HTML and message bodies',
    max: 65_535,
    claims: named(
      'description', 'text', 'comment', 'message', 'response', 'termsOfUse', 'allowedEmails', 'pids',
      'videoDescription', 'metaDescription', 'seoDescription', 'metaKeys',
    ),
  },
  { family: 'passwords, tokens, keys and secrets', max: 4096, claims: (field) => /(?:password|token|key|secret|jwt)$/i.test(field) || field === 'authorizationCode' },
  { family: 'names, titles, codes, slugs and other short texts', max: 255, claims: () => true },
];

const JSON_FAMILY = TEXT_FAMILIES[0];

export function limitFor(field: string, scalar: string): TextFamily {
  return TEXT_FAMILIES.find((f) => f.claims(field, scalar))!;
}

/** Code points in `text`, counted only as far as `max + 1`. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let n = 0;
  for (const _ of text) if (++n > max) return true;
  return false;
}

/** Whether `value`'s JSON text is longer than `max`: counted with a stack of its own, stopping at `max`. */
function jsonLongerThan(value: unknown, max: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') size += JSON.stringify(v).length;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (const item of v) stack.push(item);
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      size += 2 + entries.length;
      for (const [key, item] of entries) {
        size += JSON.stringify(key).length + 1;
        stack.push(item);
      }
    } else size += String(v).length;
    if (size > max) return true;
  }
  return false;
}

const humanize = (field: string) => {
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const tooLong = (path: (string | number)[], family: TextFamily) => {
  const field = String([...path].reverse().find((p) => typeof p === 'string') ?? 'value');
  const unit = family === JSON_FAMILY ? 'characters of JSON' : 'characters';
  return new AppError('too_long', `${humanize(field)} is too long (maximum is ${family.max.toLocaleString('en')} ${unit})`, path.map(String), family.max);
};

/** The first value under `type` longer than its family allows, as the error to raise. */
function check(value: unknown, type: GraphQLInputType, path: (string | number)[], field: string): AppError | null {
  if (value === null || value === undefined) return null;
  const t = getNullableType(type);
  if (isListType(t)) {
    if (!Array.isArray(value)) return check(value, t.ofType, path, field);
    for (let i = 0; i < value.length; i++) {
      const found = check(value[i], t.ofType, [...path, i], field);
      if (found) return found;
    }
    return null;
  }
  if (isInputObjectType(t)) {
    for (const f of Object.values(t.getFields())) {
      const found = check((value as Record<string, unknown>)[f.name], f.type, [...path, f.name], f.name);
      if (found) return found;
    }
    return null;
  }
  // Ids are no text: parseId judges them (a malformed one is not found).
  if (!isScalarType(t) || t.name === 'ID') return null;
  // Only text has a length, and JSON of any kind: a number or a boolean of another scalar passes.
  if (typeof value !== 'string' && !JSON_FAMILY.claims(field, t.name)) return null;
  const family = limitFor(field, t.name);
  if (family === JSON_FAMILY) return jsonLongerThan(value, family.max) ? tooLong(path, family) : null;
  return typeof value === 'string' && longerThan(value, family.max) ? tooLong(path, family) : null;
}

// A resolver with several argument parameters calls the check once per parameter: walk once.
const checked = new WeakSet<object>();

/**
 * type-graphql's `validateFn`: checks every argument of the field being resolved. An input object
 * argument's fields are named without the argument (`title`, `invoicesAttributes.0.uuid`), as
 * UserErrors name them; a plain argument by its own name (`code`, `redirectUri`).
 */
export const checkTextLimits: ValidatorFn = (_value, _type, { args, info }) => {
  if (checked.has(args)) return;
  checked.add(args);
  const definition = info.parentType.getFields()[info.fieldName];
  for (const arg of definition?.args ?? []) {
    const prefix = isInputObjectType(getNullableType(arg.type)) ? [] : [arg.name];
    const found = check(args[arg.name], arg.type, prefix, arg.name);
    if (found) throw found;
  }
};
