import {
  defaultFieldResolver,
  type DirectiveNode,
  type FieldNode,
  getNamedType,
  getNullableType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  isAbstractType,
  isCompositeType,
  isListType,
  isObjectType,
  isScalarType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { raisedStatus, refusalGraphqlCode } from '../errors/codes.js';
import { errorReply } from '../errors/reply.js';

/**
 * What one operation may take while it runs, counted as it resolves: the static cost (limits.ts)
 * is an estimate made before the data is known, this is the data itself. Every object a reply holds
 * (one for an object field, one per item of a list) and every character of its text and JSON values
 * is charged to the operation's budget, and past a deadline nothing more resolves. The first limit
 * crossed stops the operation (not the process): the reply is that one error at once, with what was
 * used in its extensions, and the abandoned execution resolves nothing more.
 */
export interface BudgetLimits {
  /** Objects one reply may hold (GRAPHQL_MAX_OBJECTS). */
  maxObjects: number;
  /** Characters of text and JSON one reply may hold (GRAPHQL_MAX_RESULT_BYTES). */
  maxResultBytes: number;
  /** Milliseconds one operation may run (GRAPHQL_TIMEOUT_MS). */
  timeoutMs: number;
}

/** The GraphQL codes of a spent budget (`RESULT_TOO_LARGE`, `QUERY_TIMEOUT`). */
export const budgetCodes = [refusalGraphqlCode('result_too_large'), refusalGraphqlCode('query_timeout')];

/** How long one operation may run its fields before it lets the event loop turn. */
const SLICE_MS = 50;
/**
 * Objects an operation holds before it starts to take turns. Fields resumed in a later turn load in
 * a later batch (one more statement), so the usual reply, smaller than this, is never cut in turns
 * and its statements stay bounded by its depth.
 */
const SLICE_AFTER_OBJECTS = 5000;

/** What an operation used, as `extensions.cost` reports it. */
export interface BudgetUse {
  objects: number;
  maximumObjects: number;
  resultBytes: number;
  maximumResultBytes: number;
  milliseconds: number;
  timeoutMs: number;
}

export class ExecutionBudget {
  objects = 0;
  bytes = 0;
  /** The error that stopped the operation, once one did. */
  exceeded: GraphQLError | null = null;
  /** Resolves with that error when the operation is stopped (the executor answers it at once). */
  readonly stopped: Promise<GraphQLError>;
  /**
   * What every field answers once the operation is stopped: a promise that never settles, so the
   * abandoned execution does no more work, creates no error per field, and is collected with it.
   * Made on first use: most operations are never stopped.
   */
  get stalled(): Promise<never> {
    return (this.stalledPromise ??= new Promise<never>(() => {}));
  }
  private stalledPromise: Promise<never> | undefined;
  private stop!: (error: GraphQLError) => void;
  private readonly started = performance.now();
  /** When this operation's fields began to run in the current turn of the event loop, and that turn's end. */
  private turnStarted = 0;
  private turnEnd: Promise<void> | null = null;
  private readonly deadline: number;

  /** `deadline`: false for a mutation, whose transaction is waited for rather than abandoned. */
  constructor(
    readonly limits: BudgetLimits,
    deadline = true,
  ) {
    this.deadline = deadline ? this.started + limits.timeoutMs : Infinity;
    this.stopped = new Promise((resolve) => (this.stop = resolve));
  }

  /** Whether a field may still resolve: not once the operation was stopped or its time is up. */
  admits(): boolean {
    if (this.exceeded) return false;
    if (performance.now() <= this.deadline) return true;
    this.timeOut();
    return false;
  }

  /**
   * A promise to wait on before the next field when this operation has held the event loop for
   * SLICE_MS in one turn (null: go on): its fields then resume in the loop's next turn, after the
   * I/O that waited (a health check, other requests). A reply of thousands of objects otherwise
   * resolves in one run of microtasks, during which the process answers nothing else.
   */
  yieldPoint(): Promise<void> | null {
    if (this.objects < SLICE_AFTER_OBJECTS) return null;
    if (!this.turnEnd) {
      this.turnStarted = performance.now();
      this.turnEnd = new Promise((resolve) =>
        setImmediate(() => {
          this.turnEnd = null;
          resolve();
        }),
      );
      return null;
    }
    return performance.now() - this.turnStarted > SLICE_MS ? this.turnEnd : null;
  }

  /** `objects` more objects in the reply; false when that is past the limit. */
  chargeObjects(objects: number): boolean {
    this.objects += objects;
    if (this.objects <= this.limits.maxObjects) return !this.exceeded;
    this.halt('result_too_large', `The reply would hold more than ${this.limits.maxObjects} objects; ask for smaller pages or nest fewer lists`);
    return false;
  }

  /** `bytes` more characters of text in the reply; false when that is past the limit. */
  chargeBytes(bytes: number): boolean {
    this.bytes += bytes;
    if (this.bytes <= this.limits.maxResultBytes) return !this.exceeded;
    this.halt('result_too_large', `The reply would hold more than ${this.limits.maxResultBytes} bytes of text; select fewer fields or smaller pages`);
    return false;
  }

  /** Stops the operation at its deadline (the executor's timer, or a field that starts too late). */
  timeOut(): void {
    this.halt('query_timeout', `The operation ran longer than ${this.limits.timeoutMs} ms and was stopped; ask for less`);
  }

  use(): BudgetUse {
    return {
      objects: this.objects,
      maximumObjects: this.limits.maxObjects,
      resultBytes: this.bytes,
      maximumResultBytes: this.limits.maxResultBytes,
      milliseconds: Math.round(performance.now() - this.started),
      timeoutMs: this.limits.timeoutMs,
    };
  }

  private halt(code: 'result_too_large' | 'query_timeout', message: string): void {
    if (this.exceeded) return;
    const used = this.use();
    this.exceeded = errorReply('graphql', {
      code,
      message,
      extensions: { objects: used.objects, resultBytes: used.resultBytes, milliseconds: used.milliseconds, http: { status: raisedStatus(code) } },
    });
    this.stop(this.exceeded);
  }
}

/** Contexts that carry a budget (a query's and a mutation's; subscriptions set one per event). */
interface Budgeted {
  budget?: ExecutionBudget;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null)?.then === 'function';

/** Characters of a JSON value, measured once per value object (rows are shared by every place a reply repeats them). */
const jsonSizes = new WeakMap<object, number>();
function jsonSize(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value !== 'object') return String(value).length;
  let size = jsonSizes.get(value);
  if (size === undefined) jsonSizes.set(value, (size = JSON.stringify(value)?.length ?? 0));
  return size;
}

