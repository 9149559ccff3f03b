import { closeCode, type ErrorCode, raisedStatus } from '../errors/codes.js';
import { emptyReply, errorReply, refusalOf } from '../errors/reply.js';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApolloServerPlugin } from '@apollo/server';
import { type DocumentNode, type ExecutionArgs, getOperationAST, GraphQLError, type GraphQLSchema, Kind, parse, validate, visit } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { CREDENTIALS_CHANNEL } from '../auth/credential-cache.js';
import { digestToken, tokenFromHeader } from '../auth/credential.js';
import { inSchoolScope, schoolScope } from '../auth/tenancy.js';
import { config } from '../config.js';
import type { Database } from '../db/client.js';
import { addressKey, type FrameCharge, tooManyRequests } from '../http/rate-limit.js';
import { EventBus, type EventSignal, type SharedReads } from '../modules/events/event-bus.js';
import { inLocale, requestLocale } from '../errors/i18n.js';
import { formatGraphqlError } from './apollo.js';
import { type Context, withLoaders as contextWithLoaders } from './context.js';
import { AppError, forbidden } from './errors.js';
import { inputFlaw } from './input-guard.js';
import { type GraphqlLimits, priceOperation, resolveLimits, tooManyTokens } from './limits.js';
import type { ListBounds } from './list-bounds.js';
import { anonymousContext, type ContextDeps, contextFor } from './request-context.js';
import { closingOf, type SocketLimits, SocketRegistry, tooManyForCredential, tooManyFromAddress } from './socket-registry.js';

/**
 * GraphQL subscriptions over WebSocket (the graphql-ws protocol) on the port and path of queries:
 * `ws(s)://host/graphql`. Apollo Server has no subscriptions of its own; as its documentation does,
 * a `ws` server takes the HTTP server's upgrades and Apollo's stop closes it (drainServer).
 *
 * A subscription is authorized as a query is: the credential (connectionParams `Authorization`,
 * and `X-School-Id` for the platform, resolved by the same contextFor as HTTP; or, per operation,
 * the headers a playground tab sends in `extensions.headers`), the role matrix (auth/guard.ts
 * guards Subscription fields), the tenancy of every row it yields, and the GraphQL limits. A bad
 * credential closes the socket (4401; a malformed X-School-Id 4400; a canceled school's 4403).
 * Only subscriptions run here: queries and mutations go over HTTP, where persisted queries are.
 *
 * Sockets live under the rules of requests (graphql/socket-registry.ts): connection_init and each
 * subscribe frame pay the rate limit's bucket (a frame before it is parsed); a credential and a client address hold a bounded
 * number of sockets; a socket without a credential is closed after a few seconds; and a revoked
 * token or a canceled school closes the sockets holding it on every instance, at the
 * `credentials_changed` NOTIFY the change sends when it commits.
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
  return contextWithLoaders({ ...fields, events });
}

/** A subscribe frame refused before it runs, written by errors/reply.ts. */
const requestError = (message: string, code: ErrorCode, extensions: Record<string, unknown> = {}) => errorReply('graphql-request', { code, message, extensions });
/** GraphQL's own refusal of a document that does not parse (graphql-js's code, as Apollo sends it over HTTP). */
const parseError = (message: string) => new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });

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
  // Fails closed: a request of no school hears nothing; only the platform reading across schools hears every school.
  if (schoolScope(ctx) === 'none') throw new AppError('unauthenticated', 'A valid credential is required (Authorization: Bearer <token>)');
  const feed = (await ctx.events.signals((signal) => inSchoolScope(ctx, signal.schoolId) && wanted(signal))) as Required<AsyncIterableIterator<EventSignal>>;
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
  /** The lists' sizes from the database's statistics, for the static cost as HTTP prices it. */
  bounds?: ListBounds;
  /** Overrides of the configured socket limits (WS_* variables; tests set small ones). */
  sockets?: Partial<SocketLimits>;
  /** Charges each subscribe frame to the rate limit's buckets (http/rate-limit.ts frameCharge); absent, frames are not limited. */
  charge?: FrameCharge;
  /** The client address of an upgrade request, as HTTP requests find theirs (TRUST_PROXY); the peer's by default. */
  clientAddress?: (request: IncomingMessage) => string;
}

