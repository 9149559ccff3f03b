import { and, asc, eq, or } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool } from '../../auth/tenancy.js';
import { defineLoader } from '../../graphql/context.js';
import { byIdLoader } from '../../graphql/loaders.js';
import { extraContentResourceType, type ExtraContentRow, extraContents } from './extra-content.table.js';

export type ExtraContentResourceType = (typeof extraContentResourceType.enumValues)[number];
export type ResourceKey = { resourceType: ExtraContentResourceType; resourceId: number };

export const extraContentById = byIdLoader('extraContent.byId', extraContents);

/**
 * Every extra content of each resource (Lesson, Course or SchoolProduct), ordered by `order` then id:
 * one statement for a batch of resources of any types. Visibility (available only) is the field's to apply.
 */
export const extraContentsOfResource = defineLoader<ResourceKey, ExtraContentRow[]>(
  'extraContent.ofResource',
  async (ctx, keys) => {
    const byType = extraContentResourceType.enumValues
      .map((type) => [type, [...new Set(keys.filter((k) => k.resourceType === type).map((k) => k.resourceId))]] as const)
      .filter(([, ids]) => ids.length > 0);
    const rows = await ctx.db
      .select()
      .from(extraContents)
      .where(
        and(
          inSchool(ctx, extraContents.schoolId),
          or(...byType.map(([type, ids]) => and(eq(extraContents.resourceType, type), inList(extraContents.resourceId, ids)))),
        ),
      )
      .orderBy(asc(extraContents.order), asc(extraContents.id));
    const byResource = new Map<string, ExtraContentRow[]>();
    for (const row of rows) {
      const key = `${row.resourceType}:${row.resourceId}`;
      const list = byResource.get(key);
      if (list) list.push(row);
      else byResource.set(key, [row]);
    }
    return keys.map((k) => byResource.get(`${k.resourceType}:${k.resourceId}`) ?? []);
  },
  (key) => `${key.resourceType}:${key.resourceId}`,
);
