import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SchoolStatus } from '../db/school.table.js';
import { AppError } from '../errors/app-error.js';
import type { Credential, Role } from './credential.js';

/**
 * The one place tenancy is decided. A request's scope is computed once from its credential
 * (`scopeOf`) and never changed: one school's rows, every school's (the platform across schools),
 * or none (no credential). `own` is the person a student credential acts for: it sees only that
 * person's rows. Every rule derives from it: the SQL condition (`inSchool`, `ownRows`), the check of
 * a row already read (`inSchoolScope`: loaders, subscriptions, the output check in egress.ts) and
 * the school a write goes to (`writeSchool`). No other file compares a school id with the request's.
 */
export type Scope = Readonly<({ kind: 'school'; id: number } | { kind: 'all' } | { kind: 'none' }) & { own: number | null }>;

/** What the access layer reads of a request; graphql/context.ts's Context is one. */
export interface RequestAccess {
  readonly credential: Credential | null;
  readonly scope: Scope;
  /** The status of the credential's own school (null for the platform and anonymous): it gates what the credential may do (guard.ts). */
  readonly schoolStatus: SchoolStatus | null;
}

type Scoped = Pick<RequestAccess, 'scope'>;

/** The scope of a request without a credential: it matches no school's rows. */
export const NO_SCOPE: Scope = Object.freeze({ kind: 'none', own: null });
const ACROSS_SCHOOLS: Scope = Object.freeze({ kind: 'all', own: null });

/** PostgreSQL's integer: a school id beyond it names no school. */
const MAX_ID = 2_147_483_647;

/**
 * The scope of a credential: its school, or for the platform every school, or the one it names
 * with `X-School-Id` (`acting`, the header's value). Other roles' `X-School-Id` is ignored.
 */
export function scopeOf(credential: Credential, acting: string | undefined): Scope {
  if (credential.role === 'platform') {
    if (!acting) return ACROSS_SCHOOLS;
    const id = acting.trim();
    if (!/^\d{1,10}$/.test(id) || Number(id) < 1 || Number(id) > MAX_ID) throw new AppError('bad_request', 'X-School-Id must be a school id');
    return Object.freeze({ kind: 'school', id: Number(id), own: null });
  }
  if (credential.schoolId === null) throw new AppError('unauthenticated', 'The credential is not valid');
  // A student credential naming no student (0) matches no row.
  const own = credential.role === 'student' ? (credential.userId ?? 0) : null;
  return Object.freeze({ kind: 'school', id: credential.schoolId, own });
}

/**
 * The scope of an anonymous request that proved it speaks for one school with a signature made with
 * a secret of the school (a payment gateway's callback, signed with its gateway credential's
 * secret): that school's rows, as its own credential would reach them, and no person's.
 */
export const signedSchoolScope = (schoolId: number): Scope => Object.freeze({ kind: 'school', id: schoolId, own: null });

/**
 * The scope of the acts that make a school (createSchool, schoolWizard: graphql/executor.ts runs
 * them in a context of their own): they act on no existing school, so for the platform
 * `X-School-Id` does not narrow what they return (the new school's forum, library, admin). Null:
 * the scope stays as it is.
 */
export function acrossSchools(access: RequestAccess): Scope | null {
  return access.credential?.role === 'platform' && access.scope.kind !== 'all' ? ACROSS_SCHOOLS : null;
}

const NO_ROW = sql`false`;

/**
 * The tenancy condition on a school_id column. It fails closed: no condition only for the platform
 * reading across schools; a request of no school matches no row.
 */
export function inSchool(ctx: Scoped, column: PgColumn): SQL | undefined {
  const { scope } = ctx;
  return scope.kind === 'all' ? undefined : scope.kind === 'none' ? NO_ROW : eq(column, scope.id);
}

/** `inSchool` for a statement prepared once: the school is the placeholder `schoolId`, filled by `schoolScope`. */
export const inSchoolPrepared = (column: PgColumn): SQL => eq(column, sql.placeholder('schoolId'));

/** Which of `inSchool`'s shapes a request takes: the school filling `inSchoolPrepared`'s placeholder, every school's rows, or none. */
export function schoolScope(ctx: Scoped): number | 'all' | 'none' {
  const { scope } = ctx;
  return scope.kind === 'school' ? scope.id : scope.kind;
}

/** `inSchool` for a row already read (a loader's batch, a subscription's shared row, a reply): whether a row of school `schoolId` is in the request's scope. */
export function inSchoolScope(ctx: Scoped, schoolId: number): boolean {
  const { scope } = ctx;
  return scope.kind === 'all' || (scope.kind === 'school' && scope.id === schoolId);
}

/**
 * The school whose rows alone may reach this request's reply (egress.ts' output check), or null
 * when it judges none: the platform may read every school (`X-School-Id` only narrows its reads),
 * and a request of no school is served only public views, which are not checked.
 */
export function guardedSchool(access: RequestAccess): number | null {
  return access.credential?.role === 'platform' ? null : oneSchool(access);
}

/** The one school a request reads and writes, or null (the platform across schools, or no school). */
export function oneSchool(ctx: Scoped): number | null {
  const { scope } = ctx;
  return scope.kind === 'school' ? scope.id : null;
}

/** The school a write goes to. A platform credential must name it (`X-School-Id`). */
export function writeSchool(ctx: Scoped): number {
  const school = oneSchool(ctx);
  if (school !== null) return school;
  throw new AppError('bad_request', 'A platform credential acts on one school at a time: name it with the X-School-Id header');
}

/** `inSchool` for a write: the condition on the school the write goes to (`writeSchool`). */
export function inWriteSchool(ctx: Scoped, column: PgColumn): SQL {
  return eq(column, writeSchool(ctx));
}

/** The person a student credential acts for (0 when it names none, which matches no row), else null: every other role sees the school's rows. */
export function ownStudentId(ctx: Scoped): number | null {
  return ctx.scope.own;
}

/** The `own` condition on a column naming the row's person: none but the student's own rows for a student credential, no condition for any other. */
export function ownRows(ctx: Scoped, column: PgColumn): SQL | undefined {
  const { own } = ctx.scope;
  return own === null ? undefined : eq(column, own);
}

/** `ownRows` for a row already read: whether the row of person `personId` is the request's to see. */
export function isOwn(ctx: Scoped, personId: number | null): boolean {
  const { own } = ctx.scope;
  return own === null || personId === own;
}

export function hasRole(ctx: Pick<RequestAccess, 'credential'>, ...roles: Role[]): boolean {
  return !!ctx.credential && roles.includes(ctx.credential.role);
}

/** Roles that manage a school's content. */
export const STAFF: Role[] = ['platform', 'admin', 'collaborator', 'app'];
