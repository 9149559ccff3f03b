import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { schools } from './school.table.js';
import { storedSecret } from './secrets.js';
import type { Db, Queryable } from './types.js';

/**
 * 0007 renamed schools' plaintext crm_token and video_access_token to `*_ciphertext` and added an
 * empty `*_hint`: every value this service writes has a hint, so a value with none is still the
 * plaintext an older version stored. Encrypts it in place, with its hint. The school's content did
 * not change: its updated_at stays.
 */
async function encryptSchoolTokens(tx: Queryable) {
  for (const field of ['crmToken', 'videoAccessToken'] as const) {
    const [ciphertext, hint] = [schools[`${field}Ciphertext`], schools[`${field}Hint`]];
    const plain = await tx
      .select({ id: schools.id, value: ciphertext, updatedAt: schools.updatedAt })
      .from(schools)
      .where(and(isNotNull(ciphertext), isNull(hint)))
      .for('update');
    for (const row of plain) {
      await tx.update(schools).set({ ...storedSecret(field, row.value!), updatedAt: row.updatedAt }).where(eq(schools.id, row.id));
    }
  }
}

/**
 * Migrations SQL cannot make, since they need the service's SECRETS_KEY. Database.migrate runs them
 * right after the SQL migrations, under the same lock, in one transaction. They run at every
 * start-up, so each changes only the rows still to change (and none on a second run).
 */
export async function runDataMigrations(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await encryptSchoolTokens(tx);
  });
}
