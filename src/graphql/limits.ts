import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getOperationAST,
  getVariableValues,
  getNullableType,
  type GraphQLFormattedError,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  Lexer,
  type SelectionSetNode,
  Source,
  TokenKind,
  validate,
  type ValidationRule,
  visit,
} from 'graphql';
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import { config, ConfigurationError } from '../config.js';
import { errorCodes, raisedStatus, refusalGraphqlCode } from '../errors/codes.js';
import { errorReply } from '../errors/reply.js';
import { type BudgetLimits, budgetCodes, type ExecutionBudget } from './budget.js';
import type { ListBounds } from './list-bounds.js';
import { DEFAULT_PAGE_SIZE, DEFAULT_PER_PAGE, MAX_PAGE_SIZE } from './pagination.js';

/**
 * GraphQL resource limits: a document's tokens, depth, aliases and directives, and a cost computed
 * before execution. A query beyond one is refused with a 400 before any resolver runs, and every
 * reply that went through the request pipeline reports `extensions.cost: { requested, maximum }`.
 */
export interface GraphqlLimits extends BudgetLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxCost: number;
  /** Whether clients may ask the schema (`__schema`, `__type`). */
  introspection: boolean;
}

const settings = {
  maxDepth: 'GRAPHQL_MAX_DEPTH',
  maxAliases: 'GRAPHQL_MAX_ALIASES',
  maxDirectives: 'GRAPHQL_MAX_DIRECTIVES',
  maxTokens: 'GRAPHQL_MAX_TOKENS',
  maxCost: 'GRAPHQL_MAX_COST',
  maxObjects: 'GRAPHQL_MAX_OBJECTS',
  maxResultBytes: 'GRAPHQL_MAX_RESULT_BYTES',
  timeoutMs: 'GRAPHQL_TIMEOUT_MS',
} as const;

/** The configured limits with `overrides` (tests); a limit that is not a whole number stops start-up rather than fail open. */
export function resolveLimits(overrides: Partial<GraphqlLimits> = {}): GraphqlLimits {
  const limits = { ...config.graphql, ...overrides };
  for (const [key, name] of Object.entries(settings)) {
    const value = limits[key as keyof typeof settings];
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigurationError(`${name} must be a whole number of at least 1 (got ${value})`);
  }
  return limits;
}

const limitErrorCodes = ['query_too_large', 'query_too_deep', 'too_many_aliases', 'too_many_directives', 'query_too_complex', 'introspection_disabled'] as const;
/** The GraphQL codes of the limits refused before execution (`QUERY_TOO_LARGE`, `QUERY_TOO_DEEP`, ...). */
export const limitCodes = limitErrorCodes.map(refusalGraphqlCode);
/** Every code of a limit, those refused before execution and those of the budget while it runs. */
export const allLimitCodes = [...limitCodes, ...budgetCodes];
type LimitCode = (typeof limitErrorCodes)[number];

// ---------------------------------------------------------------------------------------------
// Cost: about the number of objects a query may return, counted as GitHub and Shopify do.

/**
 * A list that is not a connection (a course's modules) is bounded by the data, not the query: priced
 * at the average number of items the database's statistics give (list-bounds.ts), and at least this
 * many, so each nesting level costs more.
 */
const LIST_SIZE = 2;
/**
 * A list that leads back to a type already on its path (course → paths → courses) fans out again at
 * every return: priced at the largest count the statistics give, and at least a default page.
 */
const RETURNING_LIST_SIZE = DEFAULT_PAGE_SIZE;
/** Selections a document may expand to through its fragments; beyond it the cost is not even computed. */
const MAX_SELECTIONS = 10_000;

const isConnection = (type: unknown) => isObjectType(type) && 'nodes' in type.getFields() && 'pageInfo' in type.getFields();

