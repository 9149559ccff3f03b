import { signToken, verifyToken } from '../../auth/secrets.js';
import { config } from '../../config.js';

const DAY_MS = 86_400_000;
/** An unsubscribe link outlives the mail that carries it: people click old mails. */
const UNSUBSCRIBE_TTL_MS = 365 * DAY_MS;
/** The set-password link of an invitation (the templates say 7 days). */
export const SET_PASSWORD_TTL_SECONDS = (7 * DAY_MS) / 1000;

/** The signed one-click unsubscribe token of a person (HMAC with the service's signing key, auth/secrets.ts). */
export const unsubscribeToken = (schoolId: number, userId: number, now = new Date()) =>
  signToken({ purpose: 'mail_unsubscribe', schoolId, userId }, new Date(now.getTime() + UNSUBSCRIBE_TTL_MS));

/** The person an unsubscribe token names, or null for a token this service did not sign for that (or expired). */
export function unsubscribeTarget(token: string, now: Date): { schoolId: number; userId: number } | null {
  const claims = verifyToken(token, now);
  if (!claims || claims.purpose !== 'mail_unsubscribe') return null;
  const { schoolId, userId } = claims;
  return Number.isInteger(schoolId) && Number.isInteger(userId) ? { schoolId: schoolId as number, userId: userId as number } : null;
}

/** RFC 8058's target: a POST to it (body `List-Unsubscribe=One-Click`) unsubscribes with no credential. */
export const unsubscribeUrl = (token: string) => `${config.publicUrl}/mails/unsubscribe?token=${encodeURIComponent(token)}`;

/** The public verification of a certificate (GET /certificates/:code needs no credential). */
export const certificateUrl = (code: string) => `${config.publicUrl}/certificates/${encodeURIComponent(code)}`;

/** The school's own site: its `site`, else `https://<subdomain>.<SCHOOLS_BASE_DOMAIN>`. */
export function schoolSite(school: { site: string | null; subdomain: string }): string {
  const site = school.site?.trim();
  if (site && /^https?:\/\//i.test(site)) return site.replace(/\/+$/, '');
  return `https://${school.subdomain}.${config.schoolsBaseDomain}`;
}

/** The address mails come from (MAIL_FROM's address part; the name is the school's). */
export function fromAddress(): string {
  const match = /<([^>]+)>/.exec(config.mail.from);
  return (match ? match[1] : config.mail.from).trim();
}
