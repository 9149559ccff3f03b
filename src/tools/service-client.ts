import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ConfigurationError } from '../config.js';
import { embeddedOwner } from '../db/embedded-lock.js';

/**
 * How the command-line tools (seed, token) reach the service's API: in process through Fastify's
 * inject when they own the database, or over HTTP to the service that runs on it.
 */
export interface GraphQLReply {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}
export type SendGraphQL = (token: string, body: { query: string; variables?: Record<string, unknown> }, schoolId?: number) => Promise<GraphQLReply>;

const headersFor = (token: string, schoolId?: number): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
  ...(schoolId ? { 'x-school-id': String(schoolId) } : {}),
});

export function inProcess(app: FastifyInstance): SendGraphQL {
  return async (token, body, schoolId) => {
    const reply = await app.inject({ method: 'POST', url: '/graphql', headers: headersFor(token, schoolId), payload: body });
    return reply.json() as GraphQLReply;
  };
}

export function overHttp(baseUrl: string): SendGraphQL {
  return async (token, body, schoolId) => {
    let reply: Response;
    for (;;) {
      try {
        reply = await fetch(new URL('/graphql', baseUrl), { method: 'POST', headers: headersFor(token, schoolId), body: JSON.stringify(body) });
      } catch (error) {
        throw new ConfigurationError(`the service at ${baseUrl} did not answer (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`);
      }
      // A long run of writes may meet the service's rate limit: wait as it says, then go on.
      if (reply.status !== 429) break;
      await reply.body?.cancel();
      await new Promise((done) => setTimeout(done, 1000 * Math.min(Number(reply.headers.get('retry-after')) || 1, 30)));
    }
    if (!/json/.test(reply.headers.get('content-type') ?? '')) throw new ConfigurationError(`the service at ${baseUrl} answered ${reply.status} without JSON`);
    return (await reply.json()) as GraphQLReply;
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
    throw new ConfigurationError(`the service (pid ${owner.pid}) holds the embedded database in ${dataDir} and is still starting: run this again in a moment`);
  return { pid: owner.pid, url: owner.url, token: readFileSync(tokenFile, 'utf8').trim() };
}