export interface SubscriptionServer {
  /** This app's end of the outbox channel (tests read `subscribers`). */
  events: EventBus;
  /** The open sockets and the credentials they hold (tests read `size`). */
  sockets: SocketRegistry;
  /** Listens for `credentials_changed`, so that a revoked or canceled credential closes its sockets; before serving. */
  start(): Promise<void>;
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
  const { schema, deps, log, charge } = options;
  const limits = resolveLimits(options.graphqlLimits);
  const events = new EventBus(options.database, log);
  const registry = new SocketRegistry(deps.db, { ...config.sockets, ...options.sockets }, log, deps.now);
  const clientAddress = options.clientAddress ?? ((request: IncomingMessage) => request.socket.remoteAddress ?? '');
  /** A subscription ended: the credential it held of its own is no longer held by it. */
  const release = (socket: WebSocket, id: string) => {
    const state = registry.stateOf(socket);
    if (state) registry.release(state, id);
  };
  const format = formatGraphqlError(log);
  /** The language of a socket's errors: its connection's credential headers', else its upgrade request's Accept-Language. */
  const socketLocale = (extra: Extra & { request?: IncomingMessage }) => extra.acting?.locale ?? requestLocale(extra.request?.headers ?? {});
  const formatted = (errors: readonly GraphQLError[]) =>
    errors.map((e) => {
      const f = format(e.toJSON(), e);
      return limits.introspection ? f : { ...f, message: f.message.replace(/ Did you mean .*\?$/s, '') };
    });

  /**
   * The credential of headers, as HTTP resolves it; an AppError when it is bad, or when its school
   * forbids it everything (4403). Read again when a change of credentials is announced meanwhile: a
   * socket about to hold it would otherwise miss the recheck that change started.
   */
  const acting = async (headers: Record<string, string>) => {
    for (;;) {
      const generation = registry.generation;
      const fields = withoutLoaders(await contextFor(deps, headers));
      if (registry.generation !== generation) continue;
      const credential = fields.credential!;
      const closing = closingOf(credential.role, credential.schoolId, credential.role === 'platform' ? null : fields.schoolStatus);
      if (closing) throw closing.code === closeCode('forbidden') ? forbidden(closing.reason) : new AppError('unauthenticated', closing.reason);
      return fields;
    }
  };
  const digestOf = (authorization: string) => digestToken(tokenFromHeader(authorization)!);
  const gone = () => [requestError('The socket is closing: its credential is no longer valid', 'unauthenticated')];

