import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { checkSecretsKey } from './auth/secrets.js';
import { config, ConfigurationError, validateEnvironment } from './config.js';
import { type Database, openDatabase } from './db/client.js';

// What start-up checks before it serves (server.ts), or before it starts workers (main.ts): none of it loads the service itself.
// The command-line tools (tools/cli.ts) run the same checks, so they refuse what the service refuses, in its words.

/** How a refused setting is printed: one line, no stack (main, and the tools for the same checks). */
export const configurationLine = (error: ConfigurationError) => `Configuration error: ${error.message}`;

/**
 * Every variable's shape, then the secrets key (a missing one on PostgreSQL or in production),
 * before anything is opened. Returns the warning to print, if any (the development key's).
 */
export function checkSettings(): string | undefined {
  validateEnvironment();
  return checkSecretsKey(config.secrets);
}

/** A taken or forbidden port fails at once, before the database is opened and migrated. */
export async function checkPort(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((done, fail) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      fail(new ConfigurationError(`PORT ${port} on ${host} cannot be used (${error.code === 'EADDRINUSE' ? 'another process listens there' : error.code})`)),
    );
    probe.listen(port, host, () => probe.close(() => done()));
  });
}

export async function open(dataDir: string): Promise<Database> {
  if (!config.databaseUrl) return openDatabase({ dataDir });
  const database = await openDatabase({ url: config.databaseUrl, maxConnections: config.maxConnections, prepare: config.prepareStatements, listenUrl: config.databaseListenUrl });
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

const REPLICA_LOCK_TIMEOUT = '1s';

/** The replica of DATABASE_READ_URL: a replica down at start-up is not fatal (reads go to the primary until it answers). */
export async function openReplica(url: string): Promise<Database> {
  // A query waits for no lock the replay holds (a paused or slow replay would hold it): past REPLICA_LOCK_TIMEOUT it runs again on the primary.
  return openDatabase({ url, maxConnections: config.maxConnections, prepare: config.prepareStatements, sessionSettings: { lock_timeout: REPLICA_LOCK_TIMEOUT } });
}

/** The read routing's own connections to the primary: direct (DATABASE_LISTEN_URL) when DATABASE_URL goes through a pooler. */
export async function openLedger(): Promise<Database> {
  return openDatabase({ url: config.databaseListenUrl ?? config.databaseUrl, maxConnections: 2, prepare: config.prepareStatements });
}

/** A primary with workers migrates the database once, before any worker opens it. */
export async function migrateOnce(dataDir: string): Promise<void> {
  const database = await open(dataDir);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}
