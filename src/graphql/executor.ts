import type { GatewayInterface } from '@apollo/server-gateway-interface';
import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, type CompiledQuery, isCompiledQuery } from 'graphql-jit';
import { connectionLost } from '../db/read-routing.js';
import { type BudgetLimits, ExecutionBudget } from './budget.js';
import { ACTS_ACROSS_SCHOOLS, acrossSchoolsContext, type Context, READS_PRIMARY } from './context.js';

type PromiseOrValue<T> = T | Promise<T>;
const isPromise = <T>(value: PromiseOrValue<T>): value is Promise<T> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** How an operation runs: the document, which operation of it, the request's context and variables. */
export type Executor = (
  document: DocumentNode,
  operationName: string | null | undefined,
  contextValue: Context,
  variableValues: Record<string, unknown> | undefined,
  options?: ExecuteOptions,
) => Promise<ExecutionResult>;

export interface ExecuteOptions {
  /**
   * The caller has already checked every variable against its definition's type with graphql-js'
   * coerceInputValue and refused the request on any problem (REST: rest/input.ts coerceInput, the
   * route's own variables typed as its document declares them), so graphql-js' second check of the
   * same values, which could find nothing, is skipped.
   */
  variablesChecked?: boolean;
}

/**
 * The deadlines of running queries, checked by one timer of the process rather than a timer each
 * (a setTimeout and a clearTimeout were a fixed cost of every request). A query is stopped within a
 * tenth of its time limit past it (at most 100 ms); the timer runs only while queries do.
 */
class Deadlines {
  private readonly running = new Set<{ at: number; budget: ExecutionBudget }>();
  private timer: NodeJS.Timeout | undefined;

  watch(timeoutMs: number, budget: ExecutionBudget): { at: number; budget: ExecutionBudget } {
    const entry = { at: Date.now() + timeoutMs, budget };
    this.running.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), Math.max(1, Math.min(100, Math.floor(timeoutMs / 10))));
      this.timer.unref();
    }
    return entry;
  }

  unwatch(entry: { at: number; budget: ExecutionBudget }): void {
    this.running.delete(entry);
  }

  private sweep(): void {
    if (!this.running.size) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = Date.now();
    for (const entry of this.running) {
      if (entry.at > now) continue;
      this.running.delete(entry);
      entry.budget.timeOut();
    }
  }
}
const deadlines = new Deadlines();

/** One run of an operation, as the executor was called. */
interface Call {
  document: DocumentNode;
  operationName: string | null | undefined;
  variableValues: Record<string, unknown> | undefined;
  options: ExecuteOptions | undefined;
}

/** The runs of an operation on graphql-js before it is compiled: a one-off query is not worth compiling. */
const COMPILE_AFTER_RUNS = 1;

type Entry = { runs: number; mutation: boolean; acrossSchools: boolean; readsPrimary: boolean; jit?: { query: CompiledQuery; operation: OperationDefinitionNode } | null };

/**
 * Whether a mutation runs a root field that makes a school (marked ACTS_ACROSS_SCHOOLS), through
 * fragments too: the whole operation then runs in the context derived for it (context.ts).
 */
function actsAcrossSchools(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | null | undefined): boolean {
  return operation?.operation === 'mutation' && runsMarkedField(schema.getMutationType()?.getFields(), document, operation, (e) => e.actsAcrossSchools === ACTS_ACROSS_SCHOOLS.actsAcrossSchools);
}

/** Whether a query runs a root field that must read the primary (READS_PRIMARY): the whole operation then skips the replica. */
function readsPrimary(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode | null | undefined): boolean {
  return operation?.operation === 'query' && runsMarkedField(schema.getQueryType()?.getFields(), document, operation, (e) => e.readsPrimary === READS_PRIMARY.readsPrimary);
}

/** Whether the operation selects, through fragments too, a root field whose extensions pass `marked`. */
function runsMarkedField(
  fields: Record<string, { extensions?: Record<string, unknown> | null }> | undefined,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  marked: (extensions: Record<string, unknown>) => boolean,
): boolean {
  if (!fields) return false;
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode): boolean =>
    set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return marked(fields[selection.name.value]?.extensions ?? {});
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
      return fragment?.kind === Kind.FRAGMENT_DEFINITION && visit(fragment.selectionSet);
    });
  return visit(operation.selectionSet);
}

/**
 * Runs operations compiled by graphql-jit: an operation is compiled into a function that resolves
 * exactly the fields it selects, instead of graphql-js walking the document for every row (on a
 * 1,000-lesson tree that walk allocated over a third of the request's memory). An operation is
 * compiled on its second run (the first runs on graphql-js: one-off queries are not worth the
 * compilation) and kept beside its document: Apollo's parsed-document cache and REST's compiled
 * routes hand the same DocumentNode to every request. A document graphql-jit cannot compile runs
 * on graphql-js. Variables are checked by graphql-js first, so a bad variable gets graphql-js's own
 * error word for word (graphql-jit's differ).
 */
