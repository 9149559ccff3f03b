import { doublePrecision, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from '../db/columns.js';

/**
 * Token buckets of the rate limit, shared by every instance of the service. `key` is
 * `credential:<the token's SHA-256 digest>` or `address:<client address>`, never a clear token.
 * A missing row is a full bucket, so rows full for a while are deleted (http/rate-limit.ts).
 * Runtime state, not data of record: the migration makes it UNLOGGED (a lease commits without a
 * WAL flush; a crash or a promoted replica starts it empty, every bucket full).
 */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text().primaryKey(),
  /** Tokens left after the latest request, as of `refilledAt`. */
  tokens: doublePrecision().notNull(),
  refilledAt: tstz().notNull(),
  /** Tokens the latest lease took (0: refused): what the leasing statement returns besides `tokens`. */
  granted: doublePrecision().notNull(),
});
