import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApolloServerPlugin } from '@apollo/server';
import { type DocumentNode, type ExecutionArgs, getOperationAST, GraphQLError, type GraphQLSchema, Kind, parse, validate, visit } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Database } from '../db/client.js';
import { EventBus, type EventSignal, type SharedReads } from '../modules/events/event-bus.js';
import { formatGraphqlError } from './apollo.js';
import { type Context, LoaderRegistry } from './context.js';
import { AppError } from './errors.js';
import { inputFlaw } from './input-guard.js';
import { type GraphqlLimits, operationLimitError, resolveLimits, tooManyTokens } from './limits.js';
import { anonymousContext, type ContextDeps, contextFor } from './request-context.js';

/**
 * GraphQL subscriptions over WebSocket (the graphql-ws protocol) on the port and path of queries:
 * `ws(s)://host/graphql`. Apollo Server has no subscriptions of its own; as its documentation does,
 * a `ws` server takes the HTTP server's upgrades and Apollo's stop closes it (drainServer).
 *
 * A subscription is authorized as a query is: the credential (connectionParams `Authorization`,
 * and `X-School-Id` for the platform, resolved by the same contextFor as HTTP; or, per operation,
 * the headers a playground tab sends in `extensions.headers`), the role matrix (auth/guard.ts
 * guards Subscription fields), the tenancy of every row it yields, and the GraphQL limits. A bad
 * credential closes the socket (4401; a malformed X-School-Id 4400). Only subscriptions run here:
 * queries and mutations go over HTTP, where the rate limit and persisted queries are.
 */

/** What a subscription resolver receives: the request's context and this app's end of the outbox. */
export interface SubscriptionContext extends Context {
  events: EventBus;
}

/** Subscriptions one socket may hold at once. */
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 50;
const PATH = /^(?:\/api|\/v1)?\/graphql\/?$/;

/** The connection's acting context (null: no credential), found when the socket says connection_init. */
type Extra = { acting?: Omit<Context, 'loaders'> | null };

type Params = Record<string, unknown> | undefined;

/** Header-like entries of connectionParams (or of extensions.headers), lower-cased; nested `headers` counted too. */
function headersOf(params: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!params || typeof params !== 'object' || Array.isArray(params)) return out;
  const read = (source: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(source)) if (typeof value === 'string') out[key.toLowerCase()] = value;
  };
  const nested = (params as Record<string, unknown>).headers;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) read(nested as Record<string, unknown>);
  read(params as Record<string, unknown>);
  return out;
}

function withoutLoaders({ loaders: _, ...fields }: Context): Omit<Context, 'loaders'> {
  return fields;
}

function withLoaders(fields: Omit<Context, 'loaders'>, events: EventBus): SubscriptionContext {
  const ctx = { ...fields, events } as SubscriptionContext;
  ctx.loaders = new LoaderRegistry(() => ctx);
  return ctx;
}

const requestError = (message: string, code: string, extensions: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { code, ...extensions } });

/**
 * The rows a subscription yields: every signal of the subscriber's school that `wanted` accepts
 * (it decides from the signal alone, with no read), loaded by `load` (null: not for it). What
 * `load` reads of the event goes through `shared`, read once on this instance for all its
 * subscribers; `load` then checks the shared rows against the subscriber's own scope. The iterator
 * ends at once when the client completes, also while it waits for the next event.
 */
