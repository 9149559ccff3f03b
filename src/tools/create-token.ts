import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { issueToken, type Role } from '../auth/credential.js';
import { config, ConfigurationError } from '../config.js';
import { openDatabase } from '../db/client.js';
import { UserErrors } from '../graphql/errors.js';
import { checkGrant } from '../modules/auth-tokens/api-token.rules.js';
import { overHttp, runningEmbeddedService } from './service-client.js';

/**
 * npm run token -- --role platform [--label ops]
 * npm run token -- --role admin --school 3 [--user 7]
 * Prints a new token (stored only as a digest). Uses DATABASE_URL, else the embedded database;
 * while the service runs on the embedded database, it asks that service (createApiToken), since
 * the files are one process's at a time.
 */
const roles: Role[] = ['platform', 'admin', 'collaborator', 'student', 'app'];

type Grant = { role: Role; schoolId: string | null; userId: string | null; label: string };

/** A refused grant as one line: "--school: has no school with id 9". */
const flagOf: Record<string, string> = { schoolId: '--school', userId: '--user', role: '--role', label: '--label' };
const oneLine = (errors: { field: string[]; message: string }[]) => errors.map((e) => `${flagOf[e.field[0]] ?? e.field.join('.')} ${e.message}`).join('; ');

async function throughService(dataDir: string, grant: Grant): Promise<string | null> {
  const running = runningEmbeddedService(dataDir);
  if (!running) return null;
  const reply = await overHttp(running.url)(running.token, {
    query: 'mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token errors { field code message } } }',
    variables: { input: grant },
  });
  if (reply.errors?.length) throw new ConfigurationError(`the service at ${running.url} refused: ${reply.errors[0].message}`);
  const result = reply.data!.createApiToken as { token: string | null; errors: { field: string[]; message: string }[] };
  if (result.errors.length) throw new ConfigurationError(oneLine(result.errors));
  return result.token;
}

async function inDatabase(dataDir: string, grant: Grant): Promise<string> {
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir });
  try {
    await database.migrate();
    const checked = await checkGrant(database.db, grant).catch((error) => {
      throw error instanceof UserErrors ? new ConfigurationError(oneLine(error.errors)) : error;
    });
    return await issueToken(database.db, checked);
  } finally {
    await database.close();
  }
}

async function main() {
  const { values } = parseArgs({
    options: { role: { type: 'string', default: 'platform' }, school: { type: 'string' }, user: { type: 'string' }, label: { type: 'string' } },
  });
  const role = values.role as Role;
  if (!roles.includes(role)) throw new ConfigurationError(`--role must be one of ${roles.join(', ')}`);
  for (const flag of ['school', 'user'] as const) {
    const id = values[flag];
    if (id !== undefined && !(/^\d+$/.test(id) && Number(id) > 0 && Number(id) < 2 ** 31)) throw new ConfigurationError(`--${flag} must be an id`);
  }
  const grant: Grant = { role, schoolId: values.school ?? null, userId: values.user ?? null, label: values.label ?? 'cli' };
  const dataDir = resolve(config.dataDir ?? '.data');
  const token = (!config.databaseUrl && (await throughService(dataDir, grant))) || (await inDatabase(dataDir, grant));
  console.log(token);
}

main().catch((error) => {
  console.error(error instanceof ConfigurationError ? `Error: ${error.message}` : error);
  process.exit(1);
});
