import { normalEmail } from './user.email.js';
import { accessOf } from '../../auth/role-matrix.js';
import type { Context } from '../../graphql/context.js';
import { Checks } from '../../graphql/validation.js';
import { hashPassword } from '../../auth/password.js';
import { peopleRows } from './user.access.js';
import { users } from './user.table.js';
import type { PersonInput } from './user.type.js';

const MIN_PASSWORD = 8;


/**
 * The caller's own user id when the role matrix gives its role only `own` access to `operation`
 * (a student reading `student`, a collaborator updating itself), else null: the whole school.
 * A credential bound to no user then matches no one (0).
 */
export function ownUserFor(ctx: Context, operation: string): number | null {
  const credential = ctx.credential;
  if (!credential || accessOf(peopleRows[operation], credential.role) !== 'own') return null;
  return credential.userId ?? 0;
}

/** Managers set anyone's password; everyone else only their own (never an app's or a collaborator's for others). */
const PASSWORD_MANAGERS = new Set(['platform', 'admin']);

/** A password is set only by the person itself or by a manager: a 403 naming `password` otherwise. */
export function checkPasswordChange(ctx: Context, password: string | null | undefined, targetUserId: number | null, checks?: Checks): void {
  if (password === undefined || password === null) return;
  const credential = ctx.credential;
  const self = targetUserId !== null && credential?.userId === targetUserId;
  if (credential && (PASSWORD_MANAGERS.has(credential.role) || self)) return;
  // Given a collector (a batch), the problem joins the others; alone it is thrown at once.
  const into = checks ?? new Checks();
  into.add('password', 'forbidden', "is set only by the person or by the school's admin");
  if (!checks) into.throwIfAny();
}

/** Adds the problems of a person's input to `checks` (a batch passes each person's own collector). */
export function checkPerson(checks: Checks, input: PersonInput, creating: boolean): void {
  if (creating) checks.required('fullName', input.fullName).required('email', input.email);
  else checks.notCleared('fullName', input.fullName).notCleared('email', input.email);
  if (input.password !== undefined && input.password !== null && input.password.length < MIN_PASSWORD)
    checks.add('password', 'too_short', undefined, MIN_PASSWORD);
  if (input.locale && !/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/i.test(input.locale.trim())) checks.add('locale', 'invalid', 'is not a language tag (pt-BR, en, es)');
}

/** The columns a checked person input writes (e-mail lower-cased, password hashed). */
export async function personColumns(input: PersonInput): Promise<Partial<typeof users.$inferInsert>> {
  const values: Partial<typeof users.$inferInsert> = {};
  if (input.fullName) values.fullName = input.fullName.trim();
  if (input.email) values.email = normalEmail(input.email);
  if (input.password) values.passwordHash = await hashPassword(input.password);
  if (input.document !== undefined) values.document = input.document;
  if (input.phone !== undefined) values.phone = input.phone;
  if (input.locale !== undefined) values.locale = input.locale?.trim() || null;
  return values;
}
