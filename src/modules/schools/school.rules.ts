import type { Role } from '../../auth/credential.js';
import type { Queryable } from '../../db/client.js';
import { Checks } from '../../graphql/validation.js';
import { emitEvent } from '../events/events.js';
import type { CreateSchoolInput, UpdateSchoolInput } from './school.input.js';
import type { SchoolStatus } from '../../db/school.table.js';
import { mayFireSchoolEvent, nextSchoolStatus, type SchoolEvent } from '../../auth/school-lifecycle.js';
import { schoolStatusChanges } from './school.table.js';

/** The rules of a school shared by its resolvers (school.resolver.ts, school-wizard.resolver.ts). */

const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** Subdomains no school may have (checked on create and update; the wizard skips them). */
export const RESERVED_SUBDOMAINS = new Set(['www', 'api', 'admin', 'app', 'mail', 'static', 'assets']);

/** Checks a school's fields; `creating` makes the required ones required. */
export function checkSchool(input: CreateSchoolInput | UpdateSchoolInput, creating: boolean): Checks {
  const checks = new Checks();
  if (creating) checks.required('name', input.name).required('subdomain', input.subdomain);
  else checks.notCleared('name', input.name).notCleared('subdomain', input.subdomain);
  if (input.subdomain) {
    const sub = input.subdomain.trim().toLowerCase();
    if (!SUBDOMAIN.test(sub)) checks.add('subdomain', 'invalid', 'may hold only letters, digits and inner hyphens');
    else if (RESERVED_SUBDOMAINS.has(sub)) checks.add('subdomain', 'exclusion', 'is reserved');
  }
  const domains = (input.domains ?? []).map((d) => d.trim().toLowerCase());
  domains.forEach((d, i) => {
    if (!DOMAIN.test(d)) checks.add('domains', 'invalid', `${JSON.stringify(d)} (item ${i}) is not a domain name`);
  });
  if (new Set(domains).size !== domains.length) checks.add('domains', 'invalid', 'lists a domain twice');
  checks.notCleared('timeZone', input.timeZone);
  if (input.timeZone && !isTimeZone(input.timeZone)) checks.add('timeZone', 'invalid', 'is not an IANA time zone (America/Sao_Paulo, UTC)');
  return checks;
}

/**
 * Applies an event fired by `role`, records the change, and returns the new state (or throws a
 * UserError: 422 for a move the lifecycle has not, 403 for one this role may not make).
 */
export async function applySchoolEvent(tx: Queryable, school: { id: number; status: SchoolStatus }, event: SchoolEvent, role: Role) {
  const to = nextSchoolStatus(school.status, event);
  if (!to) {
    new Checks().add('event', 'invalid_transition', `${event} cannot happen to a school that is ${school.status}`).throwIfAny();
  }
  if (!mayFireSchoolEvent(role, school.status, event)) {
    new Checks().add('event', 'forbidden', `only the platform may apply ${event} to a school that is ${school.status}`).throwIfAny();
  }
  await tx.insert(schoolStatusChanges).values({ schoolId: school.id, event, fromStatus: school.status, toStatus: to! });
  await emitEvent(tx, {
    schoolId: school.id,
    name: 'school.status_changed',
    subjectType: 'School',
    subjectId: school.id,
    payload: { event, from: school.status, to: to! },
  });
  return to!;
}

/** An IANA zone name both JavaScript and PostgreSQL know (`Area/City`, or UTC): no offsets or abbreviations, whose meaning differs between them. */
function isTimeZone(zone: string): boolean {
  if (zone !== 'UTC' && !/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
