import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { decryptSecret, encryptSecret } from '../../auth/secrets.js';
import { config } from '../../config.js';
import type { Db, Queryable } from '../../db/client.js';
import { AppError } from '../../errors/app-error.js';
import { refusedWebhookUrl } from '../webhooks/webhook.http.js';
import { oidcConfigured, settingsRowOf } from './sso.settings.js';
import type { SsoIdentity } from './sso.sign-in.js';
import { ssoOidcStates, type SsoSettingsRow } from './sso.table.js';

/** The service's own callback route: the redirect URI unless the school names its own. */
export const callbackUrl = () => `${config.publicUrl}/users/sso/oidc/callback`;
const SCOPE = 'openid email profile';
/** Seconds the provider's discovery and token endpoints may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

const digest = (state: string) => createHash('sha256').update(state, 'utf8').digest('hex');
const invalid = (why: string) => new AppError('invalid_sso_token', `The OpenID sign-in could not be verified: ${why}`);
const unavailable = () => new AppError('sso_provider_unavailable', 'The OpenID provider could not be reached or answered wrongly; try again later');

type ConfiguredSettings = SsoSettingsRow & { oidcIssuer: string; oidcClientId: string; oidcClientSecretCiphertext: string };

/** The school's OpenID settings, or `sso_not_configured`. */
export async function oidcSettingsOf(db: Queryable, schoolId: number): Promise<ConfiguredSettings> {
  const row = await settingsRowOf(db, schoolId);
  if (!oidcConfigured(row)) throw new AppError('sso_not_configured', 'OpenID Connect sign-in is not configured for this school');
  return row;
}

/**
 * The provider's configuration, discovered from its issuer (openid-client checks the document's
 * issuer is the one asked). The issuer's addresses are checked again now (they may have changed
 * since it was saved); plain http and private addresses only with SSO_ALLOW_INSECURE_ISSUERS.
 * The client authenticates with client_secret_basic (the OpenID default).
 */
async function providerOf(settings: ConfiguredSettings, allowInsecure: boolean): Promise<oidc.Configuration> {
  // A discovered configuration (and the signing keys openid-client caches in it) serves this
  // instance for DISCOVERY_TTL_MS: discovery is not fetched per sign-in. Keyed by everything it was
  // built from, so a changed issuer, client or secret is discovered afresh; a failure is not kept.
  const key = `${settings.oidcIssuer}\n${settings.oidcClientId}\n${settings.oidcClientSecretCiphertext}\n${allowInsecure}`;
  const now = Date.now();
  const cached = discovered.get(key);
  if (cached && cached.expires > now) return cached.configuration;
  const configuration = await discover(settings, allowInsecure);
  discovered.set(key, { configuration, expires: now + DISCOVERY_TTL_MS });
  if (discovered.size > DISCOVERY_CACHE_SIZE) discovered.delete(discovered.keys().next().value!);
  return configuration;
}

const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_CACHE_SIZE = 500;
const discovered = new Map<string, { configuration: oidc.Configuration; expires: number }>();

async function discover(settings: ConfiguredSettings, allowInsecure: boolean): Promise<oidc.Configuration> {
  const refused = await refusedWebhookUrl(settings.oidcIssuer, allowInsecure);
  if (refused || (!allowInsecure && !settings.oidcIssuer.startsWith('https:'))) throw unavailable();
  const secret = decryptSecret(settings.oidcClientSecretCiphertext);
  try {
    return await oidc.discovery(new URL(settings.oidcIssuer), settings.oidcClientId, { client_secret: secret }, oidc.ClientSecretBasic(secret), {
      execute: allowInsecure ? [oidc.allowInsecureRequests] : [],
      timeout: PROVIDER_TIMEOUT_SECONDS,
    });
  } catch {
    throw unavailable();
  }
}

/**
 * Starts an authorization code flow with PKCE (S256), state and nonce: the state row is written
 * (any instance may finish it, once, before it expires) and the provider's authorization URL returned.
 */
