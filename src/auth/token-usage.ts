import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiTokens } from './api-token.table.js';

/**
 * When each token was last used, without a write per request: a request notes its token here (in
 * memory), and `flush` records the noted tokens with one UPDATE, skipping those whose record is
 * fresher than `granularityMs`. A token used again within the granularity is not noted again. The
 * record is coarse by design (to the granularity) and each instance flushes its own notes; app.ts
 * flushes every granularity and when the app closes.
 */
export class TokenUsage {
  /** Tokens used since the last flush, with the latest time of use. */
  private pending = new Map<number, Date>();
  /** When this process last recorded each token (bounded: oldest first out). */
  private recorded = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly granularityMs: number,
    private readonly size = 10_000,
  ) {}

  note(tokenId: number, at: Date): void {
    const last = this.recorded.get(tokenId);
    if (last !== undefined && at.getTime() - last < this.granularityMs) return;
    this.pending.set(tokenId, at);
  }

  /** Records the noted tokens in one statement; resolves to how many were noted. */
  async flush(): Promise<number> {
    if (this.pending.size === 0) return 0;
    const batch = [...this.pending];
    this.pending = new Map();
    for (const [tokenId, at] of batch) {
      this.recorded.delete(tokenId);
      this.recorded.set(tokenId, at.getTime());
      if (this.recorded.size > this.size) this.recorded.delete(this.recorded.keys().next().value!);
    }
    const values = sql.join(
      batch.map(([tokenId, at]) => sql`(${tokenId}::int, ${at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    const seconds = this.granularityMs / 1000;
    await this.db.execute(sql`
      update ${apiTokens} set last_used_at = used.at
      from (values ${values}) as used(id, at)
      where ${apiTokens.id} = used.id
        and (${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < used.at - make_interval(secs => ${seconds}))`);
    return batch.length;
  }
}