/** Runs `go` now, or in a later turn of the event loop when the operation has held this one too long (checked again then). */
function inTurn(budget: ExecutionBudget, go: () => unknown): unknown {
  const pause = budget.yieldPoint();
  return pause ? pause.then(() => (budget.admits() ? inTurn(budget, go) : budget.stalled)) : go();
}

type Charge = (budget: ExecutionBudget, value: unknown, info?: GraphQLResolveInfo) => boolean;

/** A value charged to the budget, handed on in this turn or a later one; the budget's stalled promise past a limit. */
function handOn(budget: ExecutionBudget, charge: Charge, value: unknown, info?: GraphQLResolveInfo): unknown {
  return charge(budget, value, info) ? inTurn(budget, () => value) : budget.stalled;
}

/**
 * Wraps `field`'s resolver so that what it yields is charged to the context's budget by `charge`
 * (false: past a limit). Once the operation is stopped, the field answers the budget's stalled promise.
 */
function charged(field: GraphQLField<unknown, Budgeted>, charge: Charge) {
  const resolve: GraphQLFieldResolver<unknown, Budgeted> = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    const budget = ctx?.budget;
    if (!budget) return resolve(source, args, ctx, info);
    if (!budget.admits()) return budget.stalled;
    // Graphql completes each item of a list it is handed: many lists arriving at once are spread over turns too.
    // inTurn(budget, resolve then handOn) written out, so that the usual field (resolved at once, in a
    // turn that need not end) allocates no closure: the same calls in the same order.
    const pause = budget.yieldPoint();
    if (pause)
      return pause.then(() =>
        budget.admits()
          ? inTurn(budget, () => {
              const value = resolve(source, args, ctx, info);
              return isThenable(value) ? Promise.resolve(value).then((v) => handOn(budget, charge, v, info)) : handOn(budget, charge, value, info);
            })
          : budget.stalled,
      );
    const value = resolve(source, args, ctx, info);
    if (isThenable(value)) return Promise.resolve(value).then((v) => handOn(budget, charge, v, info));
    if (!charge(budget, value, info)) return budget.stalled;
    const next = budget.yieldPoint();
    return next ? next.then(() => (budget.admits() ? inTurn(budget, () => value) : budget.stalled)) : value;
  };
}

