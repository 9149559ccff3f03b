import { causeChain } from '../errors/app-error.js';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';
import { config } from '../config.js';

/**
 * What request and error logs may show. No token, password, key, secret or personal value may
 * reach a log line: URLs are logged with sensitive query and path values masked, headers not at
 * all, and errors (a failed statement carries its SQL and parameters) as their type, SQLSTATE, the
 * names of the constraint, table and column, and a message cut before any value.
 */

/**
 * Words that make a query parameter sensitive, wherever they stand in its name (`token`,
 * `access_token`, `school[crm_token]`, `apiKey`, `client-secret`): the name is split into words at
 * brackets, `_`, `-`, `.` and camelCase, and any of its words in this list masks the value.
 */
export const SENSITIVE_QUERY_WORDS = [
  // credentials
  'token', 'password', 'passwd', 'pass', 'secret', 'key', 'apikey', 'credential', 'credentials',
  'authorization', 'auth', 'bearer', 'jwt', 'session', 'cookie', 'signature', 'sig', 'otp', 'pin',
  'code', 'hash',
  // personal data
  'email', 'mail', 'document', 'cpf', 'cnpj', 'phone',
  // GraphQL over GET: the document and its variables carry any of the above as values
  'query', 'variables', 'extensions',
];
const sensitiveWords = new Set(SENSITIVE_QUERY_WORDS);

