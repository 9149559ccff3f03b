import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { config, ConfigurationError } from '../config.js';

/**
 * Security headers on every reply (helmet) and CORS for the origins the operator allows.
 *
 * - Replies are data: they carry what OWASP's REST cheat sheet asks of an API and nothing meant for
 *   pages (a Content-Security-Policy that renders nothing and lets no one frame them, nosniff,
 *   X-Frame-Options DENY, HSTS): about 200 bytes, not the 450 of helmet's whole set on every reply.
 * - The HTML pages (the playground, /docs, the unsubscribe page) get helmet's whole set besides.
 * - The HTML pages (the GraphQL playground, the /docs reference) get a policy of their own built from
 *   the page: its inline scripts by their SHA-256 hashes (and this origin's, for a page that loads a bundle), inline styles, data: fonts and images, blob:
 *   workers (the editor's), and requests to this origin only. Nothing is loaded from elsewhere.
 * - CORS: no origin may call the service from a browser page unless CORS_ORIGINS names it
 *   (`*` for any: the credential is a bearer token, never a cookie, so no credentials mode).
 *   Preflights are answered 204 for every path; an origin not allowed gets no
 *   `Access-Control-Allow-Origin`, so the browser refuses.
 */

const API_DIRECTIVES = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"] };
/** The header as helmet writes it. */
export const API_CONTENT_SECURITY_POLICY = Object.entries(API_DIRECTIVES)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join(';');
/**
 * A file a browser shows in its own viewer (a certificate's PDF): Chrome draws a PDF inside a page it
 * makes, which the API's policy would leave blank (its inline styles, its plugin object). Nothing of
 * the file's own may run or load.
 */
export const FILE_CONTENT_SECURITY_POLICY = "default-src 'none';object-src 'self';style-src 'unsafe-inline';frame-ancestors 'self';base-uri 'none';form-action 'none'";
const HELMET_OPTIONS = { contentSecurityPolicy: { useDefaults: false, directives: API_DIRECTIVES } };

