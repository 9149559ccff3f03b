import { sql } from 'drizzle-orm';
import type { Database, Db, Queryable } from '../db/client.js';
import type { SchoolStatus } from '../db/school.table.js';
import { type Credential, credentialDigest, findCredential } from './credential.js';

/** The channel a change of credentials is announced on: every instance drops its cached credentials. */
export const CREDENTIALS_CHANNEL = 'credentials_changed';

/** How long a use keeps an entry among the recent ones without moving it again. */
const RECENT_MS = 1000;

type Found = { credential: Credential; schoolStatus: SchoolStatus | null };

/**
 * The credential of each token checked a moment ago (its role, school, user and the school's
 * status), kept in process for at most `ttlMs` and at most `size` tokens (least recently used
 * first out). Only valid credentials are kept: a token just issued works at once. A revocation, a
 * school's change of status or its deletion calls `credentialsChanged` in its transaction: the
 * NOTIFY it sends at commit empties the cache of every instance, and this process's at once.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { found: Found; expires: number; used: number }>();
  /** Bumped by every clear: a lookup that started before one does not store what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly size: number,
  ) {}

  async find(db: Db, token: string): Promise<Found | null> {
    if (this.ttlMs <= 0) return findCredential(db, token);
    const key = credentialDigest(token);
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      // Moved to the recent end at most once a second: a busy token would otherwise delete and
      // insert its entry on every request (the map compacts under that churn).
      if (now - hit.used >= RECENT_MS) {
        this.entries.delete(key);
        this.entries.set(key, hit);
        hit.used = now;
      }
      return hit.found;
    }
    if (hit) this.entries.delete(key);
    const generation = this.generation;
    const found = await findCredential(db, token);
    if (found && generation === this.generation) {
      this.entries.set(key, { found, expires: now + this.ttlMs, used: now });
      if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    }
    return found;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

/** The caches of each database in this process (an app each; tests run several). */
const caches = new WeakMap<Db, Set<CredentialCache>>();

/** Keeps `cache` in step with every instance: it empties on each change announced on the channel. Resolves to the function that stops it. */
export async function attachCredentialCache(database: Database, cache: CredentialCache): Promise<() => Promise<void>> {
  let set = caches.get(database.db);
  if (!set) caches.set(database.db, (set = new Set()));
  set.add(cache);
  const stop = await database.listen(CREDENTIALS_CHANNEL, () => cache.clear());
  return async () => {
    set.delete(cache);
    await stop();
  };
}

/**
 * Announces, in the transaction `tx` of a write on `db`, that credentials may have changed (a token
 * revoked, a school's status changed, a school deleted). Other instances drop their cached
 * credentials when it commits; this process's caches are emptied now, so the writer's next request
 * reads the database.
 */
export async function credentialsChanged(db: Db, tx: Queryable): Promise<void> {
  for (const cache of caches.get(db) ?? []) cache.clear();
  await tx.execute(sql`select pg_notify(${CREDENTIALS_CHANNEL}, '')`);
}