/**
 * Wraps a text leaf's resolver (a String or JSON field): its value is charged to the budget, with no
 * clock read and no turn taken. A leaf resolves at once from its object, which paid those checks
 * when it was resolved; past a limit it answers the budget's stalled promise as any field does.
 */
function chargedLeaf(field: GraphQLField<unknown, Budgeted>, charge: Charge) {
  const resolve: GraphQLFieldResolver<unknown, Budgeted> = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    const budget = ctx?.budget;
    if (!budget) return resolve(source, args, ctx, info);
    if (budget.exceeded) return budget.stalled;
    const value = resolve(source, args, ctx, info);
    if (isThenable(value)) return Promise.resolve(value).then((v) => handOn(budget, charge, v));
    return charge(budget, value) ? value : budget.stalled;
  };
}

const chargeObjects = (list: boolean) => (budget: ExecutionBudget, value: unknown, info?: GraphQLResolveInfo) => {
  if (value === null || value === undefined) return true;
  return budget.chargeObjects(list ? (Array.isArray(value) ? value.length : 0) : 1) && chargePlainText(budget, value, info);
};

/**
 * Plain text leaves by object type: String fields (not lists) that read their object's property and
 * nothing else (no resolver). They carry no wrapper of their own (graphql-jit reads such a field
 * inline; a wrapper costs a call, a resolve info and its path for every value): the field that
 * resolves their objects charges their text (chargePlainText), as each leaf would have.
 */
const plainTextLeaves = new WeakMap<GraphQLNamedType, Set<string>>();

/** The plain text leaves (their field names) a field's selection asks of its objects, by the field's one node (and its return type: a fragment's node may be spread under several). */
const askedTextLeaves = new WeakMap<FieldNode, { type: GraphQLOutputType; leaves: string[] }>();

/**
 * Charges the text of the plain text leaves the field's selection asks for, on each object of its
 * value (lists walked): one charge for them all. A leaf under a fragment is counted whatever the
 * object's type, and under @skip/@include unless the directive's value is known to leave it out.
 */
function chargePlainText(budget: ExecutionBudget, value: unknown, info?: GraphQLResolveInfo): boolean {
  if (!info || typeof value !== 'object') return true;
  const leaves = textLeavesOf(info);
  if (!leaves.length) return true;
  const size = textOf(budget, value, leaves);
  return size === 0 || budget.chargeBytes(size);
}

/** The text of `leaves` on the objects of `value`; an object still to come (a promise in a list) is charged when it comes. */
function textOf(budget: ExecutionBudget, value: unknown, leaves: readonly string[]): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) {
    let size = 0;
    for (const item of value) size += textOf(budget, item, leaves);
    return size;
  }
  if (isThenable(value)) {
    value.then(
      (v) => budget.chargeBytes(textOf(budget, v, leaves)),
      () => undefined,
    );
    return 0;
  }
  const row = value as Record<string, unknown>;
  let size = 0;
  for (let i = 0; i < leaves.length; i++) {
    const text = row[leaves[i]];
    if (typeof text === 'string') size += text.length;
    else if (text !== null && text !== undefined) size += jsonSize(text);
  }
  return size;
}

