import type { Reply } from './service.js';

/** What a request was, for a failure message (bodies cut short: some are a megabyte). */
export interface Sent {
  face: 'rest' | 'graphql';
  method: string;
  url: string;
  /** Whether it may write: a REST verb other than GET, a GraphQL mutation (or a body we cannot tell). */
  write: boolean;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

// Internals a reply must never show: stack frames, source paths, SQL, the names of the libraries underneath.
const LEAKS = /\bat [^\n"]*\.(?:ts|js):\d+|node_modules|\/src\/|\.ts:\d|drizzle|postgres|pglite|fastify|apollo|insert into|select [^"]{0,80} from|"stack"|Maximum call stack/i;

const isStringList = (v: unknown) => Array.isArray(v) && v.every((m) => typeof m === 'string');

/** Why a reply breaks the service's promises, or null when it keeps them. */
export function replyProblem(sent: Sent, res: Reply): string | null {
  if (res.status >= 500) return `answered ${res.status}`;
  const leak = LEAKS.exec(res.text);
  if (leak) return `leaks ${JSON.stringify(leak[0])}`;
  const type = String(res.headers['content-type'] ?? '');
  if (res.status === 204 || (sent.face === 'rest' && res.status < 400 && !/json/.test(type))) return null;
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    if (sent.face === 'graphql' && res.status === 200 && /html/.test(type)) return null; // the playground
    // A page for browsers (a REST row with a `page`: the unsubscribe link), asked for by Accept: text/html.
    if (sent.face === 'rest' && /html/.test(type) && /text\/html/.test(String(sent.headers?.accept ?? '')) && /^<!doctype html>/i.test(res.text)) return null;
    return `answered ${res.status} with a body that is not JSON`;
  }
  if (sent.face === 'rest') {
    if (res.status < 400) return null;
    const keys = Object.keys(body ?? {}).sort().join(',');
    if (keys !== 'details,errors') return `error body is not {errors, details}: keys ${keys}`;
    for (const [field, messages] of Object.entries(body.errors)) if (!isStringList(messages)) return `errors.${field} is not a list of strings`;
    for (const [field, details] of Object.entries(body.details))
      if (!Array.isArray(details) || !details.every((x: any) => typeof x?.error === 'string')) return `details.${field} is not a list of {error}`;
    return null;
  }
  if (res.status >= 400 && !Array.isArray(body?.errors)) return `GraphQL ${res.status} without an errors list`;
  if (body?.errors !== undefined) {
    if (!Array.isArray(body.errors) || !body.errors.length) return 'GraphQL errors is not a non-empty list';
    for (const e of body.errors) {
      if (typeof e?.message !== 'string' || typeof e?.extensions?.code !== 'string') return `GraphQL error without message and extensions.code: ${JSON.stringify(e).slice(0, 200)}`;
      if (e.extensions.code === 'INTERNAL_SERVER_ERROR') return `GraphQL INTERNAL_SERVER_ERROR at ${JSON.stringify(e.path)}`;
    }
  } else if (!body || typeof body !== 'object' || !('data' in body)) return 'GraphQL reply with neither data nor errors';
  return null;
}

/**
 * Refusals only a REST row gives (its credential, rule or record; a gateway callback's signature or
 * timestamp, judged by its handler); 422s and errors naming a field are the row's too.
 */
const ROW_REFUSALS = new Set(['unauthenticated', 'forbidden', 'not_found', 'conflict', 'invalid_signature', 'stale_timestamp']);

/**
 * Whether the REST row or GraphQL root field a request names answered it itself: a success, or a
 * refusal of its own. Not a routing miss, nor what the HTTP layer answers whatever the route (an
 * unparsable body's 400 on `base`, 406, 413, 415), nor a GraphQL document refused before the field
 * ran or judged its arguments (parse, validation, credential).
 */
export function answeredByTarget(sent: Sent, res: Reply): boolean {
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return res.status < 400;
  }
  if (sent.face === 'rest') {
    if (res.status < 400 || res.status === 422) return true;
    return Object.entries(body?.details ?? {}).some(([field, details]) => field !== 'base' || (details as { error: string }[]).some((d) => ROW_REFUSALS.has(d?.error)));
  }
  return body?.data !== undefined || (Array.isArray(body?.errors) && body.errors.some((e: any) => e?.extensions?.code === 'BAD_USER_INPUT'));
}

/** Whether the service refused the request: an error status, GraphQL errors, or a payload's UserErrors. */
export function refused(sent: Sent, res: Reply): boolean {
  if (res.status >= 400) return true;
  if (sent.face === 'rest') return false;
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return true;
  }
  if (body?.errors?.length) return true;
  return Object.values(body?.data ?? {}).some((v: any) => Array.isArray(v?.errors) && v.errors.length > 0);
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

export function describeFailure(problem: string, sent: Sent, res: Reply): string {
  const body = sent.body === undefined ? '' : Buffer.isBuffer(sent.body) ? sent.body.toString('latin1') : sent.body;
  return [
    `${problem}`,
    `request: ${sent.method} ${cut(sent.url, 300)} ${JSON.stringify(sent.headers ?? {})}`,
    `body: ${cut(JSON.stringify(body), 1200)}`,
    `reply: ${res.status} ${cut(res.text, 1200)}`,
  ].join('\n');
}
