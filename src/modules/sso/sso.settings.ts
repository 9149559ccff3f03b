import { eq } from 'drizzle-orm';
import { writeOnlySecret } from '../../auth/secrets.js';
import { config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { Checks, isHttpUrl } from '../../graphql/validation.js';
import { refusedWebhookUrl } from '../webhooks/webhook.http.js';
import type { SsoSettingsInput } from './sso.input.js';
import { ssoSettings, type SsoSettingsRow } from './sso.table.js';
import type { SsoSettings } from './sso.type.js';

/** HS256 takes a key of at least 256 bits (RFC 7518 §3.2): 32 characters. */
export const MIN_JWT_SECRET = 32;
const MAX_TEXT = 500;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export async function settingsRowOf(db: Queryable, schoolId: number): Promise<SsoSettingsRow | null> {
  const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.schoolId, schoolId)).limit(1);
  return row ?? null;
}

export const domainsOf = (row: Pick<SsoSettingsRow, 'allowedEmailDomains'> | null): string[] =>
  row?.allowedEmailDomains ? row.allowedEmailDomains.split(',').filter(Boolean) : [];

/** The audience a school's JWT must name: its own, else the service's public URL. */
export const jwtAudienceOf = (row: Pick<SsoSettingsRow, 'jwtAudience'> | null): string => row?.jwtAudience || config.publicUrl;

export const oidcConfigured = (row: SsoSettingsRow | null): row is SsoSettingsRow & { oidcIssuer: string; oidcClientId: string; oidcClientSecretCiphertext: string } =>
  !!row?.oidcIssuer && !!row.oidcClientId && !!row.oidcClientSecretCiphertext;

/** What a reply shows of a school's settings (a school without a row shows the defaults): never a secret. */
export function settingsView(schoolId: number, row: SsoSettingsRow | null): SsoSettings {
  return {
    schoolId,
    oidcIssuer: row?.oidcIssuer ?? null,
    oidcClientId: row?.oidcClientId ?? null,
    hasOidcClientSecret: !!row?.oidcClientSecretCiphertext,
    oidcClientSecretHint: row?.oidcClientSecretHint ?? null,
    oidcRedirectUri: row?.oidcRedirectUri ?? null,
    oidcEnabled: oidcConfigured(row),
    jwtEnabled: row?.jwtEnabled ?? false,
    hasJwtSecret: !!row?.jwtSecretCiphertext,
    jwtSecretHint: row?.jwtSecretHint ?? null,
    jwtAudience: jwtAudienceOf(row),
    jwtIssuer: row?.jwtIssuer ?? null,
    allowedEmailDomains: domainsOf(row),
    createMissingStudents: row?.createMissingStudents ?? false,
  };
}

/** undefined: not sent; null: cleared; else the trimmed text (too long: a UserError). */
function optionalText(checks: Checks, field: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const text = value?.trim() ?? '';
  if (text.length > MAX_TEXT) checks.add(field, 'too_long', undefined, MAX_TEXT);
  return text || null;
}

/**
 * The columns an update writes, checked: the issuer an https URL on a public address (unless
 * SSO_ALLOW_INSECURE_ISSUERS), the JWT secret long enough for HS256, JWT SSO enabled only with a
 * secret, domains that are domains.
 */
export async function settingsColumns(input: SsoSettingsInput, current: SsoSettingsRow | null, allowInsecure: boolean): Promise<Partial<typeof ssoSettings.$inferInsert>> {
  const checks = new Checks();
  const values: Partial<typeof ssoSettings.$inferInsert> = {};
  const issuer = optionalText(checks, 'oidcIssuer', input.oidcIssuer);
  if (issuer) {
    const refused = await refusedIssuer(issuer, allowInsecure);
    if (refused) checks.add('oidcIssuer', 'invalid', refused);
  }
  if (issuer !== undefined) values.oidcIssuer = issuer?.replace(/\/+$/, '') ?? null;
  const clientId = optionalText(checks, 'oidcClientId', input.oidcClientId);
  if (clientId !== undefined) values.oidcClientId = clientId;
  const redirectUri = optionalText(checks, 'oidcRedirectUri', input.oidcRedirectUri);
  if (redirectUri && (!isHttpUrl(redirectUri) || new URL(redirectUri).hash)) checks.add('oidcRedirectUri', 'invalid', 'must be an http or https URL without a fragment');
  if (redirectUri !== undefined) values.oidcRedirectUri = redirectUri;
  const audience = optionalText(checks, 'jwtAudience', input.jwtAudience);
  if (audience !== undefined) values.jwtAudience = audience;
  const jwtIssuer = optionalText(checks, 'jwtIssuer', input.jwtIssuer);
  if (jwtIssuer !== undefined) values.jwtIssuer = jwtIssuer;
  if (input.jwtSecret && input.jwtSecret.trim().length < MIN_JWT_SECRET && !input.jwtSecret.startsWith('****'))
    checks.add('jwtSecret', 'too_short', undefined, MIN_JWT_SECRET);
  Object.assign(values, writeOnlySecret(checks, 'oidcClientSecret', input.oidcClientSecret, current ?? undefined));
  Object.assign(values, writeOnlySecret(checks, 'jwtSecret', input.jwtSecret, current ?? undefined));
  if (input.jwtEnabled !== undefined) values.jwtEnabled = input.jwtEnabled ?? false;
  if (input.createMissingStudents !== undefined) values.createMissingStudents = input.createMissingStudents ?? false;
  if (input.allowedEmailDomains !== undefined) {
    const domains = [...new Set((input.allowedEmailDomains ?? []).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
    domains.forEach((d, i) => DOMAIN.test(d) || checks.nested('allowedEmailDomains').add(String(i), 'invalid', 'is not a domain'));
    values.allowedEmailDomains = domains.length ? domains.join(',') : null;
  }
  const jwtOn = values.jwtEnabled ?? current?.jwtEnabled ?? false;
  const jwtSecret = 'jwtSecretCiphertext' in values ? values.jwtSecretCiphertext : current?.jwtSecretCiphertext;
  if (jwtOn && !jwtSecret) checks.add('jwtSecret', 'blank', "can't be blank while jwtEnabled is true");
  checks.throwIfAny();
  return values;
}

/**
 * Why an issuer URL may not be saved, or null: the webhooks' address rules (no credentials, no
 * loopback or private address, every address its name resolves to now), and https.
 */
async function refusedIssuer(issuer: string, allowInsecure: boolean): Promise<string | null> {
  const refused = await refusedWebhookUrl(issuer, allowInsecure);
  if (refused) return refused.replace('WEBHOOKS_ALLOW_PRIVATE_NETWORKS', 'SSO_ALLOW_INSECURE_ISSUERS');
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !allowInsecure) return 'must be an https URL';
  if (url.search || url.hash) return 'may not carry a query or a fragment';
  return null;
}
