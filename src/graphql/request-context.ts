import type { CredentialCache } from '../auth/credential-cache.js';
import { expired, findCredential, tokenFromHeader } from '../auth/credential.js';
import type { TokenUsage } from '../auth/token-usage.js';
import type { IdentitySettings } from '../config.js';
import { NO_SCOPE, scopeOf } from '../auth/tenancy.js';
import type { Db } from '../db/client.js';
import type { ReadRouting } from '../db/read-routing.js';
import { AppError } from '../errors/app-error.js';
import { requestLocale } from '../errors/i18n.js';
import { type Context, withLoaders } from './context.js';

export interface ContextDeps {
  db: Db;
  now: () => Date;
  /** Credentials checked a moment ago (auth/credential-cache.ts); without it every request reads its credential. */
  credentials?: CredentialCache;
  /** See Context.webhooksAllowPrivateNetworks (off unless given). */
  webhooksAllowPrivateNetworks?: boolean;
  /** See Context.ssoAllowInsecureIssuers (off unless given). */
  ssoAllowInsecureIssuers?: boolean;
  /** Logs an error under the request (app.ts). Without it, what a context would log fails the request instead, so nothing goes unseen. */
  log?: (error: unknown) => void;
  /** Notes each credential's use, recorded in batches (auth/token-usage.ts); without it nothing is recorded. */
  usage?: TokenUsage;
  /** Sign-in and session settings (config.identity by default). */
  identity?: IdentitySettings;
  /** Reads routed to a replica (db/read-routing.ts); without it everything runs on `db`. */
  reads?: ReadRouting;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const failLoudly = (error: unknown) => {
  throw error;
};

/** Who a request comes from, as sign-in needs it: the client's address (rate-limit key) and the host it named. */
export interface ClientOrigin {
  address: string;
}

const clientOf = (deps: ContextDeps, headers: Headers, origin?: ClientOrigin): Pick<Context, 'client' | 'identity'> => ({
  client: { address: origin?.address ?? 'unknown', host: header(headers, 'host') ?? null, schoolHeader: header(headers, 'x-school-id') ?? null },
  identity: deps.identity,
});

/**
 * Resolves the credential (one indexed lookup, with its school's status) and the scope of a request
 * (auth/tenancy.ts). An expired token answers 401 `token_expired`.
 */
export async function contextFor(deps: ContextDeps, headers: Headers, origin?: ClientOrigin): Promise<Context> {
  const authorization = header(headers, 'authorization');
  if (!authorization) return anonymousContext(deps, headers, origin);
  const token = tokenFromHeader(authorization);
  if (!token) throw new AppError('unauthenticated', 'Authorization must be "Bearer <token>" or "Token token=<token>"');
  const found = deps.credentials ? await deps.credentials.find(deps.db, token) : await findCredential(deps.db, token);
  if (!found) throw new AppError('unauthenticated', 'The credential is not valid');
  const { credential, schoolStatus } = found;
  const now = deps.now();
  if (expired(credential, now)) throw new AppError('token_expired', 'The credential has expired: refresh it or sign in again');
  deps.usage?.note(credential.tokenId, now);
  return withLoaders({
    ...clientOf(deps, headers, origin),
    db: deps.db,
    reads: deps.reads,
    locale: requestLocale(headers),
    credential,
    scope: scopeOf(credential, header(headers, 'x-school-id')),
    schoolStatus: credential.role === 'platform' ? null : schoolStatus,
    now: deps.now,
    log: deps.log ?? failLoudly,
    webhooksAllowPrivateNetworks: deps.webhooksAllowPrivateNetworks,
    ssoAllowInsecureIssuers: deps.ssoAllowInsecureIssuers,
  });
}

/** A context with no credential (public routes, or no Authorization header): it matches no school's rows. */
export function anonymousContext(deps: ContextDeps, headers: Headers = {}, origin?: ClientOrigin): Context {
  const { db, now, webhooksAllowPrivateNetworks, ssoAllowInsecureIssuers, reads } = deps;
  return withLoaders({
    ...clientOf(deps, headers, origin),
    db,
    reads,
    locale: requestLocale(headers),
    credential: null,
    scope: NO_SCOPE,
    schoolStatus: null,
    now,
    log: deps.log ?? failLoudly,
    webhooksAllowPrivateNetworks,
    ssoAllowInsecureIssuers,
  });
}