/** The page a connection asks for: `first` (default 25), or `perPage` when `page` is given (default 10); at most 100. */
function pageSizeOf(args: Record<string, unknown>): number {
  const asked = args.page != null ? (args.perPage ?? DEFAULT_PER_PAGE) : (args.first ?? DEFAULT_PAGE_SIZE);
  return Math.min(Math.max(Number(asked) || 0, 0), MAX_PAGE_SIZE);
}

/**
 * What a field that computes over many rows costs of its own, besides the objects it returns:
 * `@Extensions(fieldCost(n))` (a report: one statement over a period's rows, modules/reports).
 */
export const fieldCost = (cost: number) => ({ cost }) as const;
const ownCost = (extensions: { cost?: unknown } | undefined | null) => (typeof extensions?.cost === 'number' ? extensions.cost : 0);

/** Leaves cost nothing (they come with their object); an object costs 1; a connection multiplies its selection by its page. A field's own cost (fieldCost) is added. */
const estimator: ComplexityEstimator = (options) => ownCost(options.field.extensions) + shapeCost(options);
const shapeCost = ({ type, field, node, args, childComplexity, context }: Parameters<ComplexityEstimator>[0]): number => {
  const item = getNamedType(field.type);
  if (!isCompositeType(item)) return 0;
  if (isConnection(item)) return 1 + pageSizeOf(args) * childComplexity;
  // Inside a connection the page is already counted: its items once, `edges` and `pageInfo` as wrappers.
  if (isConnection(type)) return field.name === 'nodes' ? 1 + childComplexity : childComplexity;
  if (!isListType(getNullableType(field.type))) return 1 + childComplexity;
  const { shape, bounds } = context as Pricing;
  const known = bounds?.get(`${type.name}.${field.name}`);
  const size = shape.returning.has(node) ? Math.max(RETURNING_LIST_SIZE, known?.largest ?? 0) : Math.max(LIST_SIZE, known?.average ?? 0);
  return size * (1 + childComplexity);
};

/** What the estimator reads besides the field: the document's shape and the lists' bounds from the data (none: the constants). */
interface Pricing {
  shape: Shape;
  bounds?: ListBounds;
}

/** What a document is, apart from its variables: measured once per document. */
export interface Shape {
  depth: number;
  aliases: number;
  directives: number;
  introspects: boolean;
  /** Plain lists that return to a type already on their path (a fragment's field: on any path it is spread in). */
  returning: Set<FieldNode>;
  /** The document expands to more than MAX_SELECTIONS selections. */
  oversized: boolean;
}

/**
 * graphql-armor's counters for one measurement, run with no limit of their own (they never reject):
 * each reports what it finds through its onAccept callback into `shape`, once per operation, and the
 * shape keeps the largest. Built per document measured (measureQuery keeps its shapes), so no state
 * outlives the call.
 */
function countingRules(shape: Shape): ValidationRule[] {
  const counting = (key: 'depth' | 'aliases' | 'directives') => ({
    n: Infinity,
    propagateOnRejection: false,
    onAccept: [(_: unknown, found: { n: number }) => void (shape[key] = Math.max(shape[key], found.n))],
  });
  const introspection: ValidationRule = () => ({
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') shape.introspects = true;
    },
  });
  const armor = new ApolloArmor({
    blockFieldSuggestion: { enabled: false },
    costLimit: { enabled: false },
    maxTokens: { enabled: false },
    maxDepth: { ...counting('depth'), flattenFragments: true },
    maxAliases: counting('aliases'),
    maxDirectives: counting('directives'),
  }).protect();
  return [...armor.validationRules, introspection];
}

const shapes = new WeakMap<DocumentNode, Shape>();

/** The depth, aliases, directives and returning lists of a (validated) document. */
export function measureQuery(schema: GraphQLSchema, document: DocumentNode): Shape {
  let shape = shapes.get(document);
  if (shape) return shape;
  shape = { depth: 0, aliases: 0, directives: 0, introspects: false, returning: new Set(), oversized: false };
  validate(schema, document, countingRules(shape));
  markReturningLists(schema, document, shape);
  shapes.set(document, shape);
  return shape;
}

