import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { graphqlPersistedQueries as table } from '../http/persisted-query.table.js';

/** How long a registered document is kept when Apollo names no TTL; a client whose document expired re-sends it once. */
export const APQ_TTL_SECONDS = 24 * 3600;
/** Expired rows are deleted at most this often per process. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Apollo's KeyValueCache for automatic persisted queries, in PostgreSQL: every instance behind a
 * load balancer sees a document another one registered. A failing database is a cache miss (the
 * client then sends the document), never an error of the request.
 */
export class PersistedQueryCache {
  private readonly pending = new Set<Promise<void>>();
  private nextSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly log: (error: unknown) => void,
  ) {}

  async get(key: string): Promise<string | undefined> {
    try {
      const [row] = await this.db
        .select({ document: table.document })
        .from(table)
        .where(and(eq(table.key, key), gt(table.expiresAt, this.now())));
      return row?.document;
    } catch (error) {
      this.log(error);
      return undefined;
    }
  }

  /** Apollo does not wait for this; `settled()` lets the reply wait, so the next request (to any instance) finds the document. */
  set(key: string, document: string, options?: { ttl?: number | null }): Promise<void> {
    const write = this.write(key, document, options?.ttl ?? APQ_TTL_SECONDS).finally(() => this.pending.delete(write));
    this.pending.add(write);
    return write;
  }

  async delete(key: string): Promise<void> {
    await this.db.delete(table).where(eq(table.key, key));
  }

  /** Resolves when every write this process started has ended. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  private async write(key: string, document: string, ttlSeconds: number): Promise<void> {
    const now = this.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    try {
      if (now.getTime() >= this.nextSweep) {
        this.nextSweep = now.getTime() + SWEEP_EVERY_MS;
        await this.db.delete(table).where(lte(table.expiresAt, now));
      }
      await this.db.insert(table).values({ key, document, expiresAt }).onConflictDoUpdate({ target: table.key, set: { document, expiresAt } });
    } catch (error) {
      this.log(error);
    }
  }
}
