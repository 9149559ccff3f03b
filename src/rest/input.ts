import {
  coerceInputValue,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  getNullableType,
  type GraphQLEnumType,
  type GraphQLInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import type { ErrorCode } from '../errors/codes.js';
import { inputFlaw } from '../graphql/input-guard.js';
import { restDateTime } from './dates.js';
import { camel, snake } from './names.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A REST value shaped for a GraphQL input type, as Rails' strong parameters would take it:
 * snake_case keys become the input's camelCase fields, keys the input does not have are dropped,
 * hashes keyed by indexes (`attributes[0][x]`) become lists, and form strings become numbers and
 * booleans where the field wants them. A value of the wrong type is left as it is for
 * `coerceInput` to report.
 */
export function shapeInput(value: unknown, type: GraphQLInputType, form: boolean): unknown {
  if (isNonNullType(type)) return shapeInput(value, type.ofType, form);
  if (value === undefined) return undefined;
  if (isListType(type)) {
    if (form && value === '') return [];
    let items: unknown[];
    if (Array.isArray(value)) items = value;
    else if (isPlainObject(value)) {
      const item = getNullableType(type.ofType);
      const keys = Object.keys(value);
      // One hash of the item's own fields is a list of one (`syncs_attributes[image_id]=1`).
      if (isInputObjectType(item) && keys.length && keys.every((k) => camel(k) in item.getFields())) items = [value];
      // Rails' nested attributes key each item: by index (`[0]`) or by any key a form made up (`[new_1]`).
      else if (keys.every((k) => /^\d+$/.test(k))) items = keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
      else if (isInputObjectType(item) && keys.every((k) => isPlainObject(value[k]))) items = keys.map((k) => value[k]);
      else return value;
    } else if (typeof value === 'string' && isEnumType(getNullableType(type.ofType))) items = value.split(',').map((v) => v.trim());
    else return value;
    // Forms send `ids[]=` to clear a list: drop the empty strings.
    if (form) items = items.filter((i) => i !== '');
    return items.map((item) => shapeInput(item, type.ofType, form));
  }
  if (isInputObjectType(type)) {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      const restKey = snake(field.name);
      const raw = restKey in value ? value[restKey] : field.name in value ? value[field.name] : undefined;
      if (raw !== undefined) out[field.name] = shapeInput(raw, field.type, form);
    }
    return out;
  }
  return shapeLeaf(value, type, form);
}

function shapeLeaf(value: unknown, type: GraphQLInputType, form: boolean): unknown {
  if (form && value === '' && type !== GraphQLString) return null;
  if (type === GraphQLInt || type === GraphQLFloat) {
    if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
    return value;
  }
  if (type === GraphQLBoolean) {
    if (value === 'true' || value === '1' || value === 1 || value === 'on') return true;
    if (value === 'false' || value === '0' || value === 0 || value === 'off' || (form && value === '')) return false;
    return value;
  }
  if (type === GraphQLString && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  if (type === GraphQLID && typeof value === 'string') return value.trim();
  // Ruby's and Rails' ways of writing a time (`2014-07-25 17:11:29 UTC`, `2030-01-01`) are read as RFC 3339.
  if (isScalarType(type) && type.name === 'DateTime' && typeof value === 'string') return restDateTime(value);
  // An enum value may be written as the value it stands for (`enrollment.created` for ENROLLMENT_CREATED).
  if (isEnumType(type) && typeof value === 'string') return type.getValues().find((v) => v.value === value && v.name !== value)?.name ?? value;
  if (isEnumType(type) || isScalarType(type)) return value;
  return value;
}

export interface InputProblem {
  path: (string | number)[];
  message: string;
  /** The REST detail code; `invalid_type` when absent. */
  code?: ErrorCode;
}

/**
 * Checks a shaped value against the type: the problems name the REST field (`kind`, `items_attributes[0].quantity`).
 * Text no field can hold (a NUL byte, a lone surrogate) and nesting past the limit are refused first.
 */
export function coerceInput(value: unknown, type: GraphQLInputType, write = false): { problems: InputProblem[] } {
  const flaw = inputFlaw(value);
  if (flaw) return { problems: [{ path: flaw.path, message: flaw.message, code: flaw.code }] };
  // A write lacking a value its type requires (a required parameter, a non-null field) names it as blank: a 422, as the resolvers' own checks are.
  if (write && isNonNullType(type) && (value === undefined || value === null || value === '')) return { problems: [{ path: [], code: 'blank', message: "can't be blank" }] };
  const problems: InputProblem[] = [];
  coerceInputValue(value, type, (path, invalid, error) => {
    const at = path.map((p) => (typeof p === 'string' ? camel(p) : p));
    const closedList = enumOf(type, at);
    const missing = write ? /^Field "(\w+)" of required type ".*" was not provided\.$/.exec(error.message) : null;
    const cleared = write && invalid === null && /non-nullable|!", found null/.test(error.message);
    problems.push(
      missing
        ? { path: [...at, missing[1]], code: 'blank', message: "can't be blank" }
        : cleared
          ? { path: at, code: 'blank', message: "can't be blank" }
          : closedList && /does not exist in ".*" enum/.test(error.message)
            ? { path: at, code: 'inclusion', message: `is not included in the list (${closedList.getValues().map((v) => v.name).join(', ')})` }
            : { path: at, message: cleanMessage(error.message) },
    );
  });
  return { problems };
}

/** The enumeration a path of an input leads to, if it leads to one: its values are a closed list (README, "Closed lists"). */
function enumOf(type: GraphQLInputType, path: readonly (string | number)[]): GraphQLEnumType | null {
  let current = getNullableType(type);
  for (const step of path) {
    if (typeof step === 'number' && isListType(current)) current = getNullableType(current.ofType);
    else if (typeof step === 'string' && isInputObjectType(current) && current.getFields()[step]) current = getNullableType(current.getFields()[step].type);
    else return null;
  }
  // A list of the enumeration reports its item at the list's own path.
  if (isListType(current)) current = getNullableType(current.ofType);
  return isEnumType(current) ? current : null;
}

/** graphql-js messages speak GraphQL (`Int cannot represent...`): keep them, without quoting the whole input. */
function cleanMessage(message: string): string {
  return message.replace(/; Did you mean .*$/, '').replace(/^Expected value of type "([^"]+)", found .*?;\s*/, 'expected $1: ');
}
