import { and, count, eq, gt, inArray, min } from 'drizzle-orm';
import { digestToken } from '../../auth/credential.js';
import type { IdentitySettings } from '../../config.js';
import type { Db, Queryable } from '../../db/client.js';
import { signInFailures } from './sign-in-failure.table.js';

/** The keys a sign-in attempt counts against: the account (school and e-mail, digested) and the client's address. */
export function failureKeys(schoolId: number, email: string, address: string): { account: string; address: string } {
  return { account: `account:${digestToken(`${schoolId}:${email}`)}`, address: `address:${address}` };
}

/**
 * Seconds until sign-in is allowed again for these keys, or null when it is allowed: an account
 * with `maxFailures` failures in the window, or an address with `maxFailuresPerAddress`, is locked
 * until its oldest failure in the window leaves it. The rows are shared by every instance.
 */
export async function lockedFor(db: Queryable, keys: { account: string; address: string }, now: Date, s: IdentitySettings): Promise<number | null> {
  const since = new Date(now.getTime() - s.failureWindowSeconds * 1000);
  const rows = await db
    .select({ key: signInFailures.key, failures: count(), oldest: min(signInFailures.failedAt) })
    .from(signInFailures)
    .where(and(inArray(signInFailures.key, [keys.account, keys.address]), gt(signInFailures.failedAt, since)))
    .groupBy(signInFailures.key);
  let wait: number | null = null;
  for (const row of rows) {
    const limit = row.key === keys.account ? s.maxFailures : s.maxFailuresPerAddress;
    if (row.failures < limit || !row.oldest) continue;
    const seconds = Math.max(1, Math.ceil((new Date(row.oldest).getTime() + s.failureWindowSeconds * 1000 - now.getTime()) / 1000));
    wait = Math.max(wait ?? 0, seconds);
  }
  return wait;
}

/** Records a failed attempt against both keys. */
export async function recordFailure(db: Db, keys: { account: string; address: string }, now: Date): Promise<void> {
  await db.insert(signInFailures).values([
    { key: keys.account, failedAt: now },
    { key: keys.address, failedAt: now },
  ]);
}

/** A successful sign-in forgets the account's failures (the address's stay counted). */
export async function clearFailures(tx: Queryable, keys: { account: string }): Promise<void> {
  await tx.delete(signInFailures).where(eq(signInFailures.key, keys.account));
}
