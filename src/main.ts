import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createApp } from './app.js';
import { findCredential, issueToken } from './auth/credential.js';
import { checkSecretsKey } from './auth/secrets.js';
import { config, ConfigurationError } from './config.js';
import { type Database, openDatabase } from './db/client.js';

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

async function main() {
  const warning = checkSecretsKey(process.env);
  if (warning) console.warn(warning);
  const dataDir = resolve(config.dataDir ?? '.data');
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, maxConnections: config.maxConnections } : { dataDir },
  );
  await database.migrate();
  const app = await createApp({ database, logger: config.logRequests });
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(`Learning platform listening on ${address} (GraphQL at /graphql, REST at the spec's paths)`);
  if (database.driver === 'pglite') {
    console.log(`Embedded database in ${dataDir}`);
    console.log(`Development platform token: ${await developmentToken(database, dataDir)}`);
  }
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  // A configuration mistake is one clear line; anything else keeps its stack for the operator.
  console.error(error instanceof ConfigurationError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
