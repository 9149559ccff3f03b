import { boolean, text } from 'drizzle-orm/pg-core';
import { tstz } from '../../db/columns.js';
import { indexOn, uniqueIndexOn } from '../../db/indexes.js';
import { schoolEntryTable, schoolTable } from '../../db/tables.js';

/**
 * A school's single sign-on, one row per school (absent: nothing configured). Secrets are
 * write-only: encrypted with SECRETS_KEY (`<field>Ciphertext`) beside a masked hint
 * (auth/secrets.ts' writeOnlySecret), never returned.
 */
export const ssoSettings = schoolTable(
  'sso_settings',
  {
    // OpenID Connect: the provider (its issuer URL, discovered), the client registered there.
    oidcIssuer: text(),
    oidcClientId: text(),
    oidcClientSecretCiphertext: text(),
    oidcClientSecretHint: text(),
    /** Where the provider sends the browser back; null: the service's own callback route. */
    oidcRedirectUri: text(),
    // JWT SSO: the school's site signs an HS256 token with this secret.
    jwtEnabled: boolean().notNull().default(false),
    jwtSecretCiphertext: text(),
    jwtSecretHint: text(),
    jwtAudience: text(),
    jwtIssuer: text(),
    // Both ways: who may come in, and whether an unknown e-mail becomes a student.
    /** Lower-case domains, comma separated; null: any domain. */
    allowedEmailDomains: text(),
    createMissingStudents: boolean().notNull().default(false),
  },
  (t) => [uniqueIndexOn(t.schoolId)],
);

/**
 * An OpenID Connect sign-in under way: what the callback needs to finish it (PKCE verifier, nonce,
 * the redirect URI the request named). Kept in the database so any instance can finish what
 * another started; the state is stored as its SHA-256 digest and the row is deleted when used.
 */
export const ssoOidcStates = schoolEntryTable(
  'sso_oidc_states',
  {
    stateDigest: text().notNull(),
    nonce: text().notNull(),
    codeVerifierCiphertext: text().notNull(),
    redirectUri: text().notNull(),
    returnTo: text(),
    expiresAt: tstz().notNull(),
  },
  (t) => [uniqueIndexOn(t.stateDigest, t.schoolId), indexOn(t.schoolId, t.expiresAt)],
);

/** The `jti` of every JWT SSO token used, until it expires: a token signs in once. */
export const ssoJwtUses = schoolEntryTable(
  'sso_jwt_uses',
  {
    jti: text().notNull(),
    expiresAt: tstz().notNull(),
  },
  (t) => [uniqueIndexOn(t.schoolId, t.jti), indexOn(t.schoolId, t.expiresAt)],
);

export type SsoSettingsRow = typeof ssoSettings.$inferSelect;
