import 'reflect-metadata';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import qs from 'qs';
import type { Database } from './db/client.js';
import type { ReadRouting } from './db/read-routing.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { attachCredentialCache, CredentialCache } from './auth/credential-cache.js';
import { TokenUsage } from './auth/token-usage.js';
import { TenancyBreach } from './auth/egress.js';
import { config, type IdentitySettings } from './config.js';
import { databaseReady } from './db/client.js';
import { createApollo, formatGraphqlError } from './graphql/apollo.js';
import { builtContext, KnownOperations } from './graphql/known-operations.js';
import { compiledExecutor } from './graphql/executor.js';
import { PersistedQueryCache } from './graphql/apq-cache.js';
import { type GraphqlLimits, resolveLimits, withCostReported } from './graphql/limits.js';
import { ListBounds } from './graphql/list-bounds.js';
import type { Context } from './graphql/context.js';
import { anonymousContext, contextFor, type ContextDeps } from './graphql/request-context.js';
import { schemaOf, service } from './service-modules.js';
import { assembleModules, type ModuleDeclaration } from './modules/define-module.js';
import type { SocketLimits } from './graphql/socket-registry.js';
import { createSubscriptionServer, type SubscriptionServer } from './graphql/subscriptions.js';
import { DEFAULT_LOCALE, inLocale, requestLocale } from './errors/i18n.js';
import { toGraphqlError } from './errors/reply.js';
import { createLogger, lazyRequestLogger, type LogStream, repeatedFailures } from './http/logging.js';
import { clientAddress } from './http/client-address.js';
import { registerFavicon } from './http/favicon.js';
import { addressKey, frameCharge, rateLimiter, registerRateLimit, type RateLimitSettings } from './http/rate-limit.js';
import { registerSecurity, withSecurityHeaders } from './http/security.js';
import { registerBodyParsers } from './rest/body-parsers.js';
import { QS_OPTIONS } from './rest/get-body.js';
import { clientErrorReply, frameworkErrorReply, registerErrorReplies } from './rest/http-errors.js';
import { registerDocs } from './rest/docs.js';
import { registerOpenApiRoute } from './rest/openapi-route.js';
import { registerRestRoutes } from './rest/router.js';

export interface AppOptions {
  database: Database;
  /** Reads routed to a replica (db/read-routing.ts, DATABASE_READ_URL); absent, every statement runs on `database`. */
  reads?: ReadRouting;
  /** The service's clock (tests move it). */
  now?: () => Date;
  /** The logger of requests and errors (server.ts passes the process's), or true for one of its own on `logStream`. */
  logger?: boolean | FastifyBaseLogger;
  /** Where a logger of its own writes (stdout by default). */
  logStream?: LogStream;
  bodyLimit?: number;
  /** Origins allowed to call from browser pages (CORS_ORIGINS by default). */
  corsOrigins?: readonly string[];
  /** A token the playground opens with (main passes the development token on the embedded database, outside production). */
  playgroundToken?: string;
  /** Proxies trusted to name the client's address (TRUST_PROXY by default). */
  trustProxy?: boolean | string[] | ((address: string, hop: number) => boolean);
  /** Overrides of the configured rate limit (tests turn it off or set small budgets). */
  rateLimit?: Partial<RateLimitSettings>;
  /** Overrides of the configured limits of subscription sockets (WS_* variables; tests set small ones). */
  sockets?: Partial<SocketLimits>;
  /** Overrides of the configured GraphQL limits (tests set small ones to reach each boundary). */
  graphqlLimits?: Partial<GraphqlLimits>;
  /** Seconds a checked credential is reused (CREDENTIAL_CACHE_SECONDS by default; 0: every request reads it). */
  credentialCacheSeconds?: number;
  /** Seconds between reads of the lists' sizes from the database's statistics (GRAPHQL_LIST_BOUNDS_SECONDS by default; 0: constants, as the suite prices). */
  listBoundsSeconds?: number;
  /** Runs of an operation on graphql-js before it is compiled (graphql/executor.ts; tests compile at once, so they check the compiled path). */
  compileAfterRuns?: number;
  /** Integrations may save webhook URLs of loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE_NETWORKS by default). */
  webhooksAllowPrivateNetworks?: boolean;
  /** OpenID issuers may be http and loopback or private addresses (SSO_ALLOW_INSECURE_ISSUERS by default; the tests' provider on loopback). */
  ssoAllowInsecureIssuers?: boolean;
  /** Overrides of the configured sign-in settings (tests set short tokens or other lock-out limits). */
  identity?: Partial<IdentitySettings>;
  /** Seconds between the batches that record when tokens were last used (TOKEN_LAST_USED_SECONDS by default; 0: only when the app closes, and when a test flushes `tokenUsages`). */
  tokenUsageSeconds?: number;
  /** The modules served (src/modules/index.ts by default; a test adds one of its own). */
  modules?: readonly ModuleDeclaration[];
}


export { loggedUrl } from './http/logging.js';

