import 'reflect-metadata';
import cluster from 'node:cluster';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createApp } from './app.js';
import { findCredential, issueToken } from './auth/credential.js';
import { config } from './config.js';
import type { Database } from './db/client.js';
import { holdEmbedded } from './db/embedded-lock.js';
import { startReadRouter } from './db/read-routing.js';
import { repeatedFailures, say, serviceLogger } from './http/logging.js';
import { PRUNE_INTERVAL_MS, pruneEvents } from './modules/events/prune.js';
import { EXPIRY_SWEEP_INTERVAL_MS, sweepExpiredEnrollments } from './modules/progress/expiry.js';
import { loadMailTemplates, startDripMailer, startMailWorker } from './modules/mail/index.js';
import { startWebhookWorker } from './modules/webhooks/index.js';
import { startRecurringScheduler } from './modules/orders/index.js';
import { startExportWorker } from './modules/exports/index.js';
import { pruneSessions, SESSION_PRUNE_INTERVAL_MS } from './modules/identity/prune.js';
import { open, openLedger, openReplica } from './startup.js';

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

/**
 * One process serving: the settings and the port are checked by main.ts first, the migrations by its
 * primary when it has workers. `prepared` is the PostgreSQL database main.ts opened (and migrated,
 * but in a worker) while this module loaded; without it, the database is opened and migrated here.
 */
export async function serve(prepared?: Promise<Database>) {
  const dataDir = resolve(config.dataDir ?? '.data');
  const hold = config.databaseUrl ? null : holdEmbedded(dataDir);
  const database = await (prepared ?? open(dataDir));
  // A library version the database adapter was not verified on: it keeps to what needs no internals, and says so.
  for (const warning of database.adapter.warnings) say.warn(warning);
  if (!prepared && cluster.isPrimary) await database.migrate();
  const devToken = database.driver === 'pglite' ? await developmentToken(database, dataDir) : undefined;
  // Development: the embedded database outside production. The playground opens with the token, and
  // this machine's clients without one get a credential's rate limit (http/rate-limit.ts).
  const development = database.driver === 'pglite' && config.nodeEnv !== 'production';
  // The process's one logger (http/logging.ts): errors always, requests with LOG_REQUESTS on.
  const log = serviceLogger();
  // DATABASE_READ_URL: queries may read the replica (db/read-routing.ts); everything else stays on the primary.
  const replica = config.readReplica && database.driver === 'postgres' ? await openReplica(config.readReplica.url) : undefined;
  const ledger = replica ? await openLedger() : undefined;
  const reads =
    replica && ledger && config.readReplica
      ? await startReadRouter(database, replica, { ...config.readReplica, staleAfterMs: Math.max(1000, config.readReplica.refreshMs * 5) }, ledger)
      : undefined;
  const app = await createApp({
    database,
    reads,
    logger: log,
    playgroundToken: development ? devToken : undefined,
    rateLimit: { developmentLoopback: development },
  });
  const address = await app.listen({ port: config.port, host: config.host });
  hold?.advertise(address);
  say.info(`Learning platform listening on ${address} (GraphQL at /graphql, REST at the spec's paths, reference at /docs)`);
  // Since the process started (npm start's compile, before it, says its own time).
  say.info(`Ready in ${process.uptime().toFixed(1)} s`);
  if (devToken) {
    say.info(`Embedded database in ${dataDir}`);
    say.info(`Development platform token: ${devToken}`);
  }

  // Background work fails again every few seconds while the database is away: each failure once a minute, with its cause and count.
  const failed = repeatedFailures(log);
  // Records enrollment.expired events; safe with several instances (progress/expiry.ts).
  const sweep = setInterval(() => {
    sweepExpiredEnrollments(database.db).catch((error) => failed('expiry sweep failed', error));
  }, EXPIRY_SWEEP_INTERVAL_MS);
  sweep.unref();
  // Old events go after EVENT_RETENTION_DAYS (a plain delete: safe with several instances).
  const prune = setInterval(() => {
    pruneEvents(database.db, new Date(), config.eventRetentionDays).catch((error) => failed('event pruning failed', error));
  }, PRUNE_INTERVAL_MS);
  prune.unref();
  // Expired sessions, refresh tokens, failed sign-ins past their window, used reset tokens (a plain delete: safe with several instances).
  const sessionPrune = setInterval(() => {
    pruneSessions(database.db, new Date(), config.identity.failureWindowSeconds).catch((error) => failed('session pruning failed', error));
  }, SESSION_PRUNE_INTERVAL_MS);
  sessionPrune.unref();
  // Webhook delivery runs in every instance; claims with SKIP LOCKED keep one event to one sender.
  const webhooks = startWebhookWorker(database, {
    allowPrivateNetworks: config.webhooksAllowPrivateNetworks,
    onError: (error) => failed('webhook delivery failed', error),
  });
  // Mail delivery too (SMTP_URL; without it mails are kept in the database, GET /mails). Templates are compiled now, not at the first mail.
  loadMailTemplates();
  const mailer = startMailWorker(database, { logger: log, onError: (error) => failed('mail delivery failed', error) });
  // The lesson-released mails of drip content: every instance looks each minute; a notice per lesson claims each mail once.
  const drip = startDripMailer(database, { onError: (error) => failed('drip mail failed', error) });
  // Recurring orders bill on time in every instance; SKIP LOCKED claims keep each step to one instance (modules/orders/order.recurring.ts).
  const billing = startRecurringScheduler(database, { onError: (error) => failed('recurring billing failed', error) });
  // Export jobs (startExport) in every instance; SKIP LOCKED claims give each file to one instance (modules/exports/export.job.ts).
  const exporter = startExportWorker(database, { onError: (error) => failed('export job failed', error) });

  // The service owns its signals: stop accepting, let requests in flight finish, close the
  // database, exit 0; past the timeout, exit 1 without waiting further. Nothing in the way can
  // hold the process past it: log lines are never flushed synchronously (http/logging.ts).
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(sweep);
    clearInterval(prune);
    clearInterval(sessionPrune);
    say.info(`${signal}: finishing requests in flight, then stopping`);
    setTimeout(() => {
      say.warn(`Stopped after ${config.shutdownTimeoutMs} ms with requests still in flight`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await app.close();
    await webhooks.stop();
    await drip.stop();
    await mailer.stop();
    await billing.stop();
    await exporter.stop();
    reads?.stop();
    await replica?.close();
    await ledger?.close();
    await database.close();
    hold?.release();
    say.info('Stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
