import type { Queryable } from '../../db/client.js';
import { checkedPolymorphicType, existingId, polymorphicType } from '../../graphql/references.js';
import { Checks, isBlank } from '../../graphql/validation.js';
import { courses, lessons } from '../courses/course.table.js';
import { media } from '../media/media.table.js';
import { schoolProducts } from '../school-products/school-product.table.js';
import type { ExtraContentInput } from './extra-content.input.js';
import type { ExtraContentResourceType } from './extra-content.loaders.js';
import { extraContentResourceType, type ExtraContentRow, extraContents } from './extra-content.table.js';

export const RESOURCE_TYPES = extraContentResourceType.enumValues;
const resourceTables = { Lesson: lessons, Course: courses, SchoolProduct: schoolProducts } as const;

/** `SchoolProduct`, `school_product`, `lesson` and the like; null for anything else. */
export const resourceTypeOf = (value: string): ExtraContentResourceType | null => polymorphicType(value, RESOURCE_TYPES);

/**
 * Checks a create (no `current`) or an update as the extra content will be after it, and returns
 * the columns to write. The resource (type and id as they will be) must be a row of the school,
 * the media a media of the school.
 */
export async function checkExtraContent(tx: Queryable, schoolId: number, input: ExtraContentInput, current?: ExtraContentRow) {
  const checks = new Checks();
  const required = ['resourceId', 'mediaId', 'order', 'downloadable', 'available'] as const;
  for (const field of required) checks.present(!current, field, input[field]);
  // resource_type defaults to Lesson on create; on update a given one may not be cleared.
  if (current) checks.notCleared('resourceType', input.resourceType);
  checks.range('order', input.order, 0);

  let resourceType: ExtraContentResourceType | null = current?.resourceType ?? 'Lesson';
  if (!isBlank(input.resourceType)) resourceType = checkedPolymorphicType(checks, 'resourceType', input.resourceType!, RESOURCE_TYPES);
  const resourceChanges = !isBlank(input.resourceType) || !isBlank(input.resourceId);
  const rawResourceId = isBlank(input.resourceId) ? current?.resourceId : input.resourceId;
  let resourceId: number | null = null;
  if (resourceChanges && resourceType && rawResourceId !== undefined && rawResourceId !== null) {
    const before = checks.errors.length;
    resourceId = await existingId(tx, checks, 'resourceId', resourceTables[resourceType], rawResourceId, schoolId);
    if (checks.errors.length > before) checks.errors[checks.errors.length - 1].message = `has no ${resourceType} of this school with id ${rawResourceId}`;
  }
  const mediaId = isBlank(input.mediaId) ? null : await existingId(tx, checks, 'mediaId', media, input.mediaId, schoolId);
  checks.throwIfAny();

  const values: Partial<typeof extraContents.$inferInsert> = {};
  if (resourceChanges) Object.assign(values, { resourceType: resourceType!, resourceId: resourceId! });
  if (mediaId !== null) values.mediaId = mediaId;
  if (input.order !== undefined && input.order !== null) values.order = input.order;
  if (input.downloadable !== undefined && input.downloadable !== null) values.downloadable = input.downloadable;
  if (input.available !== undefined && input.available !== null) values.available = input.available;
  if (input.title !== undefined) values.title = input.title === null ? null : input.title.trim() || null;
  return values;
}
