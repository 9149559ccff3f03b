import { boolean, index, integer, pgEnum, pgTable, text } from 'drizzle-orm/pg-core';
import { belongsTo, id, timestamps } from '../../db/columns.js';
import { schoolRef } from '../schools/school.table.js';
import { media } from '../media/media.table.js';

export const extraContentResourceType = pgEnum('extra_content_resource_type', ['Lesson', 'Course', 'SchoolProduct']);

/**
 * A media attached to a lesson, course or school product (downloadable material and the like).
 * `resourceType`/`resourceId` is polymorphic, so it has no foreign key: the service checks that
 * the resource exists in the same school.
 */
export const extraContents = pgTable(
  'extra_contents',
  {
    id: id(),
    schoolId: schoolRef(),
    resourceType: extraContentResourceType().notNull().default('Lesson'),
    resourceId: integer().notNull(),
    mediaId: belongsTo(() => media.id),
    order: integer().notNull(),
    downloadable: boolean().notNull().default(false),
    available: boolean().notNull().default(false),
    title: text(),
    ...timestamps,
  },
  (t) => [
    index('extra_contents_school_id_idx').on(t.schoolId, t.id),
    index('extra_contents_resource_type_resource_id_order_idx').on(t.resourceType, t.resourceId, t.order),
    index('extra_contents_media_id_idx').on(t.mediaId),
  ],
);

export type ExtraContentRow = typeof extraContents.$inferSelect;
