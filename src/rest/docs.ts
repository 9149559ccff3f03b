import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The reply headers of the reference's own app that a forwarded reply keeps (the outer app sets the rest). */
const FORWARDED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location'];

/**
 * The Scalar plugin with its options, on an app of its own. It is loaded on the first request to
 * `/docs`, not at start-up: its bundle is several megabytes of module source, which would cost every
 * instance about a second of start-up and 50 MB of memory for a page few requests ask for.
 */
async function referenceApp(): Promise<FastifyInstance> {
  const [{ default: Fastify }, { default: fastifyApiReference }] = await Promise.all([import('fastify'), import('@scalar/fastify-api-reference')]);
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  await app.register(fastifyApiReference, {
    routePrefix: '/docs',
    logLevel: 'warn',
    configuration: {
      url: '/openapi.json',
      pageTitle: 'Learning platform REST API',
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      // "Ask AI" talks to Scalar's cloud: not from a service's own reference.
      agent: { disabled: true },
      // Try-it requests go straight to this origin, never through proxy.scalar.com.
      proxyUrl: undefined,
    },
  });
  await app.ready();
  return app;
}

/**
 * `GET /docs`: a browsable reference of the REST layer (Scalar), reading the document that
 * `GET /openapi.json` serves (rest/openapi-route.ts). It works with no internet: the plugin serves
 * its own bundle at `/docs/js/scalar.js`, and everything that would reach out is off (web fonts,
 * telemetry, Scalar's proxy, AI agent and developer tools). The page's CSP is made from the page in
 * http/security.ts: its inline script by hash, scripts and requests from this origin only.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  let reference: Promise<FastifyInstance> | undefined;
  app.addHook('onClose', async () => {
    if (reference) await (await reference).close();
  });
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    reference ??= referenceApp().catch((error) => {
      reference = undefined;
      throw error;
    });
    const inner = await (await reference).inject({
      method: 'GET',
      url: request.url,
      headers: request.headers['if-none-match'] ? { 'if-none-match': request.headers['if-none-match'] } : {},
    });
    reply.code(inner.statusCode);
    for (const name of FORWARDED_HEADERS) if (inner.headers[name] !== undefined) reply.header(name, inner.headers[name]);
    return /^text\//.test(String(inner.headers['content-type'] ?? '')) ? inner.body : inner.rawPayload;
  };
  app.get('/docs', { logLevel: 'warn' }, forward);
  app.get('/docs/*', { logLevel: 'warn' }, forward);
}
