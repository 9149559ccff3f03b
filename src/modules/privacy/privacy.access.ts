import { accessOf, MANAGERS, type ModuleRules, type Rule } from '../../auth/role-matrix.js';
import type { RequestAccess } from '../../auth/tenancy.js';

/**
 * The privacy module's rows of the role matrix, apart from its declaration because its resolver
 * reads them (`ownPersonFor`). A person exports and erases itself; the school's managers anyone
 * of their school. Not apps: an integration has no business with a person's whole file.
 */
const SELF_AND_MANAGERS: Rule = { ...MANAGERS, collaborator: 'own', student: 'own' };

export const privacyRows: Readonly<Record<string, Rule>> = {
  'Query.exportPerson': SELF_AND_MANAGERS,
  'Mutation.erasePerson': SELF_AND_MANAGERS,
};

export const privacyRules = { operations: { people: privacyRows } } satisfies ModuleRules;

/**
 * The one person the caller may reach through `operation` when its role has only `own` access
 * (its own user; 0, no one, for a credential bound to none), else null: anyone of the school.
 */
export function ownPersonFor(access: Pick<RequestAccess, 'credential'>, operation: string): number | null {
  const credential = access.credential;
  if (!credential || accessOf(privacyRows[operation], credential.role) !== 'own') return null;
  return credential.userId ?? 0;
}