/** Walks every operation with its fragments expanded, keeping the types on the path. */
function markReturningLists(schema: GraphQLSchema, document: DocumentNode, shape: Shape) {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let budget = MAX_SELECTIONS;
  const walk = (set: SelectionSetNode, type: GraphQLNamedType | undefined, path: GraphQLNamedType[], spreads: string[]) => {
    for (const selection of set.selections) {
      if (--budget < 0) return void (shape.oversized = true);
      if (selection.kind === Kind.FIELD) {
        const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
        if (!field || !selection.selectionSet) continue;
        const item = getNamedType(field.type);
        if (isListType(getNullableType(field.type)) && !isConnection(type) && path.includes(item)) shape.returning.add(selection);
        walk(selection.selectionSet, item, [...path, item], spreads);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type, path, spreads);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || spreads.includes(fragment.name.value)) continue;
        walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), path, [...spreads, fragment.name.value]);
      }
    }
  };
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    walk(d.selectionSet, schema.getRootType(d.operation) ?? undefined, [], []);
  }
}

/** The cost of one operation with its variables (lists priced by `bounds` when given); throws when the variables do not fit the operation. */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> = {}, operationName?: string, bounds?: ListBounds): number {
  const shape = measureQuery(schema, document);
  if (shape.oversized) return Infinity;
  const context: Pricing = { shape, bounds };
  return getComplexity({ schema, query: document, variables, operationName, estimators: [estimator], context, maxQueryNodes: MAX_SELECTIONS + 1 });
}

/** Costs of each parsed document (Apollo keeps parsed documents), by operation and variables: a client repeating a query is not priced again. */
const costs = new WeakMap<DocumentNode, Map<string, number | null>>();
/** Distinct operation-and-variables costs kept per document; past it the document's costs start over. */
const COSTS_PER_DOCUMENT = 64;
/** The arguments a cost reads (pageSizeOf): a variable anywhere else changes what is read, never how much. */
const PAGE_ARGUMENTS = new Set(['first', 'page', 'perPage']);

/**
 * The variables a document's cost depends on: those inside a page's size (PAGE_ARGUMENTS) or a
 * directive's argument (`@include(if: $x)` prunes a branch). Measured once per document.
 */
const costVariablesOf = new WeakMap<DocumentNode, readonly string[]>();
export function costVariables(document: DocumentNode): readonly string[] {
  let names = costVariablesOf.get(document);
  if (names) return names;
  const found = new Set<string>();
  visit(document, {
    Argument(node, _key, _parent, _path, ancestors) {
      // The node holding the argument list: a field or a directive.
      const holder = ancestors[ancestors.length - 1] as { kind?: Kind } | readonly unknown[] | undefined;
      const ofDirective = !!holder && !Array.isArray(holder) && (holder as { kind?: Kind }).kind === Kind.DIRECTIVE;
      if (!ofDirective && !PAGE_ARGUMENTS.has(node.name.value)) return;
      visit(node.value, { Variable: (variable) => void found.add(variable.name.value) });
    },
  });
  names = [...found].sort();
  costVariablesOf.set(document, names);
  return names;
}

/**
 * queryCost, remembered per document; null when the variables do not fit the operation (execution
 * refuses them before any resolver runs). Remembered by the variables the cost depends on only, so
 * a course asked by a new id each time is priced once: the others are only checked to fit.
 */
function cachedCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  bounds: ListBounds | undefined,
): number | null {
  let known = costs.get(document);
  if (!known) costs.set(document, (known = new Map()));
  // A refresh of the bounds prices every document again.
  const prefix = `${bounds?.version ?? 0}\n${operationName ?? ''}\n`;
  // These very variables, seen lately (a client repeating a request).
  const key = prefix + (variables ? JSON.stringify(variables) : '');
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const cost = costOf({ schema, document, variables, operationName, bounds }, known, prefix);
  // Large variables (a mutation's input) are priced each time rather than kept.
  if (key.length > 1024) return cost;
  if (known.size >= COSTS_PER_DOCUMENT) known.clear();
  known.set(key, cost);
  return cost;
}

