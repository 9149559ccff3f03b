import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo, tstz } from '../../db/columns.js';
import { childRowIndexes, indexOn, orderedIndex } from '../../db/indexes.js';
import { linkTable, schoolTable } from '../../db/tables.js';
import { categories, libraryResources } from '../library/library.table.js';
import { media } from '../media/media.table.js';
import { users } from '../users/user.table.js';

export const availableTimeType = pgEnum('available_time_type', ['time', 'date']);
export const availableTimeUnit = pgEnum('available_time_unit', ['days', 'weeks', 'months', 'years']);
export const productMaxAttendanceType = pgEnum('product_max_attendance_type', ['time', 'attempts']);
/**
 * What earns a product's certificate (README, "Progress and certificates"): `completion` of the whole
 * product, drip-locked lessons included (the default), or `released_progress`, the progress of what is
 * released so far (the older rule: a certificate before the last lessons open).
 */
export const certificateRule = pgEnum('certificate_rule', ['completion', 'released_progress']);

export const schoolProducts = schoolTable(
  'school_products',
  {
    title: text().notNull(),
    description: text(),
    subtitle: text(),
    logo: text(),
    videoUrl: text(),
    videoTitle: text(),
    videoDescription: text(),
    published: boolean().notNull().default(false),
    hidden: boolean().notNull().default(false),
    restricted: boolean().notNull().default(false),
    certification: boolean().notNull().default(false),
    classesAutoGeneration: boolean().notNull().default(false),
    certificationMinProgress: integer(),
    certificateRule: certificateRule().notNull().default('completion'),
    metaTitle: text(),
    metaDescription: text(),
    metaKeys: text(),
    availableTimeType: availableTimeType(),
    availableTimeLength: integer(),
    availableTimeUnit: availableTimeUnit(),
    expireDate: tstz(),
    libraryResourceId: integer().references(() => libraryResources.id, { onDelete: 'restrict' }),
    maxAttendanceType: productMaxAttendanceType(),
    maxAttendanceLength: integer(),
    allowedEmails: text(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.libraryResourceId),
    check('school_products_certification_min_progress_range', sql`${t.certificationMinProgress} between 0 and 100`),
    check('school_products_available_time_length_positive', sql`${t.availableTimeLength} > 0`),
    check('school_products_max_attendance_length_positive', sql`${t.maxAttendanceLength} > 0`),
  ],
);

export const schoolProductTopics = schoolTable(
  'school_product_topics',
  {
    schoolProductId: belongsTo(() => schoolProducts.id),
    title: text().notNull(),
    description: text().notNull(),
  },
  (t) => childRowIndexes(t, t.schoolProductId),
);

export const schoolProductCategories = linkTable(
  'school_product_categories',
  { schoolProductId: () => schoolProducts.id, categoryId: () => categories.id },
);

export const schoolProductGalleryMedia = linkTable(
  'school_product_gallery_media',
  { schoolProductId: () => schoolProducts.id, mediaId: () => media.id },
  { position: integer().notNull() },
);

/** Collaborators teaching the classes generated for a product. */
export const schoolProductClassTeachers = linkTable(
  'school_product_class_teachers',
  { schoolProductId: () => schoolProducts.id, userId: () => users.id },
);
