import fastifyApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';

/**
 * `GET /docs`: a browsable reference of the REST layer (Scalar), reading the document that
 * `GET /openapi.json` serves (rest/openapi-route.ts). It works with no internet: the plugin serves
 * its own bundle at `/docs/js/scalar.js`, and everything that would reach out is off (web fonts,
 * telemetry, Scalar's proxy, AI agent and developer tools). The page's CSP is made from the page in
 * http/security.ts: its inline script by hash, scripts and requests from this origin only.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
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
}