/** Each app's subscription server (tests wait on its `events.subscribers`). */
export const subscriptionServers = new WeakMap<FastifyInstance, SubscriptionServer>();

/** Each app's executor (tests read how many operations it compiled). */
export const executors = new WeakMap<FastifyInstance, ReturnType<typeof compiledExecutor>>();

/** Each app's operations on the known path (tests read how many it holds). */
export const knownOperations = new WeakMap<FastifyInstance, KnownOperations>();

/** Each app's record of token use (tests flush it). */
export const tokenUsages = new WeakMap<FastifyInstance, TokenUsage>();

/** The logger of the request being served (its lines carry the request's id). */
const requestLogger = new AsyncLocalStorage<FastifyBaseLogger>();
/**
 * A route's hook running the rest of the request in the locale its Accept-Language asks for
 * (errors/i18n.ts). English is what no locale at all reads (currentLocale): a request in it, as most
 * API clients' are, goes on without a context of its own.
 */
const inRequestLocale = (request: { headers: Record<string, string | string[] | undefined> }, _reply: unknown, done: () => void) => {
  const locale = requestLocale(request.headers);
  return locale === DEFAULT_LOCALE ? done() : inLocale(locale, done);
};

/** Strips what clients put around a route: `/api`, `/v1`, a `.json` suffix. */
export function normaliseUrl(url: string): string {
  // Most URLs carry none of them: left as they are without three expressions each.
  if (!url.startsWith('/api') && !url.startsWith('/v1') && !url.includes('.json')) return url;
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  path = path.replace(/^\/api(?=\/|$)/, '').replace(/^\/v1(?=\/|$)/, '') || '/';
  path = path.replace(/\.json(\/?)$/, '$1');
  return path + query;
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const assembled = options.modules ? assembleModules(options.modules) : service;
  const schema = await schemaOf(assembled);
  const { routes } = assembled;
  const cacheSeconds = options.credentialCacheSeconds ?? config.credentialCache.seconds;
  const credentials = cacheSeconds > 0 ? new CredentialCache(cacheSeconds * 1000, config.credentialCache.size) : undefined;
  const usageSeconds = options.tokenUsageSeconds ?? config.tokenLastUsedSeconds;
  // Recorded to the granularity of TOKEN_LAST_USED_SECONDS, whatever the flush interval.
  const usage = new TokenUsage(options.database.db, config.tokenLastUsedSeconds * 1000);
  const deps: ContextDeps = {
    db: options.database.db,
    now: options.now ?? (() => new Date()),
    credentials,
    usage,
    identity: { ...config.identity, ...options.identity },
    reads: options.reads,
    webhooksAllowPrivateNetworks: options.webhooksAllowPrivateNetworks ?? config.webhooksAllowPrivateNetworks,
    ssoAllowInsecureIssuers: options.ssoAllowInsecureIssuers ?? config.sso.allowInsecureIssuers,
    // A by-id loader's withheld breach is logged like any other (`log`, below: called only while serving).
    log: (error) => log(error),
  };
  const trustProxy = options.trustProxy ?? config.trustProxy;
  const logger: FastifyBaseLogger | undefined = options.logger === true ? createLogger({ stream: options.logStream }) : options.logger || undefined;
  const app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy,
    // A caller's X-Request-Id (a proxy's, a client's) names the request in every log line; else a random one.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      // Most requests have no query string: qs prepares its options on every call, even for nothing to parse.
      querystringParser: (str) => (str ? (qs.parse(str, QS_OPTIONS) as Record<string, unknown>) : {}),
    },
    rewriteUrl: (req) => normaliseUrl(req.url ?? '/'),
    // Errors raised before routing, in the documented shape (Fastify's own bodies echo the URL).
    frameworkErrors: withSecurityHeaders(frameworkErrorReply),
    clientErrorHandler: clientErrorReply,
  });
  // An unexpected error is logged with the request it broke (its reqId), wherever it is caught.
  // A tenancy breach gets a message of its own: a forgotten school filter, for whoever watches the logs.
  // Outside a request (a timer's, a socket's work), a failure that repeats is logged once a minute with its count.
  const background = repeatedFailures(app.log);
  const log = (error: unknown) => {
    const message = error instanceof TenancyBreach ? 'tenancy breach: rows of another school withheld' : 'unexpected error';
    const request = requestLogger.getStore();
    if (request) request.error({ err: error }, message);
    else background(message, error);
  };
  // Every instance drops its cached credentials when one is revoked or its school changes (auth/credential-cache.ts).
  if (credentials) {
    const stopListening = await attachCredentialCache(options.database, credentials);
    app.addHook('onClose', () => stopListening());
  }
  // Token use is recorded in batches (auth/token-usage.ts), and once more when the app closes.
  tokenUsages.set(app, usage);
  const flushUsage = () => usage.flush().catch((error) => background('recording token use failed', error));
  const usageTimer = usageSeconds > 0 ? setInterval(flushUsage, usageSeconds * 1000) : undefined;
  usageTimer?.unref();
  app.addHook('onClose', async () => {
    clearInterval(usageTimer);
    await flushUsage();
  });
  // Every reply names its request, so a client can quote it and the logs find it; the rest of the
  // request (the hooks below too) runs with its logger at hand (requestLogger), so errors caught anywhere carry its id.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    requestLogger.run(request.log, done);
  });
  await registerSecurity(app, { corsOrigins: options.corsOrigins });
  // Keep after the security-header and CORS hooks: a 429 must carry their headers too.
  // One limiter per instance: requests and subscribe frames spend the same leased slices.
  const limit = rateLimiter({ db: options.database.db, now: deps.now, settings: options.rateLimit });
  registerRateLimit(app, { db: options.database.db, now: deps.now, settings: options.rateLimit }, limit);

  await registerBodyParsers(app);

  // Hooks and error replies before any route: a route registered before an awaited plugin keeps
  // the hooks and handlers that existed then.
  registerErrorReplies(app, log);

  // Every /graphql reply reports its cost, also those refused before the pipeline (401, 429, a malformed body).
  const maximumCost = resolveLimits(options.graphqlLimits).maxCost;
  app.addHook('onSend', (request, reply, payload, done) =>
    done(null, request.url.startsWith('/graphql') && /json/.test(String(reply.getHeader('content-type') ?? '')) ? withCostReported(payload, maximumCost) : payload),
  );


  // Subscriptions: graphql-ws on the same port and path, closed when Apollo stops (graphql/subscriptions.ts).
  // Their subscribe frames pay the buckets of requests; their sockets are counted by the address requests pay with.
  const charge = frameCharge(limit, (error) => background('rate limit not applied to a subscribe frame: the database did not answer', error));
  // Plain lists are priced by the database's statistics (graphql/list-bounds.ts), refreshed now and then.
  const boundsSeconds = options.listBoundsSeconds ?? config.listBoundsSeconds;
  const bounds = boundsSeconds > 0 ? new ListBounds(options.database, log) : undefined;
  if (bounds) {
    await bounds.start(boundsSeconds);
    app.addHook('onClose', async () => bounds.stop());
  }
  const subscriptions = createSubscriptionServer({
    schema,
    bounds,
    deps,
    database: options.database,
    log,
    graphqlLimits: options.graphqlLimits,
    sockets: options.sockets,
    charge,
    clientAddress: clientAddress(trustProxy),
  });
  subscriptionServers.set(app, subscriptions);
  subscriptions.attach(app.server);
  // Before the HTTP server closes: it would wait for the open sockets.
  app.addHook('preClose', () => subscriptions.close());
  // Every instance closes the sockets of a revoked token or a canceled school when the change commits.
  await subscriptions.start();
  const execute = compiledExecutor(schema, options.compileAfterRuns, resolveLimits(options.graphqlLimits));
  executors.set(app, execute);
  const persisted = new PersistedQueryCache(deps.db, deps.now, log);
  // Operations Apollo has validated once run by a shorter path (graphql/known-operations.ts).
  const known = new KnownOperations(schema, execute, resolveLimits(options.graphqlLimits), formatGraphqlError(log), bounds);
  knownOperations.set(app, known);
  const apollo = createApollo(schema, execute, log, persisted, options.graphqlLimits, options.playgroundToken, [subscriptions.plugin, known.plugin], bounds);
  await apollo.start();
  app.addHook('onClose', () => apollo.stop());
  const requestContext = (request: FastifyRequest<any>) => contextFor(deps, request.headers, { address: addressKey(request.ip) });
  const throughApollo = fastifyApolloHandler(apollo, {
    context: async (request) => {
      // The known path built it already (or failed to) before handing the request over.
      const built = request[builtContext];
      try {
        if (built && 'context' in built) return built.context;
        if (built) throw built.error;
        return await requestContext(request);
      } catch (error) {
        throw toGraphqlError(error, requestLocale(request.headers)) ?? error;
      }
    },
  });
  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    // Each request runs in its locale (errors/i18n.ts): Apollo's formatError, which has no context, words its errors in it.
    onRequest: inRequestLocale,
    handler: async function (request, reply) {
      const served = await known.serve(request, reply, () => requestContext(request));
      return served ?? throughApollo.call(this, request as Parameters<typeof throughApollo>[0], reply as Parameters<typeof throughApollo>[1]);
    },
  });

  registerRestRoutes(app, {
    schema,
    execute,
    routes,
    rules: assembled.roleMatrix.operations,
    context: (request, isPublic): Promise<Context> =>
      isPublic ? Promise.resolve(anonymousContext(deps, request.headers, { address: addressKey(request.ip) })) : contextFor(deps, request.headers, { address: addressKey(request.ip) }),
    log: (error) => log(error),
  });

  registerOpenApiRoute(app, schema, routes);
  await registerDocs(app);
  registerFavicon(app);
  app.get('/health', async () => ({ status: 'ok' }));
  // Liveness: the process answers. Readiness: the database answers and every migration is applied.
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = await databaseReady(options.database);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable' });
  });

  return app;
}
