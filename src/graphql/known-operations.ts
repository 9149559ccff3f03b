import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type DocumentNode, type ExecutionResult, getOperationAST, GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { executionErrors } from '../errors/reply.js';
import { requestErrorStatus } from './apollo.js';
import type { Context } from './context.js';
import type { Executor } from './executor.js';
import { inputRefusal } from './input-guard.js';
import type { ListBounds } from './list-bounds.js';
import { type GraphqlLimits, priceOperation, reportCost } from './limits.js';
import Negotiator from 'negotiator';
import { remembered } from '../lib/remembered.js';

/** Documents remembered by their text; past it the oldest is forgotten (Apollo's own store still has it). */
const MAX_DOCUMENTS = 1_000;
/** Their text in all, in characters: a flood of large distinct documents cannot hold memory. */
const MAX_TEXT = 8 * 1024 * 1024;
/** Distinct Accept headers whose negotiated type is remembered. */
const MAX_ACCEPTS = 64;
/** The types Apollo offers a single result in, its preference first (its MEDIA_TYPES). */
const RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];

type Body = { query?: unknown; operationName?: unknown; variables?: unknown; extensions?: unknown };
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a request to the known path hands back to Apollo when it leaves: the context it built, or the error building it raised. */
export const builtContext = Symbol('builtContext');
declare module 'fastify' {
  interface FastifyRequest {
    [builtContext]?: { context: Context } | { error: unknown };
  }
}

/**
 * A shorter path for an operation Apollo has already parsed and validated. Apollo's pipeline costs
 * every request the same fixed work whatever it asks (a header map, a hash of the document, a
 * request context, a dozen plugin hooks, a gateway request): for `{ __typename }` that is most of
 * the time. Once Apollo has validated a document (the plugin below records it), a plain JSON POST
 * of the same text runs here: the same checks as Apollo's plugins (limits and cost, the input
 * guard, from the same functions), the same executor, the same error formatting and status rules,
 * the same body. Anything else, and anything these checks refuse before execution, leaves for
 * Apollo with the context already built, so a refusal is worded and counted in one place only.
 */
export class KnownOperations {
  private readonly documents = new Map<string, DocumentNode>();
  private text = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly execute: Executor,
    private readonly limits: GraphqlLimits,
    private readonly formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError,
    private readonly bounds?: ListBounds,
  ) {}

  /** Records each document Apollo validated and resolved to a query or a mutation. */
  readonly plugin: ApolloServerPlugin<Context> = {
    requestDidStart: async () => ({
      didResolveOperation: async ({ source, document, operation }) => {
        if (!operation || operation.operation === 'subscription' || this.documents.get(source) === document) return;
        this.remember(source, document);
      },
    }),
  };

  /** Requests this path has answered (tests: which path a request took). */
  served = 0;

  /** How many documents take the known path (tests). */
  get size(): number {
    return this.documents.size;
  }

  private remember(source: string, document: DocumentNode) {
    if (source.length > MAX_TEXT) return;
    const previous = this.documents.get(source);
    if (previous) this.documents.delete(source);
    else this.text += source.length;
    this.documents.set(source, document);
    for (const [oldest] of this.documents) {
      if (this.documents.size <= MAX_DOCUMENTS && this.text <= MAX_TEXT) break;
      this.documents.delete(oldest);
      this.text -= oldest.length;
    }
  }

  /** The reply's content type for an Accept header, as Apollo negotiates it (null: none acceptable, a 406 of Apollo's). */
  private readonly contentType = remembered(MAX_ACCEPTS, (accept) =>
    accept ? (new Negotiator({ headers: { accept } }).mediaType(RESULT_TYPES) ?? null) : RESULT_TYPES[0]!,
  );

  /**
   * Serves the request if it is a known operation: the reply's body, or undefined when it is for
   * Apollo (then `request[builtContext]` holds what the context function must hand it).
   */
  async serve(request: FastifyRequest, reply: FastifyReply, contextFor: () => Promise<Context>): Promise<string | undefined> {
    if (request.method !== 'POST') return undefined;
    const body = request.body as Body | undefined;
    if (!isRecord(body) || typeof body.query !== 'string' || (body.extensions !== undefined && body.extensions !== null)) return undefined;
    const document = this.documents.get(body.query);
    if (!document) return undefined;
    const { operationName = undefined, variables = undefined } = body as { operationName?: unknown; variables?: unknown };
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
    if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
    // Apollo's forgery check passes a JSON body; any other type (a form, +json) goes its way.
    const type = request.headers['content-type'];
    if (!type || type.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json') return undefined;
    const accept = request.headers.accept;
    const contentType = this.contentType(accept ?? '');
    if (!contentType) return undefined;
    const name = operationName ?? undefined;
    const operation = getOperationAST(document, name);
    if (!operation || operation.operation === 'subscription') return undefined;

    let context: Context;
    try {
      context = await contextFor();
    } catch (error) {
      request[builtContext] = { error };
      return undefined;
    }
    request[builtContext] = { context };
    const vars = variables ?? undefined;
    // Apollo's plugins in their order: the limits (a null cost: variables that do not fit), then the input guard.
    const { requested, broken } = priceOperation(this.schema, document, vars, name, this.limits, this.bounds);
    if (broken || requested === null || inputRefusal(vars, document)) return undefined;

    let result: ExecutionResult;
    let threw = false;
    try {
      result = await this.execute(document, name, context, vars);
    } catch (error) {
      threw = true;
      result = { errors: [error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error as Error })] };
    }
    const { errors, status: statusFromErrors } = result.errors?.length ? executionErrors(result.errors, this.formatError) : { errors: undefined, status: undefined };
    const graphqlResult: { errors?: GraphQLFormattedError[]; data?: unknown; extensions?: Record<string, unknown> } = { errors, data: result.data, extensions: result.extensions };
    reportCost(graphqlResult, context, requested, this.limits);
    // Apollo's rules: a status an error carries, else 400 for errors without data (500 for a throw), else 200.
    let resultStatus = statusFromErrors ?? (threw ? 500 : errors?.length && result.data === undefined ? 400 : 200);
    if (resultStatus === 400) resultStatus = requestErrorStatus(graphqlResult, accept);
    reply.code(resultStatus).header('content-type', contentType);
    this.served += 1;
    return `${JSON.stringify(graphqlResult)}\n`;
  }
}
