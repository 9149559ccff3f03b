import { boolean, integer, pgEnum, text } from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.js';
import { indexOn, orderedIndex } from '../../db/indexes.js';
import { schoolTable } from '../../db/tables.js';
import { media } from '../media/media.table.js';

export const extraContentResourceType = pgEnum('extra_content_resource_type', ['Lesson', 'Course', 'SchoolProduct']);

/**
 * A media attached to a lesson, course or school product (downloadable material and the like).
 * `resourceType`/`resourceId` is polymorphic, so it has no foreign key: the service checks that
 * the resource exists in the same school.
 */
export const extraContents = schoolTable(
  'extra_contents',
  {
    resourceType: extraContentResourceType().notNull().default('Lesson'),
    resourceId: integer().notNull(),
    mediaId: belongsTo(() => media.id),
    order: integer().notNull(),
    downloadable: boolean().notNull().default(false),
    available: boolean().notNull().default(false),
    title: text(),
  },
  (t) => [
    orderedIndex(t.schoolId, t.id),
    indexOn(t.resourceType, t.resourceId, t.order),
    indexOn(t.mediaId),
  ],
);

export type ExtraContentRow = typeof extraContents.$inferSelect;
