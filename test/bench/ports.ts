import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';

/** A loopback port nothing listens on now (the benchmarks' targets start on one). */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

/**
 * The environment a benchmark starts the service with: production, its own database and port, no
 * request logs, one process unless told, the rate limit off unless given (`rateLimit`: its settings,
 * e.g. npm run bench's buckets sized not to refuse).
 */
export function serviceEnv(databaseUrl: string, port: number, secretsKey: string, processes = 1, rateLimit?: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: secretsKey,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_REQUESTS: 'false',
    RATE_LIMIT_ENABLED: 'false',
    WEB_CONCURRENCY: String(processes),
    ...(rateLimit ? { RATE_LIMIT_ENABLED: 'true', ...rateLimit } : {}),
  };
}

/**
 * The node flags `npm start` runs the service with (package.json's start script: its bounded heap),
 * so a benchmark measures the process a deployment runs; `override` (a benchmark's *_NODE_ARGS) replaces them.
 */
export function serviceNodeArgs(override?: string): string[] {
  if (override !== undefined && override !== '') return override.split(' ').filter(Boolean);
  return startScript().filter((word) => word.startsWith('--'));
}

/** The file `npm start` runs (package.json's start script: the bundle, dist/bundle/main.js), relative to the repository's root. */
export function serviceEntry(): string {
  return startScript().filter((word) => word.endsWith('.js')).at(-1)!;
}

function startScript(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(' ');
}