/**
 * The cost of variables not seen lately: when some of the operation's variables do not count for
 * its cost, they are checked to fit, and the cost is remembered by the others (`relevant:` keys).
 */
function costOf(
  { schema, document, variables, operationName, bounds }: { schema: GraphQLSchema; document: DocumentNode; variables?: Record<string, unknown>; operationName?: string; bounds?: ListBounds },
  known: Map<string, number | null>,
  prefix: string,
): number | null {
  const operation = getOperationAST(document, operationName);
  const relevant = costVariables(document);
  const declared = operation?.variableDefinitions ?? [];
  const partly = !!operation && declared.some((d) => !relevant.includes(d.variable.name.value));
  if (partly && getVariableValues(schema, declared, variables ?? {}, { maxErrors: 1 }).errors) return null;
  // Only the variables given: an absent one takes its default, which a null would not.
  const given = partly ? Object.fromEntries(relevant.filter((name) => variables && name in variables).map((name) => [name, variables![name]])) : undefined;
  const relevantKey = given ? `relevant:${prefix}${JSON.stringify(given)}` : undefined;
  const hit = relevantKey === undefined ? undefined : known.get(relevantKey);
  if (hit !== undefined) return hit;
  let cost: number | null;
  try {
    cost = queryCost(schema, document, variables ?? {}, operationName, bounds);
  } catch {
    cost = null;
  }
  if (relevantKey !== undefined && relevantKey.length <= 1024) known.set(relevantKey, cost);
  return cost;
}

// ---------------------------------------------------------------------------------------------
// The plugin: refuses before execution, reports the cost on every reply.

function refusal(code: LimitCode, message: string, extensions: Record<string, unknown> = {}) {
  return errorReply('graphql-request', { code, message, extensions: { ...extensions, http: { status: raisedStatus(code) } } });
}

/** The first limit a document breaks, if any. */
function brokenLimit(shape: Shape, cost: number | null, limits: GraphqlLimits): GraphQLError | undefined {
  if (shape.introspects && !limits.introspection) return refusal('introspection_disabled', errorCodes.introspection_disabled.message);
  if (shape.depth > limits.maxDepth)
    return refusal('query_too_deep', `The query nests ${shape.depth} levels deep; at most ${limits.maxDepth} are allowed`, { limit: limits.maxDepth, found: shape.depth });
  if (shape.aliases > limits.maxAliases)
    return refusal('too_many_aliases', `The query uses ${shape.aliases} aliases; at most ${limits.maxAliases} are allowed`, { limit: limits.maxAliases, found: shape.aliases });
  if (shape.directives > limits.maxDirectives)
    return refusal('too_many_directives', `The query uses ${shape.directives} directives; at most ${limits.maxDirectives} are allowed`, { limit: limits.maxDirectives, found: shape.directives });
  if (shape.oversized)
    return refusal('query_too_complex', `The query expands through its fragments to more than ${MAX_SELECTIONS} selections`, { limit: limits.maxCost });
  if (cost !== null && cost > limits.maxCost)
    return refusal(
      'query_too_complex',
      `The query may cost ${cost}; at most ${limits.maxCost} is allowed. A connection costs its page size (first, or perPage with page) times its selection: ask for smaller pages or nest less`,
      { limit: limits.maxCost, found: cost },
    );
  return undefined;
}

/** The refusal of a document beyond the token limit (the parser stopped at it). */
export const tooManyTokens = (limits: GraphqlLimits) =>
  refusal('query_too_large', `The query has more than ${limits.maxTokens} tokens; send a smaller document`, { limit: limits.maxTokens });

