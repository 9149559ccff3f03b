import 'reflect-metadata';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { GraphQLError } from 'graphql';
import qs from 'qs';
import type { Database } from './db/client.js';
import { createApollo } from './graphql/apollo.js';
import type { Context } from './graphql/context.js';
import { AppError, raisedErrors } from './graphql/errors.js';
import { anonymousContext, contextFor, type ContextDeps } from './graphql/request-context.js';
import { appSchema } from './graphql/schema.js';
import { routes } from './modules/index.js';
import { QS_OPTIONS } from './rest/get-body.js';
import { baseError, errorBody } from './rest/reply.js';
import { registerOpenApiRoute } from './rest/openapi-route.js';
import { registerRestRoutes } from './rest/router.js';

export interface AppOptions {
  database: Database;
  /** The service's clock (tests move it). */
  now?: () => Date;
  logger?: boolean;
  /** Where the logger writes (stdout by default). */
  logStream?: { write(line: string): void };
  bodyLimit?: number;
}


/** A URL as request logs show it: the values of credential-like query parameters (a SCORM launch's `token`) masked. */
export function loggedUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token)=)[^&#]*/gi, '$1[redacted]');
}

/** Strips what clients put around a route: `/api`, `/v1`, a `.json` suffix. */
export function normaliseUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  path = path.replace(/^\/api(?=\/|$)/, '').replace(/^\/v1(?=\/|$)/, '') || '/';
  path = path.replace(/\.json(\/?)$/, '$1');
  return path + query;
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const schema = await appSchema();
  const deps: ContextDeps = { db: options.database.db, now: options.now ?? (() => new Date()) };
  const app = Fastify({
    logger: options.logger
      ? {
          level: 'info',
          ...(options.logStream ? { stream: options.logStream } : {}),
          serializers: {
            req: (req) => ({ method: req.method, url: loggedUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
          },
        }
      : false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      querystringParser: (str) => qs.parse(str, QS_OPTIONS) as Record<string, unknown>,
    },
    rewriteUrl: (req) => normaliseUrl(req.url ?? '/'),
  });
  const log = (error: unknown) => app.log.error({ err: error }, 'unexpected error');

  // Bodies: JSON (also vendor +json types), urlencoded and multipart with bracket names.
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^application\/(?:[\w.+-]*\+)?json$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('bad_request', 'The body is not valid JSON'), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, qs.parse(String(body), QS_OPTIONS));
  });
  await app.register(fastifyMultipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: 10 * 1024 * 1024, files: 10, fields: 5000 },
  });
  // Multipart fields arrive flat (`media[title]`): expand the brackets like the urlencoded parser.
  app.addHook('preValidation', async (request) => {
    if (request.isMultipart() && request.body && typeof request.body === 'object') {
      request.body = qs.parse(request.body as Record<string, string>, QS_OPTIONS);
    }
  });

  const apollo = createApollo(schema, log);
  await apollo.start();
  app.addHook('onClose', () => apollo.stop());
  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/graphql',
    handler: fastifyApolloHandler(apollo, {
      context: async (request) => {
        try {
          return await contextFor(deps, request.headers);
        } catch (error) {
          if (error instanceof AppError) {
            throw new GraphQLError(error.message, {
              extensions: { code: error.extensions.code, http: { status: raisedErrors[error.code].http } },
            });
          }
          throw error;
        }
      },
    }),
  });

  registerRestRoutes(app, {
    schema,
    routes,
    context: (request, isPublic): Promise<Context> =>
      isPublic ? Promise.resolve(anonymousContext(deps)) : contextFor(deps, request.headers),
    log: (error) => log(error),
  });

  registerOpenApiRoute(app, schema, routes);
  app.get('/health', async () => ({ status: 'ok' }));

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(baseError('route_not_found', `No route matches ${request.method} ${request.url}`))),
  );
  app.setErrorHandler((error: any, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(raisedErrors[error.code].http).send(errorBody(baseError(error.code, error.message)));
    }
    const status: number = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.code === 'FST_REQ_FILE_TOO_LARGE' || status === 413)
      return reply.code(413).send(errorBody(baseError('payload_too_large', 'The body is too large')));
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.code(415).send(errorBody(baseError('unsupported_media_type', 'Send JSON, urlencoded or multipart bodies')));
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(baseError('bad_request', error.message)));
    log(error);
    return reply.code(500).send(errorBody(baseError('internal', 'Internal server error')));
  });
  return app;
}
