import 'reflect-metadata';
import { or, eq, like, sql } from 'drizzle-orm';
import { Arg, Ctx, Extensions, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { issueToken } from '../../auth/credential.js';
import { hashPassword } from '../../auth/password.js';
import type { Queryable } from '../../db/client.js';
import { lockKey } from '../../db/locks.js';
import { ACTS_ACROSS_SCHOOLS, type Context } from '../../graphql/context.js';
import { domainErrorType, type UserError } from '../../graphql/errors.js';
import { mutate } from '../../graphql/mutation.js';
import { Checks } from '../../graphql/validation.js';
import { libraries } from '../library/library.table.js';
import { Library } from '../library/library.type.js';
import { forums } from '../forums/forum.table.js';
import { Forum } from '../forums/forum.type.js';
import { users } from '../users/user.table.js';
import { SchoolWizardInput } from './school.input.js';
import { applySchoolEvent, RESERVED_SUBDOMAINS } from './school.rules.js';
import { organizations, schools } from '../../db/school.table.js';
import { Organization, School } from './school.type.js';

@ObjectType({ description: "The wizard's admin, with a credential of the new school." })
export class WizardAdmin {
  @Field(() => ID) id!: number;
  @Field(() => String) fullName!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { description: 'A new admin token of the school: shown once, stored only as a digest.' })
  credentials!: string;
}

@ObjectType()
export class SchoolWizardPayload {
  @Field(() => School, { nullable: true }) school!: unknown;
  @Field(() => Organization, { nullable: true }) organization!: unknown;
  @Field(() => Library, { nullable: true }) library!: unknown;
  @Field(() => Forum, { nullable: true }) forum!: unknown;
  @Field(() => WizardAdmin, { nullable: true }) admin!: WizardAdmin | null;
  @Field(() => [domainErrorType('School')]) errors!: UserError[];
}

const MIN_PASSWORD = 8;

/** `Escola São João!` → `escola-sao-joao`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
  return slug || 'school';
}

/** The slug itself when free and not reserved, else the slug with the first free numeric suffix. */
async function freeSubdomain(tx: Queryable, base: string): Promise<string> {
  // Wizards naming schools alike wait here, so each sees the subdomains the earlier ones took.
  await lockKey(tx, 'school-subdomain', base);
  const taken = await tx
    .select({ subdomain: sql<string>`lower(${schools.subdomain})` })
    .from(schools)
    .where(or(eq(sql`lower(${schools.subdomain})`, base), like(sql`lower(${schools.subdomain})`, `${base}-%`)));
  const used = new Set(taken.map((t) => t.subdomain));
  if (!used.has(base) && !RESERVED_SUBDOMAINS.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

@Resolver()
export class SchoolWizardResolver {
  // It acts on no existing school: the platform's X-School-Id does not narrow what it returns (the new school's forum, library, admin).
  @Extensions(ACTS_ACROSS_SCHOOLS)
  @Mutation(() => SchoolWizardPayload, {
    description: 'Creates a school in trial with its organization, first admin, library and forum, in one transaction.',
  })
  async schoolWizard(@Arg('input', () => SchoolWizardInput) input: SchoolWizardInput, @Ctx() ctx: Context) {
    const result = await mutate(ctx, 'created', async (tx) => {
      const checks = new Checks().required('name', input.name).required('email', input.email).required('password', input.password);
      if (input.password && input.password.length < MIN_PASSWORD)
        checks.add('password', 'too_short', undefined, MIN_PASSWORD);
      checks.throwIfAny();
      const name = input.name!.trim();
      const email = input.email!.trim().toLowerCase();
      const [organization] = await tx.insert(organizations).values({ name }).returning();
      const subdomain = await freeSubdomain(tx, slugify(name));
      const [created] = await tx.insert(schools).values({ name, subdomain, email, organizationId: organization.id }).returning();
      const status = await applySchoolEvent(tx, created, 'try_out', 'platform');
      const [school] = await tx.update(schools).set({ status }).where(eq(schools.id, created.id)).returning();
      const [admin] = await tx
        .insert(users)
        .values({ schoolId: school.id, type: 'Admin', fullName: name, email, passwordHash: await hashPassword(input.password!) })
        .returning();
      const [library] = await tx.insert(libraries).values({ schoolId: school.id, name }).returning();
      const [forum] = await tx.insert(forums).values({ schoolId: school.id, title: name }).returning();
      const credentials = await issueToken(tx, { role: 'admin', schoolId: school.id, userId: admin.id, label: 'wizard' });
      return {
        school,
        organization,
        library,
        forum,
        admin: { id: admin.id, fullName: admin.fullName, email: admin.email, credentials },
      };
    });
    const created = result.created as Record<string, unknown> | null;
    return { ...(created ?? { school: null, organization: null, library: null, forum: null, admin: null }), errors: result.errors };
  }
}
