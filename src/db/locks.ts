import { sql } from 'drizzle-orm';
import type { Queryable } from './client.js';

/**
 * Serializes the transactions that decide by reading what they are about to write (the first
 * import of an order uuid, the first free subdomain): a transaction-scoped advisory lock on
 * (`scope`, `key`), held until commit or rollback. A waiting transaction reads after the holder
 * committed (READ COMMITTED takes a new snapshot per statement), so it sees the holder's rows.
 * The two-key form keeps these apart from the migration's one-key lock.
 */
export async function lockKey(tx: Queryable, scope: string, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
}
