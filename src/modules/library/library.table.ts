import { sql } from 'drizzle-orm';
import { check, integer, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { indexOn, orderedIndex, uniqueIndexOn } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';

/** A school's content library (the wizard creates one per school). */
export const libraries = schoolTable(
  'libraries',
  {
    name: text().notNull(),
  },
  (t) => [orderedIndex(t.schoolId, t.id)],
);

/** An item of a library; media and published school products point at one. */
export const libraryResources = schoolTable(
  'library_resources',
  {
    libraryId: belongsTo(() => libraries.id),
    title: text().notNull(),
    kind: text(),
    url: text(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    orderedIndex(t.libraryId, t.id),
  ],
);

/**
 * Credentials of a media host for a library. The access token is stored encrypted and never
 * returned by the API; only its last characters (the hint) are shown.
 */
export const hostCredentials = schoolTable(
  'host_credentials',
  {
    libraryId: belongsTo(() => libraries.id),
    host: text().notNull(),
    accessTokenCiphertext: text(),
    accessTokenHint: text(),
    pids: text(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    orderedIndex(t.libraryId, t.id),
    // One credential per host in a library.
    uniqueIndex('host_credentials_library_id_host_key').on(t.libraryId, sql`lower(${t.host})`, t.schoolId),
  ],
);

export const images = schoolTable(
  'images',
  {
    url: text().notNull(),
    title: text(),
    contentType: text(),
    width: integer(),
    height: integer(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    check('images_width_positive', sql`${t.width} > 0`),
    check('images_height_positive', sql`${t.height} > 0`),
  ],
);

/** Product categories, optionally nested. */
export const categories = schoolTable(
  'categories',
  {
    name: text().notNull(),
    slug: text(),
    parentId: integer().references((): AnyPgColumn => categories.id, { onDelete: 'set null' }),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    uniqueIndexOn(t.schoolId, t.slug),
    indexOn(t.parentId),
  ],
);

export type LibraryRow = typeof libraries.$inferSelect;
export type LibraryResourceRow = typeof libraryResources.$inferSelect;
export type HostCredentialRow = typeof hostCredentials.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;
