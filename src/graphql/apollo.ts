import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { causeChain } from '../errors/app-error.js';
import { codeOfGraphql, refusalGraphqlCode } from '../errors/codes.js';
import { currentLocale, DEFAULT_LOCALE, localizedMessage } from '../errors/i18n.js';
import { errorReply, toGraphqlError } from '../errors/reply.js';
import { FAVICON_SVG } from '../http/favicon.js';
import { APQ_TTL_SECONDS, type PersistedQueryCache } from './apq-cache.js';
import type { Context } from './context.js';
import { errorCodes } from './error-codes.js';
import { type Executor, localGateway } from './executor.js';
import { inputGuard } from './input-guard.js';
import type { ListBounds } from './list-bounds.js';
import { allLimitCodes, type GraphqlLimits, limitCodes, limitsPlugin, resolveLimits } from './limits.js';

const exampleQuery = (hint: string) => `${hint}
# Subscriptions run here too (over WebSocket), e.g. subscription { notificationReceived { id text url } }
query Schools {
  schools(first: 10) {
    totalCount
    nodes { id name subdomain status }
  }
}
`;

/**
 * A self-contained GraphiQL page (assets inlined), so the playground works with no internet access.
 * Rendered on its first request, not at start-up: its renderer is 9 MB of module source, which
 * would cost every instance most of a second of start-up and tens of MB for a page few ask for.
 * With a token (the embedded database's development token, in development) it opens ready: the
 * header set, the schema loaded. Without one it sends no header at all (an empty `Bearer ` is a
 * 401 before anything shows) and says how to add one.
 */
function playground(token?: string): ApolloServerPlugin<Context> {
  let page: Promise<string> | undefined;
  const render = async () => {
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    return renderGraphiQL({
      endpoint: '/graphql',
      title: 'Learning platform',
      // The service's own icon, inline (the renderer's default is a 150 KB icon of its own).
      favicon: `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`,
      defaultQuery: exampleQuery(
        token
          ? '# The development platform token is set in the Headers tab; it acts across schools (add "X-School-Id" to act in one).'
          : '# Add your token in the Headers tab: {"Authorization": "Bearer <token>"} (npm run token, or the wizard\'s admin credentials).',
      ),
      ...(token ? { headers: JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2) } : {}),
      // Subscriptions run over graphql-ws at the same URL (ws://host/graphql). The Headers tab travels
      // with each subscription (its extensions.headers); with the development token the connection carries it too.
      subscriptionsProtocol: 'WS',
      ...(token ? { connectionParams: { Authorization: `Bearer ${token}` } } : {}),
    } as Parameters<typeof renderGraphiQL>[0]);
  };
  const html = () =>
    (page ??= render().catch((error) => {
      page = undefined;
      throw error;
    }));
  return {
    async serverWillStart() {
      return { async renderLandingPage() { return { html }; } };
    },
  };
}

/** Codes whose messages are safe to show: client mistakes and the service's own raised errors. */
const clientCodes = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  refusalGraphqlCode('bad_request'),
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  ...allLimitCodes,
  // Refusals of a subscribe frame (graphql/subscriptions.ts): an empty bucket, a credential on too many sockets.
  refusalGraphqlCode('rate_limited'),
  refusalGraphqlCode('too_many_sockets'),
  // The service's own raised codes (a bad credential fails while the context is built).
  ...Object.values(errorCodes)
    .flatMap((e) => ('raised' in e && 'graphql' in e.raised ? [e.raised.graphql] : []))
    .filter((code) => code !== 'INTERNAL_SERVER_ERROR'),
]);

/** Whether the engine itself overflowed its stack (a document nested thousands deep): never a message to show. */
function stackOverflow(error: unknown): boolean {
  for (const e of causeChain(error, { max: 5, originalError: true })) if (e instanceof RangeError && /call stack/i.test(e.message)) return true;
  return false;
}

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** Whether an Accept header admits application/graphql-response+json; no header admits it (the spec's default since 2025). */
export function admitsGraphqlResponse(accept: string | null | undefined): boolean {
  if (!accept) return true;
  let exact: number | undefined;
  let wildcard: number | undefined;
  for (const range of accept.split(',')) {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    const weight = q === undefined ? 1 : Number(q.slice(q.indexOf('=') + 1)) || 0;
    if (type === GRAPHQL_RESPONSE) exact = Math.max(exact ?? 0, weight);
    else if (type === '*/*' || type === 'application/*') wildcard = Math.max(wildcard ?? 0, weight);
  }
  return (exact ?? wildcard ?? 0) > 0;
}

/** GraphQL request errors: the document or its variables are wrong; nothing ran. Limits are validation rules of the service's own. */
const requestErrorCodes = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'OPERATION_RESOLUTION_FAILURE', ...limitCodes]);

/**
 * Status codes as GraphQL over HTTP asks. A client that cannot read application/graphql-response+json
 * (it accepts only application/json) cannot tell a GraphQL reply with a 4xx from a proxy's, so a
 * request error answers 200 there; every other client gets 400. Also waits for an APQ registration
 * to be stored, so the client's next request finds it on any instance.
 */
function httpStatusPlugin(persisted: PersistedQueryCache): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response, metrics }) {
          if (metrics.persistedQueryRegister) await persisted.settled();
          if (response.body.kind !== 'single' || response.http.status !== 400) return;
          response.http.status = requestErrorStatus(response.body.singleResult, request.http?.headers.get('accept'));
        },
      };
    },
  };
}

