import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError, forbidden } from '../graphql/errors.js';
import type { Context } from '../graphql/context.js';
import type { Role } from './credential.js';

const NO_ROW = sql`false`;

/**
 * The tenancy condition on a school_id column. It fails closed: no condition only for the platform
 * reading across schools; an anonymous context (or any other) matches no row.
 */
export function inSchool(ctx: Context, column: PgColumn): SQL | undefined {
  if (ctx.schoolId !== null) return eq(column, ctx.schoolId);
  return ctx.tenancy === 'platform' ? undefined : NO_ROW;
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

export function requireRole(ctx: Context, ...roles: Role[]): void {
  if (!hasRole(ctx, ...roles)) throw forbidden();
}

/** Roles that manage a school's content. */
export const STAFF: Role[] = ['platform', 'admin', 'collaborator', 'app'];

