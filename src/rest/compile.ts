import {
  type DocumentNode,
  getNamedType,
  type GraphQLArgument,
  type GraphQLField,
  GraphQLID,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  FieldsOnCorrectTypeRule,
  KnownArgumentNamesRule,
  KnownTypeNamesRule,
  NoUndefinedVariablesRule,
  NoUnusedVariablesRule,
  parse,
  ProvidedRequiredArgumentsRule,
  ScalarLeafsRule,
  UniqueArgumentNamesRule,
  UniqueVariableNamesRule,
  validate,
  VariablesAreInputTypesRule,
  VariablesInAllowedPositionRule,
} from 'graphql';
import { isDomainErrorType } from '../graphql/error-codes.js';
import { snake } from './names.js';
import type { ArgSource, Route } from './route-table.js';

/** How a GraphQL result is rendered for REST: snake_case keys, ids as numbers. */
export type Renderer = (value: any) => any;

export interface CompiledRoute {
  route: Route;
  /** The row's operation, parsed and validated when first read (the same object every time after). */
  readonly document: DocumentNode;
  /** Argument name → where it comes from and its GraphQL type. */
  args: { name: string; source: ArgSource; arg: GraphQLArgument }[];
  /** The result's shape: a payload (`{ x, errors }`), a connection, an object or a scalar. */
  shape: 'payload' | 'connection' | 'object' | 'leaf';
  /** For payloads: the resource fields besides `errors`. */
  payloadKeys: string[];
  render: Renderer;
  paged: boolean;
  /**
   * The query parameters the row reads (its params, resource keys and extras, its `when` keys, and
   * page/per_page for a list): a GET answers any other with 400 `unknown_parameter` (rest/router.ts).
   */
  queryParams: string[];
}

/** The connection arguments REST sets itself (from page/per_page, or walking the whole list). */
const PAGING_ARGS = ['first', 'after', 'page', 'perPage'];
/** The query parameters every list reads (rest/router.ts replyList). */
export const LIST_PARAMS = ['page', 'per_page'];

const renderers = new Map<string, Renderer>();

/** Renders every leaf field of an object type (and lists of leaves), recursively for objects selected. */
function rendererFor(type: GraphQLOutputType): Renderer {
  if (isNonNullType(type)) return rendererFor(type.ofType);
  if (isListType(type)) {
    const item = rendererFor(type.ofType);
    return (v) => (v === null || v === undefined ? v : v.map(item));
  }
  if (type === GraphQLID) return (v) => (v === null || v === undefined ? v : /^\d+$/.test(String(v)) ? Number(v) : v);
  // Leaves pass through; REST selects no field of a union or interface (only leaf fields are shown).
  if (isLeafType(type) || isAbstractType(type)) return (v) => v;
  const object = type as GraphQLObjectType;
  const cached = renderers.get(object.name);
  if (cached) return cached;
  const fields: [string, string, Renderer][] = [];
  const render: Renderer = (v) => {
    if (v === null || v === undefined) return v;
    const out: Record<string, unknown> = {};
    for (const [key, restKey, fieldRender] of fields) if (key in v) out[restKey] = fieldRender(v[key]);
    return out;
  };
  renderers.set(object.name, render);
  for (const field of Object.values(object.getFields())) fields.push([field.name, snake(field.name), rendererFor(field.type)]);
  return render;
}

/**
 * An object field that REST shows inside its parent, with the embedded type's own REST fields:
 * marked `@Extensions({ rest: 'embed' })` (a media's slides belong in its reply).
 */
const isEmbedded = (field: GraphQLField<unknown, unknown>) => field.extensions?.rest === 'embed' && isObjectType(getNamedType(field.type));

/** The fields REST shows of an object: every leaf (or list of leaves) field that needs no argument, and embedded objects. */
export function restFields(type: GraphQLObjectType) {
  return Object.values(type.getFields()).filter(
    (f) => (isLeafType(getNamedType(f.type)) || isEmbedded(f)) && f.args.every((a) => !isNonNullType(a.type)),
  );
}

function leafSelection(type: GraphQLObjectType): string {
  const fields = restFields(type).map((f) => (isEmbedded(f) ? `${f.name} ${leafSelection(getNamedType(f.type) as GraphQLObjectType)}` : f.name));
  return `{ ${fields.join(' ')} }`;
}

function selectionFor(field: GraphQLField<unknown, unknown>): Pick<CompiledRoute, 'shape' | 'payloadKeys'> & { selection: string } {
  const named = getNamedType(field.type);
  if (!isObjectType(named)) return { shape: 'leaf', payloadKeys: [], selection: '' };
  const fields = named.getFields();
  if (fields.errors && isUserErrorList(fields.errors.type)) {
    const payloadKeys = Object.keys(fields).filter((k) => k !== 'errors');
    const parts = payloadKeys.map((k) => {
      const t = getNamedType(fields[k].type);
      return isObjectType(t) ? `${k} ${leafSelection(t)}` : k;
    });
    return { shape: 'payload', payloadKeys, selection: `{ ${parts.join(' ')} errors { field code message } }` };
  }
  if (fields.nodes && fields.pageInfo) {
    const node = getNamedType(fields.nodes.type) as GraphQLObjectType;
    return {
      shape: 'connection',
      payloadKeys: [],
      selection: `{ nodes ${leafSelection(node)} totalCount pageInfo { hasNextPage endCursor } }`,
    };
  }
  return { shape: 'object', payloadKeys: [], selection: leafSelection(named) };
}

function isUserErrorList(type: GraphQLOutputType): boolean {
  return isDomainErrorType(getNamedType(type).name);
}

