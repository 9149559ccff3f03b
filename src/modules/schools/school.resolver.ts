import 'reflect-metadata';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { askedColumns } from '../../graphql/asked-columns.js';
import { builtOnce, narrowedTo, narrowedVariants } from '../../graphql/loaders.js';
import { writeOnlySecret } from '../../auth/secrets.js';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/client.js';
import { ACTS_ACROSS_SCHOOLS, type Context } from '../../graphql/context.js';
import { AppError, notFound } from '../../graphql/errors.js';
import { given, parseId } from '../../graphql/ids.js';
import { mutate, Payload, uniqueConstraintField } from '../../graphql/mutation.js';
import { paginate } from '../../graphql/pagination.js';
import { RelationFields } from '../../graphql/relations.js';
import type { Checks } from '../../graphql/validation.js';
import { users } from '../users/user.table.js';
import { CreateSchoolInput, SchoolsArgs, UpdateSchoolInput } from './school.input.js';
import { domainsOfSchool, organizationById } from './school.loaders.js';
import { applySchoolEvent, checkSchool } from './school.rules.js';
import { schools } from '../../db/school.table.js';
import { schoolDomains } from './school.table.js';
import { Organization, School, SchoolConnection } from './school.type.js';
import { inSchool, schoolScope } from '../../auth/tenancy.js';
import { credentialsChanged } from '../../auth/credential-cache.js';

type SchoolRow = typeof schools.$inferSelect;

export const SchoolPayload = Payload(School, 'school');
uniqueConstraintField('schools_subdomain_key', 'subdomain');
uniqueConstraintField('school_domains_domain_key', 'domains');

/** Replaces a school's domains with `domains` (normalised), keeping their order. */
export async function setSchoolDomains(tx: Queryable, schoolId: number, domains: string[]) {
  await tx.delete(schoolDomains).where(eq(schoolDomains.schoolId, schoolId));
  if (domains.length)
    await tx.insert(schoolDomains).values(domains.map((d, position) => ({ schoolId, domain: d.trim().toLowerCase(), position })));
}

/** The user types `schools(email, type)` looks up (GET /schools?email=&type=). */
const SCHOOL_MEMBER_TYPES: readonly string[] = ['Student', 'Collaborator'];

/** Which schools a credential may see: all for a platform credential, else its own. */
function visibleSchools(ctx: Context): SQL | undefined {
  return inSchool(ctx, schools.id);
}

/** One school by id (the placeholder `id`), built once: every column, or only some (askedColumns) with the id. */
const oneSchool = (name: string, selected?: Record<string, PgColumn>) =>
  builtOnce((db) => (selected ? db.select(selected) : db.select()).from(schools).where(eq(schools.id, sql.placeholder('id'))).prepare(name));
const schoolOne = Object.assign(oneSchool('school.one'), { narrowed: narrowedVariants('school.one', schools, ['id'], oneSchool) });

/** The columns the computed fields of a school read, that `school(id)` reads only the asked columns with. */
const schoolNeeds = { schoolProducts: ['id'], domains: ['id'], organization: ['organizationId'] } as const;

@Resolver(() => School)
@RelationFields<School>({
  domains: { type: () => [String], loader: domainsOfSchool, key: 'id' },
  organization: { type: () => Organization, loader: organizationById, key: 'organizationId', nullable: true },
})
export class SchoolResolver {
  @Query(() => School, { description: "A school: any for a platform credential, otherwise the credential's own." })
  async school(@Arg('id', () => ID) id: string, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    const schoolId = parseId(id, 'School');
    // visibleSchools, before the read: the platform's any school, another credential's own alone.
    const scope = schoolScope(ctx);
    if (scope === 'none' || (scope !== 'all' && scope !== schoolId)) throw notFound('School');
    const columns = askedColumns(info, schools, ['id'], schoolNeeds);
    const [row] = (await narrowedTo(schoolOne, columns)(ctx.db).execute({ id: schoolId })) as SchoolRow[];
    if (!row) throw notFound('School');
    return row;
  }

