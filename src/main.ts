import 'reflect-metadata';
import cluster from 'node:cluster';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from './app.js';
import { findCredential, issueToken } from './auth/credential.js';
import { checkSecretsKey } from './auth/secrets.js';
import { config, ConfigurationError, validateEnvironment } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { holdEmbedded } from './db/embedded-lock.js';
import { superviseWorkers } from './http/workers.js';
import { PRUNE_INTERVAL_MS, pruneEvents } from './modules/events/prune.js';
import { EXPIRY_SWEEP_INTERVAL_MS, sweepExpiredEnrollments } from './modules/progress/expiry.js';
import { startWebhookWorker } from './modules/webhooks/index.js';

/** How long a stop waits for requests in flight before it gives up on them. */
const SHUTDOWN_TIMEOUT_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000);

/**
 * On the embedded database, a development platform token is kept in the data directory and
 * printed at start-up, so a new user can call the service at once. Never on PostgreSQL.
 */
async function developmentToken(database: Database, dataDir: string): Promise<string> {
  const file = join(dataDir, 'dev-token.txt');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved && (await findCredential(database.db, saved))) return saved;
  }
  const token = await issueToken(database.db, { role: 'platform', label: 'development' });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, token + '\n', { mode: 0o600 });
  return token;
}

/** A taken or forbidden port fails at once, before the database is opened and migrated. */
async function checkPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((done, fail) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      fail(new ConfigurationError(`PORT ${port} on ${host} cannot be used (${error.code === 'EADDRINUSE' ? 'another process listens there' : error.code})`)),
    );
    probe.listen(port, host, () => probe.close(() => done()));
  });
}

async function open(dataDir: string): Promise<Database> {
  if (!config.databaseUrl) return openDatabase({ dataDir });
  const database = await openDatabase({ url: config.databaseUrl, maxConnections: config.maxConnections, prepare: config.prepareStatements });
  try {
    await database.db.execute(sql`select 1`);
  } catch (error) {
    await database.close().catch(() => {});
    // drizzle wraps the driver's error: its cause says why (ECONNREFUSED, a password refused, ...).
    const cause = ((error as Error).cause ?? error) as NodeJS.ErrnoException;
    const reason = cause.code ?? cause.message.split('\n')[0];
    throw new ConfigurationError(`DATABASE_URL names a database that cannot be reached (${reason})`);
  }
  return database;
}

/**
 * WEB_CONCURRENCY processes on PostgreSQL: the primary checks the settings and the port and
 * migrates the database once, then forks the workers (http/workers.ts), each of which serves.
 */
async function main() {
  if (cluster.isWorker) return serve();
  validateEnvironment();
  const warning = checkSecretsKey(process.env);
  if (warning) console.warn(warning);
  await checkPort(config.port, config.host);
  if (config.processes === 1 || !config.databaseUrl) {
    if (config.processes > 1) console.warn('WEB_CONCURRENCY is for PostgreSQL (DATABASE_URL): the embedded database is served by one process');
    return serve();
  }
  const database = await open(resolve(config.dataDir ?? '.data'));
  await database.migrate();
  await database.close();
  console.log(`Starting ${config.processes} worker processes`);
  superviseWorkers(config.processes, { say: (line) => console.log(line), stopTimeoutMs: SHUTDOWN_TIMEOUT_MS });
}

/** One process serving: the settings, the port and the migrations are checked by main (or the primary) first. */
async function serve() {
  const dataDir = resolve(config.dataDir ?? '.data');
  const hold = config.databaseUrl ? null : holdEmbedded(dataDir);
  const database = await open(dataDir);
  if (cluster.isPrimary) await database.migrate();
  const devToken = database.driver === 'pglite' ? await developmentToken(database, dataDir) : undefined;
  const app = await createApp({
    database,
    logger: config.logRequests,
    playgroundToken: process.env.NODE_ENV === 'production' ? undefined : devToken,
  });
  // With request logs on, start-up and stop lines are JSON log lines too (one format per stream).
  const say = (message: string) => (config.logRequests ? app.log.info(message) : console.log(message));
  const address = await app.listen({ port: config.port, host: config.host });
  hold?.advertise(address);
  say(`Learning platform listening on ${address} (GraphQL at /graphql, REST at the spec's paths, reference at /docs)`);
  if (devToken) {
    say(`Embedded database in ${dataDir}`);
    say(`Development platform token: ${devToken}`);
  }

  // Records enrollment.expired events; safe with several instances (progress/expiry.ts).
  const sweep = setInterval(() => {
    sweepExpiredEnrollments(database.db).catch((error) => console.error(`Expiry sweep failed: ${(error as Error).message}`));
  }, EXPIRY_SWEEP_INTERVAL_MS);
  sweep.unref();
  // Old events go after EVENT_RETENTION_DAYS (a plain delete: safe with several instances).
  const prune = setInterval(() => {
    pruneEvents(database.db, new Date(), config.eventRetentionDays).catch((error) => console.error(`Event pruning failed: ${(error as Error).message}`));
  }, PRUNE_INTERVAL_MS);
  prune.unref();
  // Webhook delivery runs in every instance; claims with SKIP LOCKED keep one event to one sender.
  const webhooks = startWebhookWorker(database, {
    allowPrivateNetworks: config.webhooksAllowPrivateNetworks,
    onError: (error) => console.error(`Webhook delivery failed: ${(error as Error).message}`),
  });

  // The service owns its signals: stop accepting, let requests in flight finish, close the
  // database, exit 0; past the timeout, exit 1 without waiting further.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweep);
    clearInterval(prune);
    say(`${signal}: finishing requests in flight, then stopping`);
    setTimeout(() => {
      console.error(`Stopped after ${SHUTDOWN_TIMEOUT_MS} ms with requests still in flight`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    await app.close();
    await webhooks.stop();
    await database.close();
    hold?.release();
    say('Stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  // A configuration mistake is one clear line; anything else keeps its stack for the operator.
  console.error(error instanceof ConfigurationError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
