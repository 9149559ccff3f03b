import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { snake } from '../../src/rest/names.js';

/**
 * Draws for the fuzz test, on top of fast-check's `gen()`: every choice a request makes is one
 * small draw, so a failing run is reported (and replayed with its seed) without megabytes of values.
 */
export class Draw {
  constructor(readonly int: (min: number, max: number) => number) {}
  /** Draws from a fast-check property's `gen()`. */
  static of(g: fc.GeneratorValue): Draw {
    return new Draw((min, max) => g(fc.integer, { min, max }));
  }
  /** Draws from a plain seeded generator (fixtures made outside a property). */
  static seeded(seed: number): Draw {
    let state = seed >>> 0 || 1;
    return new Draw((min, max) => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return min + ((state >>> 0) % (max - min + 1));
    });
  }
  chance = (p: number) => this.int(0, 999) < p * 1000;
  pick = <T>(items: readonly T[]): T => items[this.int(0, items.length - 1)];
  /** One of several makers, by weight. */
  weighted = <T>(choices: [number, () => T][]): T => {
    let n = this.int(0, choices.reduce((s, [w]) => s + w, 0) - 1);
    for (const [w, make] of choices) if ((n -= w) < 0) return make();
    return choices[choices.length - 1][1]();
  };
  /** A short string of any code points (astral ones too), as a careless client's text. */
  text = () => String.fromCodePoint(...Array.from({ length: this.int(0, 8) }, () => this.pick([this.int(1, 0x7f), this.int(0x80, 0xffff), this.int(0x10000, 0x10ffff)])).filter((c) => c < 0xd800 || c > 0xdfff));
}

/** Ids of real rows, by table, and which table an argument or path segment names. */
export interface IdSource {
  idsFor(name: string): number[];
}

const MB = 1024 * 1024;
const base64 = (s: string) => Buffer.from(s).toString('base64url');

/** Ids no row has: beyond 32 and 64 bits, negative, zero, not numbers. */
export const garbageIds = ['0', '-1', '2147483648', '9223372036854775808', '123456789012345678901234567890', '1e3', '1.5', ' 7 ', 'abc', '0x1F', '', '%00'];