export async function subscribeTo<T>(
  context: Context,
  wanted: (signal: EventSignal) => boolean,
  load: (ctx: Context, signal: EventSignal, shared: SharedReads) => Promise<T | null | undefined>,
): Promise<AsyncIterableIterator<T>> {
  const ctx = context as Partial<SubscriptionContext> & Context;
  if (!ctx.events) throw new AppError('bad_request', 'Subscriptions run over WebSocket (graphql-ws) at /graphql');
  // Fails closed: only the platform reading across schools hears every school.
  if (ctx.schoolId === null && ctx.tenancy !== 'platform') throw new AppError('unauthenticated', 'A valid credential is required (Authorization: Bearer <token>)');
  const feed = (await ctx.events.signals(ctx.schoolId, wanted)) as Required<AsyncIterableIterator<EventSignal>>;
  const iterator: AsyncIterableIterator<T> = {
    async next() {
      for (;;) {
        const signal = await feed.next();
        if (signal.done) return { value: undefined, done: true };
        // Each event is read afresh: nothing cached from the previous one.
        ctx.loaders.clearAll();
        const row = await load(ctx, signal.value, ctx.events!.shared(signal.value));
        if (row !== null && row !== undefined) return { value: row, done: false };
      }
    },
    return: () => feed.return() as Promise<IteratorResult<T>>,
    throw: (error) => feed.throw(error) as Promise<IteratorResult<T>>,
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

export interface SubscriptionServerOptions {
  schema: GraphQLSchema;
  deps: ContextDeps;
  database: Database;
  log: (error: unknown) => void;
  graphqlLimits?: Partial<GraphqlLimits>;
}

export interface SubscriptionServer {
  /** This app's end of the outbox channel (tests read `subscribers`). */
  events: EventBus;
  /** Apollo plugin: refuses subscriptions over HTTP; on stop, closes every socket and stops listening. */
  plugin: ApolloServerPlugin<Context>;
  /** Takes the WebSocket upgrades of /graphql on the HTTP server. */
  attach(server: Server): void;
  /**
   * Closes every socket (1001 Going away) and stops listening; once, however often called. Call it
   * before the HTTP server closes (app.ts: Fastify's preClose): an open socket keeps it open.
   */
  close(): Promise<void>;
}

export function createSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const { schema, deps, log } = options;
  const limits = resolveLimits(options.graphqlLimits);
  const events = new EventBus(options.database, log);
  const format = formatGraphqlError(log);
  const formatted = (errors: readonly GraphQLError[]) =>
    errors.map((e) => {
      const f = format(e.toJSON(), e);
      return limits.introspection ? f : { ...f, message: f.message.replace(/ Did you mean .*\?$/s, '') };
    });

  /** The credential of headers, as HTTP resolves it; an AppError when it is bad. */
  const acting = async (headers: Record<string, string>) => withoutLoaders(await contextFor(deps, headers));

  // A frame is one GraphQL request: the HTTP body limit (1 MiB) applies.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const cleanup = useServer<Params, Extra>(
    {
      schema,
      async onConnect(ctx) {
        try {
          const headers = headersOf(ctx.connectionParams);
          ctx.extra.acting = headers.authorization ? await acting(headers) : null;
          return true;
        } catch (error) {
          if (error instanceof AppError) ctx.extra.socket.close(4000 + error.status, error.message);
          else {
            log(error);
            ctx.extra.socket.close(CloseCode.InternalServerError, 'Internal server error');
          }
          return false;
        }
      },
      async onSubscribe(ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> {
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET)
          return [requestError(`A socket holds at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions`, 'BAD_REQUEST')];
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (error) {
          if (error instanceof GraphQLError && /tokens/.test(error.message)) return [tooManyTokens(limits)];
          return [requestError(error instanceof Error ? error.message : 'The query does not parse', 'GRAPHQL_PARSE_FAILED')];
        }
        const invalid = validate(schema, document);
        if (invalid.length) return invalid.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [requestError('Name the operation to run (operationName)', 'BAD_REQUEST')];
        if (operation.operation !== 'subscription')
          return [requestError('This socket runs subscriptions; send queries and mutations over HTTP (POST /graphql)', 'BAD_REQUEST')];
        const flaw = inputFlaw(payload.variables ?? {});
        if (flaw) return [requestError(`Variable ${flaw.path.length ? `$${flaw.path.join('.')}` : ''} ${flaw.message}`, 'BAD_USER_INPUT', { field: flaw.path.map(String) })];
        let literal: GraphQLError | undefined;
        visit(document, {
          [Kind.STRING](node) {
            const found = inputFlaw(node.value);
            if (found) literal ??= requestError(`A string literal ${found.message}`, 'BAD_USER_INPUT');
          },
        });
        if (literal) return [literal];
        const broken = operationLimitError(schema, document, payload.variables ?? undefined, payload.operationName ?? undefined, limits);
        if (broken) return [broken];
        // A playground tab's headers travel with each operation: they name the credential of that operation.
        const own = headersOf((payload.extensions as Record<string, unknown> | undefined)?.headers);
        let fields = ctx.extra.acting ?? null;
        if (own.authorization) {
          try {
            fields = await acting(own);
          } catch (error) {
            if (error instanceof AppError) return [error];
            throw error;
          }
        }
        const contextValue = withLoaders(fields ?? withoutLoaders(anonymousContext(deps)), events);
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onError: (_ctx, _id, _payload, errors) => formatted(errors),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: formatted(result.errors) } : undefined),
    },
    wss,
  );

  let server: Server | undefined;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '/').split('?')[0];
    if (!PATH.test(path)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      server?.off('upgrade', onUpgrade);
      await cleanup.dispose();
      await events.stop();
    })());

  return {
    events,
    close,
    attach(httpServer) {
      server = httpServer;
      httpServer.on('upgrade', onUpgrade);
    },
    plugin: {
      async serverWillStart() {
        return {
          drainServer: close,
        };
      },
      async requestDidStart() {
        return {
          async didResolveOperation({ operation }) {
            if (operation?.operation === 'subscription')
              throw new GraphQLError('Subscriptions run over WebSocket (graphql-ws) at /graphql, not over HTTP', {
                extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
              });
          },
        };
      },
    },
  };
}
