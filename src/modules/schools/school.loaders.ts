import { asc, inArray } from 'drizzle-orm';
import { defineLoader } from '../../graphql/context.js';
import { organizations, schoolDomains, schools } from './school.table.js';

/** Domains of each school, in the order they were given. */
export const domainsOfSchool = defineLoader<number, string[]>('school.domains', async (ctx, schoolIds) => {
  const rows = await ctx.db
    .select({ schoolId: schoolDomains.schoolId, domain: schoolDomains.domain })
    .from(schoolDomains)
    .where(inArray(schoolDomains.schoolId, [...schoolIds]))
    .orderBy(asc(schoolDomains.position));
  const bySchool = new Map<number, string[]>();
  for (const r of rows) bySchool.set(r.schoolId, [...(bySchool.get(r.schoolId) ?? []), r.domain]);
  return schoolIds.map((id) => bySchool.get(id) ?? []);
});

export const organizationById = defineLoader<number, typeof organizations.$inferSelect | null>(
  'organization.byId',
  async (ctx, ids) => {
    const rows = await ctx.db.select().from(organizations).where(inArray(organizations.id, [...ids]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  },
);

/** Schools by id as the caller may see them: any for a platform credential, else only its own. */
export const schoolById = defineLoader<number, typeof schools.$inferSelect | null>('school.byId', async (ctx, ids) => {
  const visible = ctx.schoolId === null ? [...ids] : ids.filter((id) => id === ctx.schoolId);
  const rows = visible.length ? await ctx.db.select().from(schools).where(inArray(schools.id, visible)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
});
