import { eq } from 'drizzle-orm';
import { signToken, verifyToken } from '../../auth/secrets.js';
import { config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { type Checks, isBlank } from '../../graphql/validation.js';
import { schools } from '../../db/school.table.js';
import { schoolDomains } from '../schools/school.table.js';

/**
 * A SCORM launch token: signed with the service's key (every instance verifies any instance's),
 * naming the media, the enrollment (none for a preview), the school and the exit redirect, so
 * none of them can be swapped without breaking the signature.
 */
export interface LaunchClaims {
  use: 'scorm_launch';
  mediaId: number;
  enrollmentId: number | null;
  schoolId: number;
  redirectUri: string;
}

export function launchUri(claims: Omit<LaunchClaims, 'use'>, now: Date): { uri: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + config.scormLaunchTtlSeconds * 1000);
  const token = signToken({ use: 'scorm_launch', ...claims }, expiresAt);
  return { uri: `${config.publicUrl}/scorm/launch?token=${encodeURIComponent(token)}`, expiresAt };
}

/** The claims of a launch token this service signed and that has not expired; null otherwise. */
export function readLaunchToken(token: string, now: Date): (LaunchClaims & { expiresAt: Date }) | null {
  const claims = verifyToken(token, now);
  if (!claims || claims.use !== 'scorm_launch' || typeof claims.mediaId !== 'number' || typeof claims.schoolId !== 'number') return null;
  return { ...(claims as unknown as LaunchClaims), expiresAt: new Date((claims.exp as number) * 1000) };
}

/** The hosts of a school: `<subdomain>.<SCHOOLS_BASE_DOMAIN>` and its own domains (one statement). */
async function schoolHosts(db: Queryable, schoolId: number): Promise<string[]> {
  const rows = await db
    .select({ subdomain: schools.subdomain, domain: schoolDomains.domain })
    .from(schools)
    .leftJoin(schoolDomains, eq(schoolDomains.schoolId, schools.id))
    .where(eq(schools.id, schoolId));
  if (!rows.length) return [];
  const hosts = [`${rows[0].subdomain}.${config.schoolsBaseDomain}`, ...rows.map((r) => r.domain).filter((d): d is string => !!d)];
  return hosts.map((h) => h.toLowerCase().replace(/\.$/, ''));
}

/**
 * The redirect of a launch: an absolute http(s) URL on one of the school's hosts or a subdomain of
 * one, so a launch link cannot send a learner anywhere else (no open redirect). Also the `returnTo`
 * of a single sign-on (modules/sso/), named by `field`.
 */
export async function checkRedirectUri(db: Queryable, checks: Checks, schoolId: number, value: string | null | undefined, field = 'redirectUri'): Promise<string | null> {
  if (isBlank(value)) {
    checks.add(field, 'blank');
    return null;
  }
  let url: URL;
  try {
    url = new URL(value!.trim());
  } catch {
    checks.add(field, 'invalid', 'must be an absolute http(s) URL');
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    checks.add(field, 'invalid', 'must be an http(s) URL');
    return null;
  }
  if (url.username || url.password) {
    checks.add(field, 'invalid', 'must not carry a user name or password');
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const hosts = await schoolHosts(db, schoolId);
  if (!hosts.some((h) => host === h || host.endsWith(`.${h}`))) {
    checks.add(field, 'foreign_host', `must be on one of the school's domains (${hosts.join(', ')})`);
    return null;
  }
  return url.toString();
}