  // A frame is one GraphQL request: the HTTP body limit (1 MiB) applies.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const cleanup = useServer<Params, Extra>(
    {
      schema,
      // A socket that says nothing is closed after this long (4408); one that connects without a credential, see registry.idle.
      connectionInitWaitTimeout: registry.limits.authenticateWithinMs,
      async onConnect(ctx) {
        const state = registry.stateOf(ctx.extra.socket);
        if (!state || state.closed) return false;
        try {
          const headers = headersOf(ctx.connectionParams);
          // connection_init resolves a credential as a request does, and pays as one: churning sockets costs the bucket.
          if (charge) {
            const token = headers.authorization ? tokenFromHeader(headers.authorization) : null;
            const refused = await charge({ digest: token ? digestToken(token) : null, address: state.address });
            if (refused) {
              state.close(errorReply('close', { code: 'rate_limited', message: tooManyRequests(refused.retryAfter) }));
              return false;
            }
          }
          if (!headers.authorization) {
            ctx.extra.acting = null;
            registry.idle(state);
            return true;
          }
          const fields = await acting(headers);
          if (state.closed) return false;
          if (!registry.hold(state, digestOf(headers.authorization))) {
            state.close(tooManyForCredential(registry.limits.maxPerCredential));
            return false;
          }
          ctx.extra.acting = fields;
          return true;
        } catch (error) {
          if (error instanceof AppError) state.close(errorReply('close', refusalOf(error)));
          else {
            log(error);
            state.close(errorReply('close', { code: 'internal' }));
          }
          return false;
        }
      },
      async onSubscribe(ctx, id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> {
        const state = registry.stateOf(ctx.extra.socket);
        if (!state || state.closed) return gone();
        if (Object.keys(ctx.subscriptions).length > MAX_SUBSCRIPTIONS_PER_SOCKET)
          return [requestError(`A socket holds at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions`, 'bad_request')];
        // A playground tab's headers travel with each operation: they name the credential of that operation.
        const own = headersOf((payload.extensions as Record<string, unknown> | undefined)?.headers);
        // The frame pays as a request would, before anything is parsed: its credential's bucket, or its address's.
        if (charge) {
          const token = own.authorization ? tokenFromHeader(own.authorization) : null;
          const refused = await charge({ digest: token ? digestToken(token) : own.authorization ? null : state.connection, address: state.address });
          if (refused)
            return [requestError(tooManyRequests(refused.retryAfter), 'rate_limited', { retryAfter: refused.retryAfter })];
        }
        // A change of credentials announced since the sockets were last read: read them again first.
        try {
          await registry.settle();
        } catch (error) {
          log(error);
          return [new AppError('internal', 'Internal server error')];
        }
        if (state.closed) return gone();
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (error) {
          if (error instanceof GraphQLError && /tokens/.test(error.message)) return [tooManyTokens(limits)];
          return [parseError(error instanceof Error ? error.message : 'The query does not parse')];
        }
        const invalid = validate(schema, document);
        if (invalid.length) return invalid.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [requestError('Name the operation to run (operationName)', 'bad_request')];
        if (operation.operation !== 'subscription')
          return [requestError('This socket runs subscriptions; send queries and mutations over HTTP (POST /graphql)', 'bad_request')];
        const flaw = inputFlaw(payload.variables ?? {});
        if (flaw) return [errorReply('graphql', { code: 'bad_request', message: `Variable ${flaw.path.length ? `$${flaw.path.join('.')}` : ''} ${flaw.message}`, extensions: { field: flaw.path.map(String) } })];
        let literal: GraphQLError | undefined;
        visit(document, {
          [Kind.STRING](node) {
            const found = inputFlaw(node.value);
            if (found) literal ??= errorReply('graphql', { code: 'bad_request', message: `A string literal ${found.message}` });
          },
        });
        if (literal) return [literal];
        const { broken } = priceOperation(schema, document, payload.variables ?? undefined, payload.operationName ?? undefined, limits, options.bounds);
        if (broken) return [broken];
        let fields = ctx.extra.acting ?? null;
        if (own.authorization) {
          try {
            fields = await acting(own);
          } catch (error) {
            if (error instanceof AppError) return [error];
            throw error;
          }
          if (state.closed) return gone();
          if (!registry.hold(state, digestOf(own.authorization), id))
            return [requestError(tooManyForCredential(registry.limits.maxPerCredential).reason, 'too_many_sockets')];
        }
        const contextValue = withLoaders(fields ?? withoutLoaders(anonymousContext(deps)), events);
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onError: (ctx, id, _payload, errors) => {
        release(ctx.extra.socket, id);
        return inLocale(socketLocale(ctx.extra), () => formatted(errors));
      },
      onComplete: (ctx, id) => release(ctx.extra.socket, id),
      onNext: (ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: inLocale(socketLocale(ctx.extra), () => formatted(result.errors!)) } : undefined,
    },
    wss,
  );

  let server: Server | undefined;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '/').split('?')[0];
    if (!PATH.test(path)) {
      socket.end(emptyReply(404));
      return;
    }
    // An address at its cap is refused before a socket exists.
    const address = addressKey(clientAddress(request));
    if (!registry.mayOpen(address)) {
      const { reason } = tooManyFromAddress(registry.limits.maxPerAddress);
      socket.end(errorReply('socket-graphql', { code: 'too_many_sockets', message: reason }));
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      registry.open(ws, address);
      wss.emit('connection', ws, request);
    });
  };

  let stopListening: (() => Promise<void>) | undefined;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      server?.off('upgrade', onUpgrade);
      registry.stop();
      await cleanup.dispose();
      await events.stop();
      await stopListening?.().catch(log);
    })());

  return {
    events,
    sockets: registry,
    async start() {
      stopListening ??= await options.database.listen(CREDENTIALS_CHANNEL, () => registry.changed());
    },
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
              throw errorReply('graphql-request', {
                code: 'bad_request',
                message: 'Subscriptions run over WebSocket (graphql-ws) at /graphql, not over HTTP',
                extensions: { http: { status: raisedStatus('bad_request') } },
              });
          },
        };
      },
    },
  };
}