/**
 * The rules a generated operation can break: a field, an argument or a type the table names that
 * the schema lacks, a required argument the row leaves out, a variable of the wrong type or place,
 * an object left without a selection. The others (fragments, directives, names of operations,
 * overlapping fields: a third of the validation's time) judge what the generator never writes;
 * test/rest-compile.test.ts runs graphql-js' whole set on every row.
 */
export const GENERATED_OPERATION_RULES = [
  FieldsOnCorrectTypeRule,
  KnownArgumentNamesRule,
  KnownTypeNamesRule,
  NoUndefinedVariablesRule,
  NoUnusedVariablesRule,
  ProvidedRequiredArgumentsRule,
  ScalarLeafsRule,
  UniqueArgumentNamesRule,
  UniqueVariableNamesRule,
  VariablesAreInputTypesRule,
  VariablesInAllowedPositionRule,
];

/** Each schema's compiled rows: the schema and the route table are built once per process, and so is each row. */
const compiledRoutes = new WeakMap<GraphQLSchema, WeakMap<Route, CompiledRoute>>();

/** One row's operation, built once per process (its document parsed and validated at its first use). */
export function compileRoute(schema: GraphQLSchema, route: Route): CompiledRoute {
  let bySchema = compiledRoutes.get(schema);
  if (!bySchema) compiledRoutes.set(schema, (bySchema = new WeakMap()));
  let compiled = bySchema.get(route);
  if (!compiled) bySchema.set(route, (compiled = buildRoute(schema, route)));
  return compiled;
}

function buildRoute(schema: GraphQLSchema, route: Route): CompiledRoute {
  const query = schema.getQueryType()!.getFields()[route.field];
  const mutation = schema.getMutationType()?.getFields()[route.field];
  const field = query ?? mutation;
  if (!field) throw new Error(`REST ${route.method} ${route.path}: no GraphQL field ${route.field}`);
  const operation = query ? 'query' : 'mutation';
  const args = Object.entries(route.args ?? {}).map(([name, source]) => {
    const arg = field.args.find((a) => a.name === name);
    if (!arg) throw new Error(`REST ${route.method} ${route.path}: ${route.field} has no argument ${name}`);
    return { name, source, arg };
  });
  const { shape, payloadKeys, selection } = selectionFor(field);
  const paged = shape === 'connection';
  if (paged && route.method === 'GET') args.push(...filterArgs(field, args, route));
  const declared = [...args.map((a) => a.arg)];
  if (paged) for (const n of ['first', 'after', 'page', 'perPage']) {
    const arg = field.args.find((a) => a.name === n);
    if (arg && !declared.includes(arg)) declared.push(arg);
  }
  const variables = declared.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const callArgs = declared.map((a) => `${a.name}: $${a.name}`).join(', ');
  const text = `${operation} Rest${variables ? `(${variables})` : ''} { result: ${route.field}${callArgs ? `(${callArgs})` : ''} ${selection} }`;
  // Parsed and validated at the row's first request, not at start-up (a sixth of it for 361 rows):
  // the rows are code, and test/rest-compile.test.ts validates every one before a release.
  let document: DocumentNode | undefined;
  const checkedDocument = () => {
    const parsed = parse(text);
    const errors = validate(schema, parsed, GENERATED_OPERATION_RULES);
    if (errors.length) throw new Error(`REST ${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
    return parsed;
  };
  const named = getNamedType(field.type);
  // A connection renders as the array of its nodes.
  const render = rendererFor(shape === 'connection' ? (named as GraphQLObjectType).getFields().nodes.type : field.type);
  return {
    route,
    get document() {
      return (document ??= checkedDocument());
    },
    args: args.map((a) => ({ ...a })),
    shape,
    payloadKeys,
    render,
    paged,
    queryParams: queryParamsOf(route, args, paged),
  };
}

/**
 * A list's filters are its GraphQL field's: every optional argument of a scalar or enum (or a list
 * of them) the row does not bind is read from the query parameter of its snake_case name, so
 * `GET /enrollments?school_product_id=2` filters as `enrollments(schoolProductId: 2)` does.
 */
function filterArgs(field: GraphQLField<unknown, unknown>, bound: CompiledRoute['args'], route: Route): CompiledRoute['args'] {
  const taken = new Set(bound.flatMap(({ source }) => ('name' in source ? [source.name] : 'key' in source ? [source.key] : [])));
  for (const name of Object.keys(route.when ?? {})) taken.add(name);
  for (const name of LIST_PARAMS) taken.add(name);
  return field.args
    .filter((arg) => !PAGING_ARGS.includes(arg.name) && !bound.some((b) => b.arg === arg) && !isNonNullType(arg.type) && isLeafType(getNamedType(arg.type)))
    .filter((arg) => !taken.has(snake(arg.name)) && !route.path.includes(`:${snake(arg.name)}`))
    .map((arg) => ({ name: arg.name, source: { from: 'param', name: snake(arg.name) } as ArgSource, arg }));
}

function queryParamsOf(route: Route, args: CompiledRoute['args'], paged: boolean): string[] {
  const names = new Set<string>(Object.keys(route.when ?? {}));
  for (const { source } of args) {
    if (source.from === 'param') {
      names.add(source.name);
      if (source.within !== undefined) names.add(source.within);
    }
    if (source.from === 'resource') for (const key of [source.key, ...(source.extra ?? [])]) names.add(key);
  }
  if (paged) for (const name of LIST_PARAMS) names.add(name);
  return [...names].sort();
}
