import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { issueToken, type Role } from '../auth/credential.js';
import { config, ConfigurationError } from '../config.js';
import { openDatabase } from '../db/client.js';
import { refuseIfHeld } from '../db/embedded-lock.js';
import { schools } from '../modules/schools/school.table.js';
import { users } from '../modules/users/user.table.js';

/**
 * npm run token -- --role platform [--label ops]
 * npm run token -- --role admin --school 3 [--user 7]
 * Prints a new token (stored only as a digest). Uses DATABASE_URL, else the embedded database,
 * which is one process's at a time: while the service runs on it, this refuses and says what to do.
 */
const roles: Role[] = ['platform', 'admin', 'collaborator', 'student', 'app'];

async function main() {
  const { values } = parseArgs({
    options: { role: { type: 'string', default: 'platform' }, school: { type: 'string' }, user: { type: 'string' }, label: { type: 'string' } },
  });
  const role = values.role as Role;
  if (!roles.includes(role)) throw new ConfigurationError(`--role must be one of ${roles.join(', ')}`);
  if ((role === 'platform') !== !values.school) throw new ConfigurationError('a platform token has no --school; every other role needs one');
  const schoolId = values.school ? Number(values.school) : null;
  const userId = values.user ? Number(values.user) : null;
  for (const [flag, id] of [['--school', schoolId], ['--user', userId]] as const)
    if (id !== null && !(Number.isInteger(id) && id > 0 && id < 2 ** 31)) throw new ConfigurationError(`${flag} must be an id`);

  const dataDir = resolve(config.dataDir ?? '.data');
  if (!config.databaseUrl)
    refuseIfHeld(dataDir, 'stop it (Ctrl-C) and run this again, or ask the running service: the wizard (POST /schools/wizard) returns an admin token, and the development platform token is in .data/dev-token.txt');
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir });
  try {
    await database.migrate();
    if (schoolId !== null && !(await database.db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId))).length)
      throw new ConfigurationError(`there is no school ${schoolId} (make one with POST /schools/wizard, or npm run seed)`);
    if (userId !== null && !(await database.db.select({ id: users.id }).from(users).where(and(eq(users.id, userId), eq(users.schoolId, schoolId ?? -1)))).length)
      throw new ConfigurationError(`school ${schoolId} has no user ${userId}`);
    console.log(await issueToken(database.db, { role, schoolId, userId, label: values.label ?? 'cli' }));
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigurationError ? `Error: ${error.message}` : error);
  process.exit(1);
});