/** A wrong value of the field's own kind (it passes the type, so it reaches the resolvers and the database). */
function nastyOfType(d: Draw, type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  if (isEnumType(named)) return d.pick(['NOT_A_VALUE', named.getValues()[0].name.toLowerCase(), '']);
  switch (named.name) {
    case 'String':
      return d.pick([`a\u0000b`, '\u0000', `x\ud800y`, '\udfff', 'z'.repeat(d.pick([256, 70_000, MB - 300])), ' ', '', '💥'.repeat(40), '2026-02-30', '<script>', "'; drop table schools; --"]);
    case 'Int':
      return d.pick([-1, 0, 2 ** 31 - 1, -(2 ** 31), 32767, 32768, 65536, 1e9]);
    case 'Float':
      return d.pick([-1, 1e308, -1e308, 5e-324, 1e21, 2 ** 53 + 1, -0]);
    case 'ID':
      return d.pick(garbageIds);
    case 'DateTime':
      return d.pick(['2026-02-30T10:00:00Z', '9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '-000001-01-01T00:00:00Z', '2026-01-01', '1e3']);
    case 'Boolean':
      return d.pick([null, 'yes', 0]);
    case 'JSON':
    case 'JSONObject':
      return d.pick([deepValue(d.int(30, 70)), { 'k\u0000': 1 }, { k: 'v\ud800' }, { events: ['\u0000'] }, [], 'x', { a: 'z'.repeat(70_000) }]);
    default:
      return d.pick([`a\u0000b`, '\ud800', '2026-02-30', 'not-an-email', 'http://', -1]);
  }
}

/** A nasty value for a field: mostly of its own kind, sometimes of any kind at all. */
export function nastyFor(d: Draw, type: GraphQLInputType): unknown {
  return d.chance(0.75) ? nastyOfType(d, type) : nasty(d);
}

/** Values that are wrong for most fields, each a shape clients really send by mistake (or on purpose). */
export function nasty(d: Draw): unknown {
  return d.weighted<unknown>([
    [3, () => `a\u0000b`],
    [2, () => `x\ud800y`],
    [1, () => `\udc00`],
    [1, () => 'z'.repeat(d.chance(0.3) ? MB - 200 : 70_000)],
    [2, () => d.pick([2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 5e-324, -0, 0.5, 1e21])],
    [2, () => d.pick(['NaN', 'Infinity', '-Infinity', '1e999', '99999999999999999999999'])],
    [2, () => d.pick(garbageIds)],
    [2, () => base64(d.pick(['id:99999999999', 'id:-1', 'id:', 'x', 'id:1 or 1=1', 'id:2147483648']))],
    [2, () => d.pick(['2026-02-30', '2026-02-30T10:00:00Z', '2026-13-01', '0000-00-00', '99999-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '2026-01-01T25:61:00Z', '1970-01-01T00:00:00+99:99'])],
    [2, () => d.pick([true, false, null, 0, 1, '', ' ', 'true', 'null', 'undefined'])],
    [2, () => d.pick([[], [null], [1, 'a'], {}, { '': 1 }, JSON.parse('{"__proto__": {"polluted": 1}}'), { constructor: { prototype: 1 } }])],
    [1, () => deepValue(d.int(60, 300))],
    [2, () => d.text()],
  ]);
}

export function deepValue(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

let serial = 0;

/** A plausible value for a field, by its GraphQL type and name: what a correct client would send. */
function plausibleLeaf(d: Draw, type: GraphQLInputType, name: string, ids: IdSource): unknown {
  const named = getNamedType(type);
  if (isEnumType(named)) return d.pick(named.getValues()).name;
  const n = ++serial;
  switch (named.name) {
    case 'ID':
      return String(d.pick([...ids.idsFor(name), 1]));
    case 'Int':
      return d.pick([0, 1, 2, 3, 10, 100]);
    case 'Float':
      return d.pick([0, 1.5, 10, 99.9]);
    case 'Boolean':
      return d.chance(0.5);
    case 'DateTime':
      return d.pick(['2026-03-01T10:00:00Z', '2027-01-01T00:00:00.000Z', '2025-12-31T23:59:59Z']);
    case 'EmailAddress':
      return `fuzz${n}@example.com`;
    case 'JSON':
    case 'JSONObject':
      return d.pick([{}, { events: ['enrollment.created'] }, { key: 'value' }]);
    case 'PaymentKind':
      return d.pick([0, 1, '2', 'pix']);
    default:
      break;
  }
  if (/email/i.test(name)) return `fuzz${n}@example.com`;
  if (/url|uri|link|domain/i.test(name)) return `https://example.com/fuzz/${n}`;
  if (/password/i.test(name)) return `fuzz-password-${n}`;
  if (/date|_at$|At$|Until$|until$/.test(name)) return '2026-03-01';
  if (/type$/i.test(name)) return d.pick(['Media', 'School', 'Course', 'Student', 'Collaborator', 'SchoolProduct']);
  if (/code|subdomain|slug|token|uuid/i.test(name)) return `fz${n}x${d.int(0, 999)}`;
  return `Fuzz ${n}`;
}

export interface ValueOptions {
  ids: IdSource;
  /** Probability that a leaf is replaced by a nasty value. */
  nastiness: number;
  /** Object keys in REST's snake_case. */
  rest?: boolean;
  /** Every field of an input object given (fixtures), not a random subset. */
  complete?: boolean;
}

/** A value for a GraphQL input type: mostly plausible, with nasty leaves, wrong shapes and unknown enum values mixed in. */
export function valueFor(d: Draw, type: GraphQLInputType, name: string, options: ValueOptions, depth = 0): unknown {
  // A whole input replaced is a different test (see the REST resource): at the top only leaves turn nasty.
  if (options.nastiness > 0 && (depth > 0 || isLeafType(getNullableType(type))) && d.chance(options.nastiness)) return nastyFor(d, type);
  if (isNonNullType(type)) return valueFor(d, type.ofType, name, options, depth);
  if (isListType(type)) {
    if (options.nastiness > 0 && d.chance(0.05)) return valueFor(d, type.ofType, name, options, depth + 1); // one item for a list
    const length = d.int(0, depth > 2 ? 0 : 2);
    return Array.from({ length }, () => valueFor(d, type.ofType, name, options, depth + 1));
  }
  if (isInputObjectType(type)) {
    if (options.nastiness > 0 && d.chance(0.04)) return [valueFor(d, type, name, { ...options, nastiness: 0 }, depth)]; // an array for an object
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (depth > 3 || !(options.complete || d.chance(isNonNullType(field.type) ? 0.95 : 0.6))) continue;
      out[options.rest ? snake(field.name) : field.name] = valueFor(d, field.type, field.name, options, depth + 1);
    }
    if (options.nastiness > 0 && d.chance(0.05)) out[d.pick(['unknown_field', 'id', 'school_id', 'created_at', '__typename'])] = nasty(d);
    return out;
  }
  if (isEnumType(type) && options.nastiness > 0 && d.chance(0.1)) return d.pick(['NOT_A_VALUE', 'active ', type.getValues()[0].name.toLowerCase()]);
  if (isScalarType(type) || isEnumType(type)) return plausibleLeaf(d, type, name, options.ids);
  return null;
}
