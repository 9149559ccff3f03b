import { resolve } from 'node:path';
import { issueToken, type Role } from '../auth/credential.js';
import { config } from '../config.js';
import { UserErrors } from '../graphql/errors.js';
import { checkGrant } from '../modules/auth-tokens/api-token.rules.js';
import { checkSettings, open } from '../startup.js';
import { CommandError, databaseLine, parseFlags, run } from './cli.js';
import { firstError, overHttp, runningEmbeddedService } from './service-client.js';

/**
 * npm run token -- --role platform [--label ops]
 * npm run token -- --role admin --school 3 [--user 7]
 * Prints a new token (stored only as a digest) on stdout, and on stderr the database it was made in.
 * Uses DATABASE_URL, else the embedded database; while the service runs on the embedded database,
 * it asks that service (createApiToken), since the files are one process's at a time.
 */
const roles: Role[] = ['platform', 'admin', 'collaborator', 'student', 'app'];

const USAGE = `Usage: npm run token -- [--role <role>] [--school <id>] [--user <id>] [--label <text>]
       (built: node dist/src/tools/create-token.js [flags])
Prints a new API token on stdout, and on stderr the database it was made in.
  --role    ${roles.join(', ')} (default platform)
  --school  the token's school (every role but platform)
  --user    the person it acts as: an admin, collaborator or student of that school (a student token needs one)
  --label   a note kept with the token (default cli)
Writes to DATABASE_URL (SECRETS_KEY required there, as the service requires it), else to the
embedded database in DATA_DIR (./.data), through the service when one runs on it.`;

type Grant = { role: Role; schoolId: string | null; userId: string | null; label: string };

/** A refused grant as one line: "--school: has no school with id 9". */
const flagOf: Record<string, string> = { schoolId: '--school', userId: '--user', role: '--role', label: '--label' };
const oneLine = (errors: { field: string[]; message: string }[]) => errors.map((e) => `${flagOf[e.field[0]] ?? e.field.join('.')} ${e.message}`).join('; ');

async function throughService(running: { url: string; token: string }, grant: Grant): Promise<string> {
  const reply = await overHttp(running.url)(running.token, {
    query: 'mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token errors { field code message } } }',
    variables: { input: grant },
  });
  if (reply.errors?.length) throw new CommandError(`the service at ${running.url} refused: ${firstError(reply)}`);
  const result = reply.data!.createApiToken as { token: string; errors: { field: string[]; message: string }[] };
  if (result.errors.length) throw new CommandError(oneLine(result.errors));
  return result.token;
}

async function inDatabase(dataDir: string, grant: Grant): Promise<string> {
  const database = await open(dataDir);
  try {
    await database.migrate();
    const checked = await checkGrant(database.db, grant, new Date()).catch((error) => {
      throw error instanceof UserErrors ? new CommandError(oneLine(error.errors)) : error;
    });
    return await issueToken(database.db, checked);
  } finally {
    await database.close();
  }
}

async function main() {
  const values = parseFlags(USAGE, { role: { type: 'string', default: 'platform' }, school: { type: 'string' }, user: { type: 'string' }, label: { type: 'string' } });
  const role = values.role as Role;
  if (!roles.includes(role)) throw new CommandError(`--role must be one of ${roles.join(', ')}`);
  for (const flag of ['school', 'user'] as const) {
    const id = values[flag];
    if (id !== undefined && !(/^\d+$/.test(id) && Number(id) > 0 && Number(id) < 2 ** 31)) throw new CommandError(`--${flag} must be an id`);
  }
  const grant: Grant = { role, schoolId: values.school ?? null, userId: values.user ?? null, label: values.label ?? 'cli' };
  // The service's own checks first (a missing SECRETS_KEY on PostgreSQL), before anything is opened.
  checkSettings();
  const dataDir = resolve(config.dataDir ?? '.data');
  const running = config.databaseUrl ? null : runningEmbeddedService(dataDir);
  // On stderr: stdout is the token alone, for TOKEN=$(...).
  console.error(databaseLine(dataDir, running));
  console.log(running ? await throughService(running, grant) : await inDatabase(dataDir, grant));
}

run(main);
