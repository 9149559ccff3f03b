import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { embeddedOwner } from '../db/embedded-lock.js';
import { CommandError, errorLine } from './cli.js';

/**
 * How the command-line tools (seed, token) reach the service's API: in process through Fastify's
 * inject when they own the database, or over HTTP to the service that runs on it.
 */
export interface GraphQLReply {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  /** In process: the error the service logged behind an INTERNAL_SERVER_ERROR (a client sees only the mask). */
  cause?: string;
  /** Over HTTP: the request's id, under which the service logged that error. */
  requestId?: string;
}
export type SendGraphQL = (token: string, body: { query: string; variables?: Record<string, unknown> }, schoolId?: number) => Promise<GraphQLReply>;

const headersFor = (token: string, schoolId?: number): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  ...(schoolId ? { 'x-school-id': String(schoolId) } : {}),
});

/** A reply's first error as one line: what the tool can know of its cause, else the code and message a client sees. */
export function firstError(reply: GraphQLReply): string {
  const e = reply.errors![0];
  const code = e.extensions?.code ?? 'error';
  if (code !== 'INTERNAL_SERVER_ERROR') return `${code}: ${e.message}`;
  if (reply.cause) return reply.cause;
  return `${code}: ${e.message}${reply.requestId ? ` (the service logged the cause under request ${reply.requestId})` : ''}`;
}

/**
 * A log stream for an app the tool runs in process (createApp's `logStream`): it keeps the last
 * error logged, as one line, so a masked INTERNAL_SERVER_ERROR can be told with its cause.
 */
export function errorLog(): { write(line: string): void; take(): string | undefined } {
  let last: string | undefined;
  return {
    write(line) {
      const entry = JSON.parse(line) as { level: number; err?: Parameters<typeof errorLine>[0] };
      if (entry.level >= 50 && entry.err) last = errorLine(entry.err);
    },
    take() {
      const line = last;
      last = undefined;
      return line;
    },
  };
}

/** Calls `app` through Fastify's inject; with its `errors` log, an internal error's reply carries its cause. */
export function inProcess(app: FastifyInstance, errors?: ReturnType<typeof errorLog>): SendGraphQL {
  return async (token, body, schoolId) => {
    errors?.take();
    const reply = await app.inject({ method: 'POST', url: '/graphql', headers: headersFor(token, schoolId), payload: body });
    return { ...(reply.json() as GraphQLReply), cause: errors?.take() };
  };
}

export function overHttp(baseUrl: string): SendGraphQL {
  return async (token, body, schoolId) => {
    let reply: Response;
    for (;;) {
      try {
        reply = await fetch(new URL('/graphql', baseUrl), { method: 'POST', headers: headersFor(token, schoolId), body: JSON.stringify(body) });
      } catch (error) {
        throw new CommandError(`the service at ${baseUrl} did not answer (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`);
      }
      // A long run of writes may meet the service's rate limit: wait as it says, then go on.
      if (reply.status !== 429) break;
      await reply.body?.cancel();
      await new Promise((done) => setTimeout(done, 1000 * Math.min(Number(reply.headers.get('retry-after')) || 1, 30)));
    }
    if (!/json/.test(reply.headers.get('content-type') ?? '')) throw new CommandError(`the service at ${baseUrl} answered ${reply.status} without JSON`);
    return { ...((await reply.json()) as GraphQLReply), requestId: reply.headers.get('x-request-id') ?? undefined };
  };
}

/**
 * The service running on the embedded database in `dataDir`, with the development platform token
 * it keeps there; null when none runs. Both files are the service's own (server.ts writes them).
 */
export function runningEmbeddedService(dataDir: string): { pid: number; url: string; token: string } | null {
  const owner = embeddedOwner(dataDir);
  if (!owner) return null;
  const tokenFile = join(dataDir, 'dev-token.txt');
  if (!owner.url || !existsSync(tokenFile))
    throw new CommandError(`the service (pid ${owner.pid}) holds the embedded database in ${dataDir} and is still starting: run this again in a moment`);
  return { pid: owner.pid, url: owner.url, token: readFileSync(tokenFile, 'utf8').trim() };
}