/** What a browser page of an allowed origin may send and read. */
const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'X-School-Id', 'X-Request-Id', 'Apollo-Require-Preflight', 'X-Apollo-Operation-Name'];
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const CORS_EXPOSED_HEADERS = ['Location', 'Link', 'X-Total-Count', 'X-Page', 'X-Per-Page', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** The policy of an HTML page of this service: its own inline scripts, by hash, and nothing from elsewhere. */
export function pagePolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
  // A page that loads its bundle from this service (the /docs reference) may run scripts of this origin.
  const own = /<script[^>]*\bsrc=["'](?![a-z]+:|\/\/)/i.test(html) ? ["'self'"] : [];
  return [
    "default-src 'none'",
    `script-src ${[...own, ...hashes].join(' ') || "'none'"}`,
    // The editor sets style attributes and adds style elements as it runs.
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join(';');
}

/** CORS_ORIGINS entries: `*`, or origins (`https://app.example.com`, `http://localhost:3000`). */
export function parseCorsOrigins(entries: readonly string[]): '*' | string[] {
  if (entries.includes('*')) return '*';
  return entries.map((entry) => {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      // reported below
    }
    if (!origin || origin === 'null' || origin !== entry.replace(/\/$/, '')) {
      throw new ConfigurationError(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port], no path)`);
    }
    return origin;
  });
}

/** The headers every reply carries (OWASP REST Security cheat sheet, "Security headers"): a JSON reply needs no more. */
const API_HEADERS: [string, string][] = [
  ['content-security-policy', API_CONTENT_SECURITY_POLICY],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];
const apiHeaderNames = new Set(API_HEADERS.map(([name]) => name));
/** What helmet adds for a page (cross-origin isolation, referrer, legacy browser switches), read once from helmet itself. */
let pageHeaders: Record<string, string> = {};
const notHelmets = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
async function readPageHeaders(): Promise<Record<string, string>> {
  // helmet run once over a reply that only records what it sets: these are the headers it would
  // set on a page, read without a server.
  const set: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (set[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete set[name.toLowerCase()],
  };
  const middleware = helmet(HELMET_OPTIONS) as unknown as (req: unknown, res: unknown, next: (error?: unknown) => void) => void;
  await new Promise<void>((done, fail) => middleware({}, res, (error) => (error ? fail(error) : done())));
  return Object.fromEntries(Object.entries(set).filter(([name]) => !notHelmets.has(name) && !apiHeaderNames.has(name)));
}

type FrameworkErrorHandler = (error: any, request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Fastify answers some malformed URLs (a bad escape, a path segment too long) through its
 * `frameworkErrors` handler, before any hook runs: wrapped, its replies carry the same headers.
 */
export function withSecurityHeaders<H extends FrameworkErrorHandler>(handler: H): H {
  return ((error, request, reply) => {
    for (const [name, value] of API_HEADERS) reply.header(name, value);
    return handler(error, request, reply);
  }) as H;
}

/**
 * The CORS policy, decided once: the service's is fixed (its methods, headers and exposed headers
 * never change; the origins are CORS_ORIGINS), so a request pays a lookup, not a plugin's options
 * merged per request. A reply names an origin only when that origin is allowed, and only then
 * exposes headers (a browser reads nothing of a reply that does not name its origin). `Vary: Origin`
 * goes on every reply when the answer depends on the origin (a list of origins), so a cache never
 * hands one origin's reply to another; with `*` every reply says `*`, and with no origins none names one.
 */
function corsPolicy(origins: '*' | string[]) {
  const allowed = new Set(origins === '*' ? [] : origins);
  const exposed = CORS_EXPOSED_HEADERS.join(', ');
  return {
    /** Every reply: `*`, or Vary when the origins are a list. */
    always: origins === '*' ? { 'access-control-allow-origin': '*' } : allowed.size ? { vary: 'Origin' } : undefined,
    /** The headers naming a request's origin, or undefined when it is not allowed. */
    named: (origin: string | undefined) =>
      origin === undefined || !(origins === '*' || allowed.has(origin))
        ? undefined
        : { 'access-control-allow-origin': origins === '*' ? '*' : origin, 'access-control-expose-headers': exposed },
    preflight: {
      'access-control-allow-methods': CORS_METHODS.join(', '),
      'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
      'access-control-max-age': '600',
    },
  };
}

/**
 * One hook before any other: the API's security headers and CORS on every reply; a preflight
 * (any OPTIONS request: a bare one, without Origin, too) is answered 204 here, before the rate
 * limit and any credential check, for every path.
 */
export async function registerSecurity(app: FastifyInstance, options: { corsOrigins?: readonly string[] } = {}): Promise<void> {
  const cors = corsPolicy(parseCorsOrigins(options.corsOrigins ?? config.corsOrigins));
  if (!Object.keys(pageHeaders).length) pageHeaders = await readPageHeaders();
  // The same on every reply: set from one object, without running helmet per request.
  const headers = { ...Object.fromEntries(API_HEADERS), ...cors.always };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    const named = cors.named(request.headers.origin);
    if (named) reply.headers(named);
    if (request.method !== 'OPTIONS') return done();
    reply.code(204).headers(cors.preflight).send();
  });
  // OPTIONS is routed for every path, so the hook above answers it rather than a 404.
  app.options('*', (_request, reply) => reply.code(204).send());

  // The playground page is rendered once per process: hash it once.
  let lastPage: { html: string; policy: string } | undefined;
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (typeof payload === 'string' && /^text\/html/i.test(String(reply.getHeader('content-type') ?? ''))) {
      if (lastPage?.html !== payload) lastPage = { html: payload, policy: pagePolicy(payload) };
      // A page of this service may frame itself (the reference's panes); nothing else may.
      reply.headers({ ...pageHeaders, 'content-security-policy': lastPage.policy, 'x-frame-options': 'SAMEORIGIN' });
    }
    done(null, payload);
  });
}