function textLeavesOf(info: GraphQLResolveInfo): string[] {
  const node = info.fieldNodes.length === 1 ? info.fieldNodes[0] : undefined;
  const known = node && askedTextLeaves.get(node);
  if (known && known.type === info.returnType) return known.leaves;
  const byKey = new Map<string, string>();
  let remembered = true;
  const possible = (type: GraphQLNamedType | undefined | null): readonly GraphQLNamedType[] =>
    !type ? [] : isAbstractType(type) ? info.schema.getPossibleTypes(type) : [type];
  const skipped = (selection: { directives?: readonly DirectiveNode[] }): boolean => {
    for (const directive of selection.directives ?? []) {
      const name = directive.name.value;
      if (name !== 'skip' && name !== 'include') continue;
      remembered = false;
      const arg = directive.arguments?.find((a) => a.name.value === 'if')?.value;
      const on = arg?.kind === Kind.BOOLEAN ? arg.value : arg?.kind === Kind.VARIABLE ? info.variableValues[arg.name.value] : undefined;
      if (typeof on === 'boolean' && (name === 'skip' ? on : !on)) return true;
    }
    return false;
  };
  const walk = (set: SelectionSetNode | undefined, types: readonly GraphQLNamedType[]) => {
    for (const selection of set?.selections ?? []) {
      if (skipped(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (types.some((t) => plainTextLeaves.get(t)?.has(name))) byKey.set(selection.alias?.value ?? name, name);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, selection.typeCondition ? possible(info.schema.getType(selection.typeCondition.name.value)) : types);
      } else {
        const fragment = info.fragments[selection.name.value];
        if (fragment) walk(fragment.selectionSet, possible(info.schema.getType(fragment.typeCondition.name.value)));
      }
    }
  };
  const types = possible(getNamedType(info.returnType));
  for (const fieldNode of info.fieldNodes) walk(fieldNode.selectionSet, types);
  const leaves = [...byKey.values()];
  if (node && remembered) askedTextLeaves.set(node, { type: info.returnType, leaves });
  return leaves;
}
const chargeText = (list: boolean) => (budget: ExecutionBudget, value: unknown) => {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return budget.chargeBytes(value.length);
  if (list && Array.isArray(value)) {
    let size = 0;
    for (const item of value) size += typeof item === 'string' ? item.length : jsonSize(item);
    return budget.chargeBytes(size);
  }
  return budget.chargeBytes(jsonSize(value));
};

/** Scalars whose values have no fixed size: the only leaves worth counting. */
const UNBOUNDED_SCALARS = new Set(['String', 'JSON', 'JSONObject']);

/**
 * Installs the budget on every field that can grow a reply: fields of an object type (and lists of
 * them), and text or JSON leaves. Numbers, ids, booleans, dates and enums have a fixed size and are
 * paid for by their object. Runs once, on the built schema; a field runs unchanged when its context
 * carries no budget.
 */
export function installExecutionBudget(schema: GraphQLSchema): GraphQLSchema {
  // The objects a subscription's own fields give are resolved by no charged field: their leaves keep their wrappers.
  const subscription = schema.getSubscriptionType();
  const ofSubscriptions = new Set<GraphQLNamedType>();
  for (const field of Object.values(subscription?.getFields() ?? {})) {
    const named = getNamedType(field.type);
    for (const t of isAbstractType(named) ? schema.getPossibleTypes(named) : [named]) ofSubscriptions.add(t);
  }
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || type === subscription) continue;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const list = isListType(getNullableType(field.type));
      if (isCompositeType(named)) charged(field as GraphQLField<unknown, Budgeted>, chargeObjects(list));
      else if (isScalarType(named) && UNBOUNDED_SCALARS.has(named.name)) {
        if (named.name === 'String' && !list && !field.resolve && !ofSubscriptions.has(type)) plainTextOf(type).add(field.name);
        else chargedLeaf(field as GraphQLField<unknown, Budgeted>, chargeText(list));
      }
    }
  }
  return schema;
}

function plainTextOf(type: GraphQLObjectType): Set<string> {
  let names = plainTextLeaves.get(type);
  if (!names) plainTextLeaves.set(type, (names = new Set()));
  return names;
}
