import module from 'node:module';
import cluster from 'node:cluster';
import { resolve } from 'node:path';
import { config, ConfigurationError } from './config.js';
import { say, serviceLogger } from './http/logging.js';
import { superviseWorkers } from './http/workers.js';
import { checkPort, checkSettings, configurationLine, migrateOnce, open } from './startup.js';

// Node 22 keeps the compiled code of every module on disk: the next start skips compiling it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/**
 * The process `npm start` runs. It checks the settings (one line, exit 1, for a mistake) and then
 * serves (server.ts), or with WEB_CONCURRENCY on PostgreSQL migrates the database once and starts
 * that many workers (http/workers.ts), each of which serves. The service itself is imported only
 * where it runs: a primary with workers stays a small supervisor.
 */
async function main() {
  if (cluster.isWorker) return serveHere();
  const warning = checkSettings();
  if (warning) say.warn(warning);
  await checkPort(config.port, config.host);
  if (config.processes === 1 || !config.databaseUrl) {
    if (config.processes > 1) say.warn('WEB_CONCURRENCY is for PostgreSQL (DATABASE_URL): the embedded database is served by one process');
    return serveHere();
  }
  await migrateOnce(resolve(config.dataDir ?? '.data'));
  say.info(`Starting ${config.processes} worker processes`);
  superviseWorkers(config.processes, { say, stopTimeoutMs: config.shutdownTimeoutMs });
}

/**
 * Serves in this process. On PostgreSQL the database is opened (connect, `select 1`) and, but in a
 * worker, migrated while the service's modules load (most of start-up's first second), rather than
 * after them: its round trips go out between the modules' files. The embedded database is opened by
 * serve, once it holds the data directory's lock.
 */
async function serveHere() {
  const server = import('./server.js');
  const database = config.databaseUrl
    ? open(resolve(config.dataDir ?? '.data')).then(async (opened) => {
        if (cluster.isPrimary) await opened.migrate();
        return opened;
      })
    : undefined;
  // serve awaits it: a database that cannot be reached is refused there, in its one line, not as an unhandled rejection meanwhile.
  database?.catch(() => {});
  return (await server).serve(database);
}

// A crash (an unhandled rejection too) is logged like any error, JSON without a statement, then ends the process as Node would.
process.on('uncaughtException', (error) => {
  serviceLogger().fatal({ err: error }, 'uncaught exception');
  process.exit(1);
});

main().catch((error) => {
  // A configuration mistake is one clear line; anything else is logged with its cause and stack
  // frames (never a statement: a failed migration's error carries one).
  if (error instanceof ConfigurationError) console.error(configurationLine(error));
  else serviceLogger().fatal({ err: error }, 'start-up failed');
  process.exit(1);
});
