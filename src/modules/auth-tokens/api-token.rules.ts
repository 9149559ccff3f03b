import { and, eq } from 'drizzle-orm';
import type { Role } from '../../auth/credential.js';
import { writeSchool } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';
import { idOrNull } from '../../graphql/ids.js';
import { Checks } from '../../graphql/validation.js';
import { schools } from '../../db/school.table.js';
import { personalDataErasures } from '../privacy/privacy.table.js';
import { users } from '../users/user.table.js';

/** The person type a role's token may act as (an app acts as no one). */
const personOf: Partial<Record<Role, 'Admin' | 'Collaborator' | 'Student'>> = { admin: 'Admin', collaborator: 'Collaborator', student: 'Student' };

type GrantInput = { role: string; schoolId?: number | string | null; userId?: number | string | null; label?: string | null; expiresAt?: Date | null };

/**
 * The grant a caller may ask for: the platform any (it names the school); a school's admin only of
 * its own school (the school by default; another school's is not found) and never a platform token
 * (checkGrant refuses that role, with whatever else is wrong).
 */
export function grantOfCaller(ctx: Context, input: GrantInput): GrantInput & { byPlatform: boolean } {
  if (ctx.credential?.role === 'platform') return { ...input, byPlatform: true };
  if (input.role === 'platform') return { ...input, byPlatform: false };
  const own = writeSchool(ctx);
  if (input.schoolId != null && idOrNull(input.schoolId) !== own) throw notFound('School');
  return { ...input, schoolId: own, byPlatform: false };
}

/**
 * Checks a grant as the database would take it, naming each wrong field: a platform token has no
 * school, every other role a school that exists, a student token a student, a person only of the
 * school and of the role's type, an expiry in the future; a platform token only for the platform
 * (`byPlatform` false: a school's admin asks). Returns the grant, or throws the UserErrors.
 */
export async function checkGrant(
  tx: Queryable,
  input: GrantInput & { byPlatform?: boolean },
  now: Date,
): Promise<{ role: Role; schoolId: number | null; userId: number | null; label: string | null; expiresAt: Date | null }> {
  const checks = new Checks();
  const role = input.role as Role;
  const schoolId = input.schoolId == null ? null : idOrNull(input.schoolId);
  const userId = input.userId == null ? null : idOrNull(input.userId);
  if (role === 'platform' && input.byPlatform === false) checks.add('role', 'forbidden', 'is the platform’s own: only a platform credential makes platform credentials');
  if (role === 'platform' && input.schoolId != null) checks.add('schoolId', 'present', 'must be blank for a platform token, which spans schools');
  if (role !== 'platform' && input.schoolId == null) checks.add('schoolId', 'blank', "can't be blank: every token but a platform one belongs to a school");
  if (role === 'student' && input.userId == null) checks.add('userId', 'blank', "can't be blank for a student token");
  if ((role === 'platform' || role === 'app') && input.userId != null) checks.add('userId', 'present', `must be blank: ${role} tokens act as no one`);
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) checks.add('expiresAt', 'invalid', 'must be in the future');
  checks.throwIfAny();

  if (input.schoolId != null) {
    const found = schoolId !== null && (await tx.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId))).length > 0;
    if (!found) checks.add('schoolId', 'not_found', `has no school with id ${input.schoolId}`).throwIfAny();
  }
  if (input.userId != null) {
    const type = personOf[role]!;
    const found =
      userId !== null &&
      (await tx.select({ id: users.id }).from(users).where(and(eq(users.id, userId), eq(users.schoolId, schoolId!), eq(users.type, type)))).length > 0;
    if (!found) checks.add('userId', 'not_found', `has no ${type.toLowerCase()} of school ${input.schoolId} with id ${input.userId}`).throwIfAny();
    // An erased person gets no credential again (privacy/).
    if ((await tx.select({ id: personalDataErasures.id }).from(personalDataErasures).where(eq(personalDataErasures.userId, userId!))).length)
      checks.add('userId', 'erased', undefined).throwIfAny();
  }
  return { role, schoolId, userId, label: input.label?.trim() || null, expiresAt: input.expiresAt ?? null };
}
