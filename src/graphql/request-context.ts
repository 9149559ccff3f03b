import type { CredentialCache } from '../auth/credential-cache.js';
import { findCredential, tokenFromHeader } from '../auth/credential.js';
import type { Db } from '../db/client.js';
import { type Context, LoaderRegistry } from './context.js';
import { AppError } from './errors.js';

export interface ContextDeps {
  db: Db;
  now: () => Date;
  /** Credentials checked a moment ago (auth/credential-cache.ts); without it every request reads its credential. */
  credentials?: CredentialCache;
  /** See Context.webhooksAllowPrivateNetworks (off unless given). */
  webhooksAllowPrivateNetworks?: boolean;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** PostgreSQL's integer: a school id beyond it names no school. */
const MAX_ID = 2_147_483_647;

/** Resolves the credential (one indexed lookup, with its school's status) and the school scope of a request. */
export async function contextFor(deps: ContextDeps, headers: Headers): Promise<Context> {
  const authorization = header(headers, 'authorization');
  if (!authorization) return anonymousContext(deps);
  const token = tokenFromHeader(authorization);
  if (!token) throw new AppError('unauthenticated', 'Authorization must be "Bearer <token>" or "Token token=<token>"');
  const found = deps.credentials ? await deps.credentials.find(deps.db, token) : await findCredential(deps.db, token);
  if (!found) throw new AppError('unauthenticated', 'The credential is not valid');
  const { credential, schoolStatus } = found;
  let schoolId = credential.schoolId;
  const acting = header(headers, 'x-school-id');
  if (credential.role === 'platform' && acting) {
    const id = acting.trim();
    if (!/^\d{1,10}$/.test(id) || Number(id) < 1 || Number(id) > MAX_ID) throw new AppError('bad_request', 'X-School-Id must be a school id');
    schoolId = Number(id);
  }
  if (credential.role !== 'platform' && schoolId === null) throw new AppError('unauthenticated', 'The credential is not valid');
  return withLoaders({
    db: deps.db,
    credential,
    schoolId,
    tenancy: credential.role === 'platform' && schoolId === null ? 'platform' : 'school',
    schoolStatus: credential.role === 'platform' ? null : schoolStatus,
    now: deps.now,
    webhooksAllowPrivateNetworks: deps.webhooksAllowPrivateNetworks,
  });
}

/** A context with no credential (public routes, or no Authorization header): it matches no school's rows. */
export function anonymousContext(deps: ContextDeps): Context {
  const { db, now, webhooksAllowPrivateNetworks } = deps;
  return withLoaders({ db, credential: null, schoolId: null, tenancy: 'anonymous', schoolStatus: null, now, webhooksAllowPrivateNetworks });
}

function withLoaders(fields: Omit<Context, 'loaders'>): Context {
  const ctx = fields as Context;
  ctx.loaders = new LoaderRegistry(() => ctx);
  return ctx;
}
