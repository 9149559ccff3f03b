import { pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from '../db/columns.js';

/**
 * Apollo's automatic persisted queries (graphql/apq-cache.ts): the documents clients registered,
 * keyed by Apollo's cache key (`apq:<SHA-256 of the document>`), shared by every instance.
 * Only documents that parsed, validated and passed the limits are stored; rows expire.
 */
export const graphqlPersistedQueries = pgTable('graphql_persisted_queries', {
  key: text().primaryKey(),
  document: text().notNull(),
  expiresAt: tstz().notNull(),
});
