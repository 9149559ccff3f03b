import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps, tstz } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { categories, libraryResources } from '../library/library.table.js';
import { media } from '../media/media.table.js';
import { users } from '../users/user.table.js';

export const availableTimeType = pgEnum('available_time_type', ['time', 'date']);
export const availableTimeUnit = pgEnum('available_time_unit', ['days', 'weeks', 'months', 'years']);
export const productMaxAttendanceType = pgEnum('product_max_attendance_type', ['time', 'attempts']);

export const schoolProducts = pgTable(
  'school_products',
  {
    id: id(),
    schoolId: schoolRef(),
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
    ...timestamps,
  },
  (t) => [
    index('school_products_school_id_idx').on(t.schoolId, t.id),
    index('school_products_library_resource_id_idx').on(t.libraryResourceId),
    check('school_products_certification_min_progress_range', sql`${t.certificationMinProgress} between 0 and 100`),
    check('school_products_available_time_length_positive', sql`${t.availableTimeLength} > 0`),
    check('school_products_max_attendance_length_positive', sql`${t.maxAttendanceLength} > 0`),
  ],
);

export const schoolProductTopics = pgTable(
  'school_product_topics',
  {
    id: id(),
    schoolId: schoolRef(),
    schoolProductId: belongsTo(() => schoolProducts.id),
    title: text().notNull(),
    description: text().notNull(),
    ...timestamps,
  },
  (t) => [
    index('school_product_topics_school_product_id_idx').on(t.schoolProductId, t.id),
    index('school_product_topics_school_id_idx').on(t.schoolId),
  ],
);

export const schoolProductCategories = pgTable(
  'school_product_categories',
  {
    schoolProductId: belongsTo(() => schoolProducts.id),
    categoryId: belongsTo(() => categories.id),
  },
  (t) => [
    primaryKey({ columns: [t.schoolProductId, t.categoryId] }),
    index('school_product_categories_category_id_idx').on(t.categoryId),
  ],
);

export const schoolProductGalleryMedia = pgTable(
  'school_product_gallery_media',
  {
    schoolProductId: belongsTo(() => schoolProducts.id),
    mediaId: belongsTo(() => media.id),
    position: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.schoolProductId, t.mediaId] }),
    index('school_product_gallery_media_media_id_idx').on(t.mediaId),
  ],
);

/** Collaborators teaching the classes generated for a product. */
export const schoolProductClassTeachers = pgTable(
  'school_product_class_teachers',
  {
    schoolProductId: belongsTo(() => schoolProducts.id),
    userId: belongsTo(() => users.id),
  },
  (t) => [
    primaryKey({ columns: [t.schoolProductId, t.userId] }),
    index('school_product_class_teachers_user_id_idx').on(t.userId),
  ],
);
