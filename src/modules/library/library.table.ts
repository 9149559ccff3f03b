import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';

/** A school's content library (the wizard creates one per school). */
export const libraries = pgTable(
  'libraries',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text().notNull(),
    ...timestamps,
  },
  (t) => [index('libraries_school_id_idx').on(t.schoolId, t.id)],
);

/** An item of a library; media and published school products point at one. */
export const libraryResources = pgTable(
  'library_resources',
  {
    id: id(),
    schoolId: schoolRef(),
    libraryId: belongsTo(() => libraries.id),
    title: text().notNull(),
    kind: text(),
    url: text(),
    ...timestamps,
  },
  (t) => [
    index('library_resources_school_id_idx').on(t.schoolId, t.id),
    index('library_resources_library_id_idx').on(t.libraryId, t.id),
  ],
);

/**
 * Credentials of a media host for a library. The access token is stored encrypted and never
 * returned by the API; only its last characters (the hint) are shown.
 */
export const hostCredentials = pgTable(
  'host_credentials',
  {
    id: id(),
    schoolId: schoolRef(),
    libraryId: belongsTo(() => libraries.id),
    host: text().notNull(),
    accessTokenCiphertext: text(),
    accessTokenHint: text(),
    pids: text(),
    ...timestamps,
  },
  (t) => [
    index('host_credentials_school_id_idx').on(t.schoolId, t.id),
    index('host_credentials_library_id_idx').on(t.libraryId, t.id),
    // One credential per host in a library.
    uniqueIndex('host_credentials_library_id_host_key').on(t.libraryId, sql`lower(${t.host})`),
  ],
);

export const images = pgTable(
  'images',
  {
    id: id(),
    schoolId: schoolRef(),
    url: text().notNull(),
    title: text(),
    contentType: text(),
    width: integer(),
    height: integer(),
    ...timestamps,
  },
  (t) => [
    index('images_school_id_idx').on(t.schoolId, t.id),
    check('images_width_positive', sql`${t.width} > 0`),
    check('images_height_positive', sql`${t.height} > 0`),
  ],
);

/** Product categories, optionally nested. */
export const categories = pgTable(
  'categories',
  {
    id: id(),
    schoolId: schoolRef(),
    name: text().notNull(),
    slug: text(),
    parentId: integer().references((): AnyPgColumn => categories.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('categories_school_id_idx').on(t.schoolId, t.id),
    uniqueIndex('categories_school_id_slug_key').on(t.schoolId, t.slug),
    index('categories_parent_id_idx').on(t.parentId),
  ],
);

export type LibraryRow = typeof libraries.$inferSelect;
export type LibraryResourceRow = typeof libraryResources.$inferSelect;
export type HostCredentialRow = typeof hostCredentials.$inferSelect;
export type ImageRow = typeof images.$inferSelect;
export type CategoryRow = typeof categories.$inferSelect;
