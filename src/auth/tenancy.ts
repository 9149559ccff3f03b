import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../graphql/errors.js';
import type { Context } from '../graphql/context.js';
import type { Role } from './credential.js';

const NO_ROW = sql`false`;

/**
 * The tenancy condition on a school_id column. It fails closed: no condition only for the platform
 * reading across schools; an anonymous context (or any other) matches no row.
 */
export function inSchool(ctx: Context, column: PgColumn): SQL | undefined {
  const scope = schoolScope(ctx);
  return scope === 'all' ? undefined : scope === 'none' ? NO_ROW : eq(column, scope);
}

/** The rows a context reads, as `inSchool` decides: one school's, every school's (the platform across schools) or none. */
export function schoolScope(ctx: Context): number | 'all' | 'none' {
  if (ctx.schoolId !== null) return ctx.schoolId;
  return ctx.tenancy === 'platform' ? 'all' : 'none';
}

/** `inSchool` for a row already read (a subscription's shared row): whether a row of school `schoolId` is in the context's scope. */
export function inSchoolScope(ctx: Context, schoolId: number): boolean {
  const scope = schoolScope(ctx);
  return scope === 'all' || scope === schoolId;
}

/** The school a write goes to. A platform credential must name it (`X-School-Id`). */
export function writeSchool(ctx: Context): number {
  if (ctx.schoolId !== null) return ctx.schoolId;
  throw new AppError(
    'bad_request',
    'A platform credential acts on one school at a time: name it with the X-School-Id header',
  );
}

/**
 * A student credential acts for one student: its id (0 when the credential names none, which
 * matches no row), else null: every other role sees the school's rows.
 */
export function ownStudentId(ctx: Context): number | null {
  if (ctx.credential?.role !== 'student') return null;
  return ctx.credential.userId ?? 0;
}

export function hasRole(ctx: Context, ...roles: Role[]): boolean {
  return !!ctx.credential && roles.includes(ctx.credential.role);
}

/** Roles that manage a school's content. */
export const STAFF: Role[] = ['platform', 'admin', 'collaborator', 'app'];

/**
 * The acts that make a school (createSchool, schoolWizard) act on no existing school: for a
 * platform credential, X-School-Id does not narrow what they return (the new school's forum,
 * library, admin), so the rest of the request reads as the platform, across schools.
 */
export function actAcrossSchools(ctx: Context): void {
  if (ctx.credential?.role !== 'platform' || ctx.tenancy === 'platform') return;
  // Apollo hands resolvers a shallow copy of the context; the loaders' batches read the original.
  for (const scope of [ctx, ctx.loaders.context()]) {
    scope.schoolId = null;
    scope.tenancy = 'platform';
  }
  ctx.loaders.clearAll();
}