export async function startOidc(db: Db, schoolId: number, returnTo: string | null, now: Date, allowInsecure: boolean) {
  const settings = await oidcSettingsOf(db, schoolId);
  const provider = await providerOf(settings, allowInsecure);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const redirectUri = settings.oidcRedirectUri ?? callbackUrl();
  const authorizationUrl = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const expiresAt = new Date(now.getTime() + config.sso.oidcStateTtlSeconds * 1000);
  await db.transaction(async (tx) => {
    await tx.delete(ssoOidcStates).where(and(eq(ssoOidcStates.schoolId, schoolId), lt(ssoOidcStates.expiresAt, now)));
    await tx.insert(ssoOidcStates).values({
      schoolId,
      stateDigest: digest(state),
      nonce,
      codeVerifierCiphertext: encryptSecret(verifier),
      redirectUri,
      returnTo,
      expiresAt,
    });
  });
  return { authorizationUrl: authorizationUrl.href, state, expiresAt };
}

/** What the provider sent back to the redirect URI. */
export interface OidcCallback {
  code?: string | null;
  state: string;
  iss?: string | null;
  error?: string | null;
  errorDescription?: string | null;
}

/**
 * Finishes a sign-in: the state is consumed first, in a statement of its own, so it is single use
 * even when what follows fails; then the code is exchanged (with the PKCE verifier) and the ID
 * token checked by openid-client (signature, issuer, audience = the client id, nonce, expiry).
 * The e-mail comes from the ID token, else from the userinfo endpoint, and must be verified.
 */
export async function completeOidc(db: Queryable, callback: OidcCallback, now: Date, allowInsecure: boolean) {
  const [pending] = await db.delete(ssoOidcStates).where(eq(ssoOidcStates.stateDigest, digest(callback.state))).returning();
  if (!pending || pending.expiresAt <= now) throw invalid('the state is unknown, used or expired: start again');
  const settings = await oidcSettingsOf(db, pending.schoolId);
  const provider = await providerOf(settings, allowInsecure);
  const current = new URL(pending.redirectUri);
  for (const [key, value] of Object.entries({ code: callback.code, state: callback.state, iss: callback.iss, error: callback.error, error_description: callback.errorDescription }))
    if (value) current.searchParams.set(key, value);
  let identity: SsoIdentity & { verified: boolean };
  try {
    const tokens = await oidc.authorizationCodeGrant(provider, current, {
      pkceCodeVerifier: decryptSecret(pending.codeVerifierCiphertext),
      expectedState: callback.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    // Providers that keep the ID token small (conformIdTokenClaims) give the e-mail at userinfo.
    const info = typeof claims.email === 'string' ? claims : await oidc.fetchUserInfo(provider, tokens.access_token, claims.sub);
    if (typeof info.email !== 'string') throw new AppError('unverified_email', 'The provider gave no e-mail (the scope asks for it)');
    const fullName = typeof info.name === 'string' ? info.name : [info.given_name, info.family_name].filter((p) => typeof p === 'string').join(' ') || null;
    identity = { email: info.email, fullName, verified: info.email_verified === true };
  } catch (error) {
    throw refusalOf(error);
  }
  if (!identity.verified) throw new AppError('unverified_email', 'The provider has not verified this e-mail: verify it there, then sign in again');
  return { schoolId: pending.schoolId, settings, identity, returnTo: pending.returnTo };
}

/** A failed exchange as the client hears it: the provider's or the token's fault is a 401, an unreachable provider a 502. */
function refusalOf(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof TypeError || (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))) return unavailable();
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
    return invalid(`the provider answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`);
  if (error instanceof oidc.ClientError) {
    const cause = error.cause instanceof Error ? error.cause.message : '';
    if (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || error.code === 'OAUTH_RESPONSE_IS_NOT_JSON') return unavailable();
    return invalid(cause && cause !== error.message ? `${error.message}: ${cause}` : error.message);
  }
  return error;
}
