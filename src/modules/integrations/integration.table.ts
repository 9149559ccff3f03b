import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { id, tstz } from '../../db/columns.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { schools } from '../../db/school.table.js';
import { apiTokens } from '../../auth/api-token.table.js';

/**
 * An integration of a school. `metadata` lists the events to trigger (`{"events": [...]}`). The
 * spec's `metaconfig` is write-only: the whole hash is stored encrypted (`metaconfigCiphertext`,
 * never returned); `metaconfigPublic` keeps what replies show of it (its keys with masked values).
 * The owner is polymorphic (`ownerType`/`ownerId`), so it has no foreign key.
 */
export const integrations = schoolTable(
  'integrations',
  {
    ownerType: text().notNull(),
    ownerId: integer().notNull(),
    type: text(),
    active: boolean().notNull().default(true),
    metadata: jsonb().$type<Record<string, unknown>>(),
    metaconfigCiphertext: text(),
    metaconfigPublic: jsonb().$type<Record<string, unknown>>(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.ownerType, t.ownerId),
  ],
);

/** A suggestion of a new integration sent to the platform (`POST /integrations/suggestions`). */
export const integrationSuggestions = pgTable(
  'integration_suggestions',
  {
    id: id(),
    schoolId: integer().references(() => schools.id, { onDelete: 'cascade' }),
    name: text(),
    description: text(),
    url: text(),
    createdByTokenId: integer().references(() => apiTokens.id, { onDelete: 'set null' }),
    createdAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    indexOn(t.schoolId),
    indexOn(t.createdByTokenId),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