/** Shapes of secrets and personal values that must not survive in an error message or stack. */
const secretShapes: [RegExp, string][] = [
  [/lp_[a-z]+_[A-Za-z0-9_-]{8,}/g, '[token]'],
  [/\$argon2[a-z]*\$[^\s"',]*/g, '[hash]'],
  [/scrypt\$[^\s"',]*/g, '[hash]'],
  [/\b(Bearer|Token)\s+[^\s"',]+/gi, '$1 [redacted]'],
  // An e-mail address, also percent-encoded in a URL (`ana%40example.com`).
  [/[^\s"'<>(),;:@&=?/]+(?:@|%40)[^\s"'<>(),;:@&=?/]+\.[a-z]{2,}/gi, '[email]'],
];
const scrub = (text: string) => secretShapes.reduce((t, [shape, mask]) => t.replace(shape, mask), text);

/** Whether a query parameter's name (bracket names included) holds a sensitive word. */
export function isSensitiveName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // a malformed escape: judge the raw name
  }
  const words = decoded
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => sensitiveWords.has(w));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The positions of the route's path segments that hold a secret (set by rest/router.ts). */
    secretSegments?: readonly number[];
  }
}

/**
 * The path with the segments at `secret` positions masked (a certificate's code, which reveals its
 * holder's name). Segments are counted as the router counts them: empty ones (duplicate and
 * trailing slashes) are not.
 */
function maskedPath(path: string, secret: readonly number[] | undefined): string {
  if (!secret?.length) return path;
  return '/' + path.split('/').filter(Boolean).map((segment, i) => (secret.includes(i) ? '[redacted]' : segment)).join('/');
}

/**
 * A URL as logs show it: the value of every sensitive query parameter and the path segments its
 * route holds secret (`secretSegments`) replaced by `[redacted]`, and anything shaped like a
 * token, hash or e-mail address masked wherever it stands.
 */
export function loggedUrl(url: string, secretSegments?: readonly number[]): string {
  const q = url.indexOf('?');
  if (q === -1) return scrub(maskedPath(url, secretSegments));
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash === -1 ? undefined : hash);
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      return isSensitiveName(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return scrub(maskedPath(url.slice(0, q), secretSegments) + '?' + masked + (hash === -1 ? '' : url.slice(hash)));
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** A database error: it has a SQLSTATE, or carries its statement (drizzle's `query`/`params`, postgres.js' `parameters`). */
function isDatabaseError(error: any): boolean {
  return (typeof error.code === 'string' && SQLSTATE.test(error.code)) || 'query' in error || 'params' in error || 'parameters' in error;
}

/**
 * A message safe to log. A database message ends with the value it choked on
 * (`invalid input syntax for type integer: "x"`), and drizzle's names the statement and its
 * parameters (`Failed query: ... params: ...`): keep what stands before the first colon, and no
 * quoted value.
 */
function safeMessage(error: any): string {
  const message = String(error?.message ?? '');
  if (!isDatabaseError(error)) return scrub(message);
  return scrub(message.split(':')[0].replace(/value "[^"]*"/g, 'value [redacted]').trim());
}

/** The stack's frames only: its first lines repeat the message, which may carry the statement. */
function frames(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const at = stack.indexOf('\n    at ');
  return at === -1 ? undefined : scrub(stack.slice(at + 1));
}

export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  stack?: string;
  cause?: LoggedError;
}

/** An error as logs show it: its cause chain, each link with no statement, parameter, detail or value. */
export function loggedError(error: unknown): LoggedError {
  // The error and at most five causes (errors/app-error.ts' one bounded walk), each linked to the next.
  const links = [...causeChain(error, { max: 6 })].map(loggedLink);
  if (!links.length) return loggedLink(error);
  for (let i = links.length - 2; i >= 0; i--) links[i].cause = links[i + 1];
  return links[0];
}

/** One link of a cause chain, without its cause. */
function loggedLink(error: unknown): LoggedError {
  if (!error || typeof error !== 'object') return { type: typeof error, message: scrub(String(error)) };
  const e = error as any;
  // drizzle's DrizzleQueryError keeps Error's name: its class says more.
  const type = e.name && e.name !== 'Error' ? e.name : (e.constructor?.name ?? 'Error');
  const out: LoggedError = { type: String(type), message: safeMessage(e) };
  if (typeof e.code === 'string') out.code = e.code;
  const constraint = e.constraint_name ?? e.constraint;
  const table = e.table_name ?? e.table;
  const column = e.column_name ?? e.column;
  if (typeof constraint === 'string') out.constraint = constraint;
  if (typeof table === 'string') out.table = table;
  if (typeof column === 'string') out.column = column;
  const stack = frames(e.stack);
  if (stack) out.stack = stack;
  return out;
}

/** The request as logs show it: no header (authorization, cookie), no body, the URL masked. */
function loggedRequest(req: FastifyRequest) {
  return { method: req.method, url: loggedUrl(req.url, req.routeOptions?.config?.secretSegments), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

/** A destination of log lines: anything with `write` (tests collect the lines in an array). */
export interface LogStream {
  write(line: string): void;
}

/**
 * stdout as the destination of log lines, never pino's default (sonic-boom): that one flushes what
 * it holds synchronously at exit and retries a write that failed with EPIPE every 100 ms for ever,
 * so a service whose log reader had gone (a closed terminal, a crashed log shipper, a parent that
 * exited) stopped listening and never exited, its main thread asleep in that loop, deaf to
 * SIGTERM and to its own shutdown timer (issue 24). process.stdout never blocks: a stalled reader's
 * lines wait in memory, and what waits at exit is dropped. A reader that has gone (EPIPE) ends
 * logging, never the process.
 */
const stdoutLines: LogStream = {
  write: (line) => void (process.stdout.writable && process.stdout.write(line)),
};
let pipesGuarded = false;
function ignoreBrokenPipes() {
  if (pipesGuarded) return;
  pipesGuarded = true;
  // Any other error stays as fatal as it is without a listener.
  const ignoreEpipe = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  };
  process.stdout.on('error', ignoreEpipe);
  process.stderr.on('error', ignoreEpipe);
}

/** A logger with the serializers above: JSON lines on stdout unless given a stream; headers redacted should anything log them whole. */
export function createLogger(options: { stream?: LogStream; level?: 'info' | 'warn' } = {}): Logger {
  if (!options.stream) ignoreBrokenPipes();
  return pino(
    {
      level: options.level ?? 'info',
      serializers: { req: loggedRequest as never, err: loggedError, error: loggedError },
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    options.stream ?? stdoutLines,
  );
}

let processLogger: Logger | undefined;

/**
 * The process's one logger, made on first use (after the settings are checked). Errors are always
 * logged, as JSON; with LOG_REQUESTS on it also takes requests and everything the service says.
 */
export function serviceLogger(): Logger {
  return (processLogger ??= createLogger({ level: config.logRequests ? 'info' : 'warn' }));
}

/**
 * What the service tells whoever runs it (listening, its token, a warning, stopping): with
 * LOG_REQUESTS on, log lines like every other line; off, plain lines for a person.
 */
export const say = {
  info: (message: string) => (config.logRequests ? serviceLogger().info(message) : console.log(message)),
  warn: (message: string) => (config.logRequests ? serviceLogger().warn(message) : console.warn(message)),
};

/** What an error is, for telling one failure from another: its cause chain's types, codes and messages. */
const causeKey = (e: LoggedError | undefined): string => (e ? `${e.type}:${e.code ?? ''}:${e.message}|${causeKey(e.cause)}` : '');

/**
 * Logs the failures of work that runs again on its own (a timer's, the webhook worker's): a failure
 * once, then the same failure (same message, same cause) at most once per `everyMs` with
 * `repeated`, how many times it happened since its last line. A database that has gone fails the
 * webhook worker every second: one line a minute says as much as sixty.
 */
export function repeatedFailures(logger: Pick<Logger, 'error'>, everyMs = 60_000, now = Date.now) {
  const last = new Map<string, { at: number; repeated: number }>();
  return (message: string, error: unknown): void => {
    const key = `${message}|${causeKey(loggedError(error))}`;
    const seen = last.get(key);
    if (seen && now() - seen.at < everyMs) {
      seen.repeated += 1;
      return;
    }
    if (last.size > 100) last.clear(); // distinct failures are few; never let them grow without bound
    last.set(key, { at: now(), repeated: 0 });
    logger.error({ err: error, ...(seen?.repeated ? { repeated: seen.repeated } : {}) }, message);
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogFn = (...args: unknown[]) => void;

/**
 * A request's logger whose request-id binding is made on its first line. Fastify makes a child
 * logger for every request, and pino serialises its bindings at once: a cost on every request,
 * while most requests never write a line (none at all with LOG_REQUESTS off). A level the parent
 * does not log is skipped without making the child.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Record<string, unknown>,
    private readonly options: object,
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }
  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made.level = level;
  }
  private write(level: Level, args: unknown[]): void {
    if (!this.#child && (this.parent as Partial<Logger>).isLevelEnabled?.(level) === false) return;
    (this.made[level] as LogFn)(...args);
  }
  fatal(...args: unknown[]) {
    this.write('fatal', args);
  }
  error(...args: unknown[]) {
    this.write('error', args);
  }
  warn(...args: unknown[]) {
    this.write('warn', args);
  }
  info(...args: unknown[]) {
    this.write('info', args);
  }
  debug(...args: unknown[]) {
    this.write('debug', args);
  }
  trace(...args: unknown[]) {
    this.write('trace', args);
  }
  silent(): void {}
  child(bindings: Record<string, unknown>, options?: object): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger is a LazyChildLogger. */
export const lazyRequestLogger = (logger: FastifyBaseLogger, bindings: Record<string, unknown>, options: object): FastifyBaseLogger =>
  new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