/** The status of a reply that would be a 400: a request error answers 200 to a client that cannot read application/graphql-response+json. */
export function requestErrorStatus(result: { data?: unknown; errors?: readonly GraphQLFormattedError[] }, accept: string | null | undefined): number {
  const { data, errors } = result;
  const requestError = data === undefined && !!errors?.length && errors.every((e) => requestErrorCodes.has(e.extensions?.code as string));
  return requestError && !admitsGraphqlResponse(accept) ? 200 : 400;
}

/** Headers that mark a GET or a form-encoded POST as no cross-site forgery (besides a JSON Content-Type). */
const preflightHeaders = ['graphql-require-preflight', 'x-requested-with', 'apollo-require-preflight', 'x-apollo-operation-name'];
const csrfMessage = 'A GraphQL request must have Content-Type: application/json, or a GraphQL-Require-Preflight or X-Requested-With header';

/** Apollo's own refusals carry the name of the engine: the service words them itself. */
const reworded = (formatted: GraphQLFormattedError): GraphQLFormattedError =>
  formatted.message.startsWith('This operation has been blocked as a potential Cross-Site Request Forgery') ? { ...formatted, message: csrfMessage } : formatted;

/**
 * What a client sees of an error, for both transports (HTTP here, WebSocket in subscriptions.ts):
 * the service's own and the client's mistakes as they are, anything else logged and masked.
 */
export function formatGraphqlError(log: (error: unknown) => void): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  const format = formatInEnglish(log);
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const locale = currentLocale();
    // The service's own refusals, and a value the database refused (out of range, an impossible date): the input's fault.
    const known = toGraphqlError(unwrapResolverError(error), locale);
    if (known) {
      const { http: _status, ...extensions } = known.extensions;
      return { ...formatted, message: known.message, extensions };
    }
    const written = format(formatted, error);
    // Any other refusal of the table's (a limit, the budget, the mask) in the request's language; graphql-js's own
    // wording of a document it refuses (BAD_USER_INPUT, GRAPHQL_VALIDATION_FAILED) stays as it is (i18n.ts).
    const code = codeOfGraphql(written.extensions?.code);
    return code && locale !== DEFAULT_LOCALE ? { ...written, message: localizedMessage(locale, code) } : written;
  };
}

function formatInEnglish(log: (error: unknown) => void): (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const code = formatted.extensions?.code as string | undefined;
    const badRequest = refusalGraphqlCode('bad_request');
    if (stackOverflow(error)) return { message: 'The document nests too deeply', extensions: { code: !code || code === 'INTERNAL_SERVER_ERROR' ? badRequest : code } };
    if (code && clientCodes.has(code)) return reworded(formatted);
    // Apollo's refusals of a malformed HTTP request carry a 4xx status and no code.
    const status = (error as GraphQLError | undefined)?.extensions?.http as { status?: number } | undefined;
    if ((!code || code === 'INTERNAL_SERVER_ERROR') && status?.status && status.status >= 400 && status.status < 500) return { message: formatted.message, extensions: { code: badRequest } };
    // graphql-js's own refusal of the operation (a subscription on a schema without them): no exception behind it, no field.
    if (error instanceof GraphQLError && !error.originalError && !error.path) return { message: formatted.message, locations: formatted.locations, extensions: { code: badRequest } };
    // Anything else may carry SQL text or internals: log it, show a mask.
    log(original);
    const masked = errorReply('graphql', { code: 'internal' });
    return { message: masked.message, locations: formatted.locations, path: formatted.path, extensions: masked.extensions };
  };
}

export function createApollo(
  schema: GraphQLSchema,
  execute: Executor,
  log: (error: unknown) => void,
  persisted: PersistedQueryCache,
  limitOverrides?: Partial<GraphqlLimits>,
  playgroundToken?: string,
  /** More plugins (subscriptions.ts: closes the WebSocket server when Apollo stops, refuses subscriptions over HTTP). */
  plugins: ApolloServerPlugin<Context>[] = [],
  /** The lists' sizes from the database's statistics, for the static cost (none: the constants). */
  bounds?: ListBounds,
): ApolloServer<Context> {
  const limits = resolveLimits(limitOverrides);
  return new ApolloServer<Context>({
    // The schema as it is, every operation run compiled (executor.ts).
    gateway: localGateway(schema, execute),
    // httpStatusPlugin last: it reads the errors as the limits plugin leaves them.
    // No HTTP cache hints are sent (every reply depends on the credential): the cache-control plugin only costs time.
    plugins: [ApolloServerPluginCacheControlDisabled(), playground(playgroundToken), inputGuard, limitsPlugin(limits, bounds), ...plugins, httpStatusPlugin(persisted)],
    // The parser stops at the token limit; limits.ts switches introspection (Apollo's refusal names the engine).
    parseOptions: { maxTokens: limits.maxTokens },
    // main.ts owns SIGTERM and SIGINT: it lets requests in flight finish before Apollo stops.
    stopOnTerminationSignals: false,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Automatic persisted queries, in PostgreSQL so that every instance shares them.
    persistedQueries: { cache: persisted, ttl: APQ_TTL_SECONDS },
    csrfPrevention: { requestHeaders: preflightHeaders },
    formatError: formatGraphqlError(log),
  });
}
