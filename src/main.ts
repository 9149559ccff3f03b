import module from 'node:module';
import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { config, ConfigurationError } from './config.js';
import { superviseWorkers } from './http/workers.js';
import { checkPort, checkSettings, configurationLine, migrateOnce } from './startup.js';

// Node 22 keeps the compiled code of every module on disk: the next start skips compiling it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/**
 * The process `npm start` runs. It checks the settings (one line, exit 1, for a mistake) and then
 * serves (server.ts), or with WEB_CONCURRENCY on PostgreSQL migrates the database once and starts
 * that many workers (http/workers.ts), each of which serves. The service itself is imported only
 * where it runs: a primary with workers stays a small supervisor.
 */
async function main() {
  if (cluster.isWorker) return (await import('./server.js')).serve();
  const warning = checkSettings();
  if (warning) console.warn(warning);
  await checkPort(config.port, config.host);
  if (config.processes === 1 || !config.databaseUrl) {
    if (config.processes > 1) console.warn('WEB_CONCURRENCY is for PostgreSQL (DATABASE_URL): the embedded database is served by one process');
    return (await import('./server.js')).serve();
  }
  await migrateOnce(resolve(config.dataDir ?? '.data'));
  console.log(`Starting ${config.processes} worker processes`);
  superviseWorkers(config.processes, { say: (line) => console.log(line), stopTimeoutMs: config.shutdownTimeoutMs });
}

main().catch((error) => {
  // A configuration mistake is one clear line; anything else keeps its stack for the operator.
  console.error(error instanceof ConfigurationError ? configurationLine(error) : error);
  process.exit(1);
});
