import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { issueToken, type Role } from '../auth/credential.js';
import { config } from '../config.js';
import { openDatabase } from '../db/client.js';

/**
 * npm run token -- --role platform [--label ops]
 * npm run token -- --role admin --school 3 [--user 7]
 * Prints a new token (stored only as a digest). Uses DATABASE_URL, else the embedded database
 * (stop the service first: the embedded database has one process at a time).
 */
const roles: Role[] = ['platform', 'admin', 'collaborator', 'student', 'app'];
const { values } = parseArgs({
  options: { role: { type: 'string', default: 'platform' }, school: { type: 'string' }, user: { type: 'string' }, label: { type: 'string' } },
});
const role = values.role as Role;
if (!roles.includes(role)) throw new Error(`--role must be one of ${roles.join(', ')}`);
if ((role === 'platform') !== !values.school) throw new Error('a platform token has no --school; every other role needs one');

const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: resolve(config.dataDir ?? '.data') });
try {
  await database.migrate();
  const token = await issueToken(database.db, {
    role,
    schoolId: values.school ? Number(values.school) : null,
    userId: values.user ? Number(values.user) : null,
    label: values.label ?? 'cli',
  });
  console.log(token);
} finally {
  await database.close();
}