  @Query(() => SchoolConnection)
  async schools(@Args(() => SchoolsArgs) args: SchoolsArgs, @Ctx() ctx: Context) {
    if (!!args.email !== !!args.type) {
      throw new AppError('bad_request', 'email and type go together: give both or neither', [args.email ? 'type' : 'email']);
    }
    // The spec's allowed values for type are Student and Collaborator (UserType also has Admin).
    if (args.type && !SCHOOL_MEMBER_TYPES.includes(args.type)) {
      throw new AppError('bad_request', `type must be one of ${SCHOOL_MEMBER_TYPES.join(', ')}`, ['type']);
    }
    let byUser: SQL | undefined;
    if (args.email && args.type) {
      const members = ctx.db
        .select({ schoolId: users.schoolId })
        .from(users)
        .where(and(eq(users.email, args.email.trim().toLowerCase()), eq(users.type, args.type)));
      byUser = inArray(schools.id, members);
    }
    const bySubdomain = args.subdomain ? sql`lower(${schools.subdomain}) = ${args.subdomain.trim().toLowerCase()}` : undefined;
    return paginate(ctx, schools, and(visibleSchools(ctx), byUser, bySubdomain), args);
  }

  // The write-only tokens read as their hints, under the names they were always read by.
  @FieldResolver(() => String, { nullable: true })
  crmToken(@Root() school: SchoolRow) {
    return school.crmTokenHint;
  }

  @FieldResolver(() => String, { nullable: true })
  videoAccessToken(@Root() school: SchoolRow) {
    return school.videoAccessTokenHint;
  }

  // It acts on no existing school: the platform's X-School-Id does not narrow what it returns.
  @Extensions(ACTS_ACROSS_SCHOOLS)
  @Mutation(() => SchoolPayload)
  createSchool(@Arg('input', () => CreateSchoolInput) input: CreateSchoolInput, @Ctx() ctx: Context) {
    return mutate(ctx, 'school', async (tx) => {
      const checks = checkSchool(input, true);
      const values = schoolColumns(checks, input);
      checks.throwIfAny();
      const [row] = await tx
        .insert(schools)
        .values({ ...values, name: input.name!.trim(), subdomain: input.subdomain!.trim().toLowerCase() })
        .returning();
      if (input.domains) await setSchoolDomains(tx, row.id, input.domains);
      return row;
    });
  }

  @Mutation(() => SchoolPayload, { description: 'Updates a school; `event` moves it to another state.' })
  updateSchool(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateSchoolInput) input: UpdateSchoolInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = parseId(id, 'School');
    return mutate(ctx, 'school', async (tx) => {
      const [current] = await tx
        .select()
        .from(schools)
        .where(and(eq(schools.id, schoolId), visibleSchools(ctx)))
        .for('update');
      if (!current) throw notFound('School');
      const checks = checkSchool(input, false);
      const changes = schoolColumns(checks, input, current);
      checks.throwIfAny();
      if (input.name) changes.name = input.name.trim();
      if (input.subdomain) changes.subdomain = input.subdomain.trim().toLowerCase();
      if (input.event) changes.status = await applySchoolEvent(tx, current, input.event, ctx.credential!.role);
      // Its credentials are gated by the status: every instance drops the ones it cached.
      if (changes.status && changes.status !== current.status) await credentialsChanged(ctx.db, tx);
      if (input.domains) await setSchoolDomains(tx, schoolId, input.domains);
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(schools).set(changes).where(eq(schools.id, schoolId)).returning();
      return row;
    });
  }

  @Mutation(() => SchoolPayload, { description: 'Deletes a school and everything it owns.' })
  deleteSchool(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const schoolId = parseId(id, 'School');
    return mutate(ctx, 'school', async (tx) => {
      const [row] = await tx.delete(schools).where(and(eq(schools.id, schoolId), visibleSchools(ctx))).returning();
      if (!row) throw notFound('School');
      await credentialsChanged(ctx.db, tx);
      return row;
    });
  }
}

/**
 * The columns of a school input (name, subdomain, domains and event are handled apart): the tokens
 * are write-only secrets (auth/secrets.ts), encrypted with a hint; the rest is stored as given.
 */
function schoolColumns(checks: Checks, input: CreateSchoolInput | UpdateSchoolInput, current?: SchoolRow): Partial<typeof schools.$inferInsert> {
  const { name, subdomain, domains, event, crmToken, videoAccessToken, ...rest } = input as UpdateSchoolInput;
  return {
    ...(given(rest) as Partial<typeof schools.$inferInsert>),
    ...writeOnlySecret(checks, 'crmToken', crmToken, current),
    ...writeOnlySecret(checks, 'videoAccessToken', videoAccessToken, current),
  };
}
