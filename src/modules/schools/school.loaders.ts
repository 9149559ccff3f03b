import { and, asc, eq, getTableColumns } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { inSchool, inSchoolScope } from '../../auth/tenancy.js';
import { defineLoader } from '../../graphql/context.js';
import { organizations, schools } from '../../db/school.table.js';
import { schoolDomains } from './school.table.js';

/** Domains of each school, in the order they were given. */
export const domainsOfSchool = defineLoader<number, string[]>('school.domains', async (ctx, schoolIds) => {
  const rows = await ctx.db
    .select({ schoolId: schoolDomains.schoolId, domain: schoolDomains.domain })
    .from(schoolDomains)
    .where(and(inList(schoolDomains.schoolId, [...schoolIds]), inSchool(ctx, schoolDomains.schoolId)))
    .orderBy(asc(schoolDomains.position));
  const bySchool = new Map<number, string[]>();
  for (const r of rows) bySchool.set(r.schoolId, [...(bySchool.get(r.schoolId) ?? []), r.domain]);
  return schoolIds.map((id) => bySchool.get(id) ?? []);
});

export const organizationById = defineLoader<number, typeof organizations.$inferSelect | null>(
  'organization.byId',
  async (ctx, ids) => {
    // An organization is read through a school the caller may see (organizations have no school of their own).
    const rows = await ctx.db
      .selectDistinct(getTableColumns(organizations))
      .from(organizations)
      .innerJoin(schools, eq(schools.organizationId, organizations.id))
      .where(and(inList(organizations.id, [...ids]), inSchool(ctx, schools.id)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  },
);

/** Schools by id as the caller may see them: any for a platform credential, else only its own. */
export const schoolById = defineLoader<number, typeof schools.$inferSelect | null>('school.byId', async (ctx, ids) => {
  const visible = ids.filter((id) => inSchoolScope(ctx, id));
  const rows = visible.length ? await ctx.db.select().from(schools).where(inList(schools.id, visible)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
});
