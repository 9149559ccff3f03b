import { and, eq, isNull } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { apiTokens } from '../../auth/api-token.table.js';
import type { Queryable } from '../../db/client.js';
import type { UserRow } from '../users/user.table.js';
import { columnsOf, type PersonalTable, personTables, type Replacement } from '../../db/personal-data.js';

/** The export document's format: a reader tells versions apart by it. */
export const EXPORT_FORMAT = 'personal-data/1';

const withoutHidden = (row: Record<string, unknown>, hidden: readonly string[] = []) =>
  Object.fromEntries(Object.entries(row).filter(([key]) => !hidden.includes(key)));

async function rowsOf(db: Queryable, entry: PersonalTable, userId: number): Promise<Record<string, unknown>[]> {
  const columns = columnsOf(entry.table);
  const query = db.select().from(entry.table as PgTable).where(entry.rows!(userId)).$dynamic();
  const rows = (await (columns.id ? query.orderBy(columns.id) : query)) as Record<string, unknown>[];
  return rows.map((row) => withoutHidden(row, entry.hidden));
}

/**
 * Everything the service holds about `user`, as one JSON document: a key per table of the
 * registry (personal-data.ts) that holds their rows, secrets left out. Read in one snapshot.
 */
export async function exportPersonalData(db: Queryable, user: UserRow, now: Date): Promise<Record<string, unknown>> {
  const document: Record<string, unknown> = { format: EXPORT_FORMAT, exportedAt: now.toISOString(), userId: user.id, schoolId: user.schoolId };
  for (const entry of personTables) {
    if (entry.exported === false) continue;
    const rows = await rowsOf(db, entry, user.id);
    document[entry.key!] = entry.relation === 'person' || entry.key === 'erasure' ? (rows[0] ?? null) : rows;
  }
  // Dates as RFC 3339 strings, the same in both faces.
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
}

const valueOf = (replacement: Replacement, userId: number) => (typeof replacement === 'function' ? replacement(userId) : replacement);

/**
 * Erases `user`'s personal data in the caller's transaction, table by table as the registry says:
 * anonymised in place, deleted, or kept (ids and numbers only). Returns the tokens it revoked.
 */
export async function erasePersonalData(tx: Queryable, user: UserRow): Promise<{ revokedTokenIds: number[] }> {
  const revoked = await tx
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, user.id), isNull(apiTokens.revokedAt)));
  for (const entry of personTables) {
    const where = entry.rows!(user.id);
    if (entry.erase === 'delete') await tx.delete(entry.table as PgTable).where(where);
    else if (entry.erase === 'anonymise') {
      const values = Object.fromEntries(Object.entries(entry.anonymise ?? {}).map(([key, replacement]) => [key, valueOf(replacement, user.id)]));
      await tx.update(entry.table as PgTable).set(values).where(where);
    }
  }
  return { revokedTokenIds: revoked.map((r) => r.id).sort((a, b) => a - b) };
}