export function compiledExecutor(
  schema: GraphQLSchema,
  compileAfterRuns = COMPILE_AFTER_RUNS,
  budget?: BudgetLimits,
): Executor & { compiledOperations(): number } {
  let compiledOperations = 0;
  const entries = new WeakMap<DocumentNode, Map<string, Entry>>();
  const compiled = (document: DocumentNode, operationName: string | null | undefined) => {
    let byOperation = entries.get(document);
    if (!byOperation) entries.set(document, (byOperation = new Map()));
    const key = operationName ?? '';
    let entry = byOperation.get(key);
    if (!entry) {
      const operation = getOperationAST(document, operationName);
      entry = {
        runs: 0,
        mutation: operation?.operation === 'mutation',
        acrossSchools: actsAcrossSchools(schema, document, operation),
        readsPrimary: operation?.operation !== 'query' || readsPrimary(schema, document, operation),
      };
      byOperation.set(key, entry);
    }
    if (entry.jit === undefined && entry.runs++ >= compileAfterRuns) {
      const query = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
      const operation = getOperationAST(document, operationName);
      entry.jit = isCompiledQuery(query) && operation ? { query, operation } : null;
      if (entry.jit) compiledOperations += 1;
    }
    return entry;
  };
  // Not async: an operation whose resolvers all answer at once (`{ __typename }`) returns its result as is.
  const once = (entry: Entry, call: Call, contextValue: Context): PromiseOrValue<ExecutionResult> => {
    const { document, operationName, variableValues, options } = call;
    const jit = entry.jit;
    if (!jit) return execute({ schema, document, operationName, contextValue, variableValues });
    const inputs = variableValues ?? {};
    if (jit.operation.variableDefinitions?.length && !options?.variablesChecked) {
      const checked = getVariableValues(schema, jit.operation.variableDefinitions, inputs, { maxErrors: 50 });
      if (checked.errors) return { errors: checked.errors };
    }
    return jit.query.query(undefined, contextValue, inputs);
  };
  const run: Executor = async (document, operationName, contextValue, variableValues, options) => {
    const entry = compiled(document, operationName);
    const call: Call = { document, operationName, variableValues, options };
    const reads = contextValue.reads;
    if (!reads) return budgeted(entry, call, contextValue);
    // A query may read a replica (db/read-routing.ts): the context's db is chosen before any loader reads it.
    if (!entry.readsPrimary) contextValue.db = await reads.readerFor(contextValue.credential);
    const onReplica = contextValue.db !== reads.primary;
    let result = await budgeted(entry, call, contextValue);
    // The replica went away under a query: it runs again, whole, on the primary (a read is safe to repeat).
    if (onReplica && result.errors?.some((e) => connectionLost(e))) {
      reads.lost();
      contextValue.db = reads.primary;
      contextValue.loaders.clearAll();
      result = await budgeted(entry, call, contextValue);
    }
    // Committed (or rolled back): this credential's next reads wait for the replica to pass it.
    if (entry.mutation) await reads.wrote(contextValue.credential);
    return result;
  };
  const budgeted = async (entry: Entry, call: Call, contextValue: Context): Promise<ExecutionResult> => {
    // A query is stopped at its deadline, while a statement may still be running; a mutation is
    // waited for (its transaction commits or rolls back as a whole), and only its reply is budgeted.
    // Set before the context is derived, so both share it (Apollo reports it from the request's context).
    const spent = budget ? (contextValue.budget = new ExecutionBudget(budget, !entry.mutation)) : undefined;
    const ctx = entry.acrossSchools ? acrossSchoolsContext(contextValue) : contextValue;
    const running = once(entry, call, ctx);
    // Answered without waiting for anything: no deadline could pass.
    if (!budget || !spent || !isPromise(running)) return running;
    const timer = entry.mutation ? undefined : deadlines.watch(budget.timeoutMs, spent);
    try {
      const result = await Promise.race([running, spent.stopped]);
      // Stopped: the reply is that one error; the abandoned execution settles no further field.
      return result instanceof GraphQLError ? { errors: [result] } : result;
    } finally {
      if (timer) deadlines.unwatch(timer);
    }
  };
  return Object.assign(run, { compiledOperations: () => compiledOperations });
}

/**
 * Apollo Server 4 and 5 take no executor of their own; their gateway interface is the one way to
 * hand them one. This "gateway" serves the local schema as it is and runs every operation through
 * `executor`; Apollo still parses, validates, runs its plugins and formats the errors.
 */
export function localGateway(schema: GraphQLSchema, executor: Executor): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return {
        executor: (request) =>
          executor(request.document, request.operationName ?? request.request.operationName, request.context as Context, request.request.variables),
      };
    },
    async stop() {},
  };
}