/** Tokens in a document, counted up to `max + 1` (as the parser counts them). */
function tokenCount(source: string, max: number): number {
  const lexer = new Lexer(new Source(source));
  let n = 0;
  try {
    while (n <= max && lexer.advance().kind !== TokenKind.EOF) n++;
  } catch {
    // A syntax error: the tokens before it are what was counted.
  }
  return n;
}

/**
 * The token limit is the parser's own (`parseOptions.maxTokens`, set by createApollo): it aborts a
 * huge document before building it. This plugin renames that refusal, checks the other limits
 * once the operation is known, and writes `extensions.cost` into every reply.
 */
export function limitsPlugin(limits: GraphqlLimits, bounds?: ListBounds): ApolloServerPlugin<any> {
  const { http: _status, ...tooLargeExtensions } = tooManyTokens(limits).extensions;
  const tooLarge: GraphQLFormattedError = { message: tooManyTokens(limits).message, extensions: tooLargeExtensions };
  return {
    async requestDidStart() {
      let requested: number | null = null;
      let tooManyTokens = false;
      return {
        async parsingDidStart({ source }) {
          return async (error) => {
            if (error && source !== undefined) tooManyTokens = tokenCount(source, limits.maxTokens) > limits.maxTokens;
          };
        },
        async didResolveOperation({ schema, document, request, operationName }) {
          const priced = priceOperation(schema, document, request.variables, operationName ?? undefined, limits, bounds);
          requested = priced.requested;
          if (priced.broken) throw priced.broken;
        },
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          if (tooManyTokens) result.errors = [tooLarge];
          reportCost(result, contextValue, requested, limits);
        },
      };
    },
  };
}

/**
 * The cost of an operation with its variables (null: they do not fit it) and the first limit it
 * breaks, as limitsPlugin checks them; also for the transports that run no Apollo pipeline (the
 * known path, known-operations.ts; the WebSocket, subscriptions.ts).
 */
export function priceOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  limits: GraphqlLimits,
  bounds?: ListBounds,
): { requested: number | null; broken?: GraphQLError } {
  const shape = measureQuery(schema, document);
  const requested = shape.oversized ? null : cachedCost(schema, document, variables, operationName, bounds);
  return { requested, broken: brokenLimit(shape, requested, limits) };
}

/** What every pipeline reply ends with: `extensions.cost` (with the budget's use), and no schema spelled out in errors when introspection is off. */
export function reportCost(
  result: { errors?: readonly GraphQLFormattedError[]; extensions?: Record<string, unknown> },
  contextValue: unknown,
  requested: number | null,
  limits: GraphqlLimits,
): void {
  // Without introspection, validation's "Did you mean ...?" would still spell out the schema.
  if (!limits.introspection && result.errors) result.errors = result.errors.map((e) => ({ ...e, message: e.message.replace(/ Did you mean .*\?$/s, '') }));
  const used = (contextValue as { budget?: ExecutionBudget } | undefined)?.budget?.use();
  result.extensions = { ...result.extensions, cost: { requested, maximum: limits.maxCost, ...used } };
}

/**
 * Replies to /graphql sent before the pipeline ran (a credential refused, a rate limit, a body that
 * is not a request) report their cost too: nothing was run, so `requested` is 0. Pipeline replies
 * end with their own `extensions.cost`, found by looking at the reply's tail only.
 */
export function withCostReported(payload: unknown, maximum: number): unknown {
  if (typeof payload !== 'string' || payload.includes('"cost":{', Math.max(0, payload.length - 400))) return payload;
  try {
    const body = JSON.parse(payload) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body) || !('errors' in body || 'data' in body)) return payload;
    return JSON.stringify({ ...body, extensions: { ...(body.extensions as object | undefined), cost: { requested: 0, maximum } } });
  } catch {
    return payload;
  }
}
