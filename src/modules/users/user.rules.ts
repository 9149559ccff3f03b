import { accessOf } from '../../auth/role-matrix.js';
import type { Context } from '../../graphql/context.js';
import { Checks } from '../../graphql/validation.js';
import { peopleRows } from './user.access.js';

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
