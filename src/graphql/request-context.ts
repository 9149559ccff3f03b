import { findCredential, tokenFromHeader } from '../auth/credential.js';
import type { Db } from '../db/client.js';
import { type Context, LoaderRegistry } from './context.js';
import { AppError } from './errors.js';

export interface ContextDeps {
  db: Db;
  now: () => Date;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Resolves the credential (one indexed lookup) and the school scope of a request. */
export async function contextFor(deps: ContextDeps, headers: Headers): Promise<Context> {
  const authorization = header(headers, 'authorization');
  let credential = null;
  if (authorization) {
    const token = tokenFromHeader(authorization);
    if (!token) throw new AppError('unauthenticated', 'Authorization must be "Bearer <token>" or "Token token=<token>"');
    credential = await findCredential(deps.db, token);
    if (!credential) throw new AppError('unauthenticated', 'The credential is not valid');
  }
  let schoolId = credential?.schoolId ?? null;
  const acting = header(headers, 'x-school-id');
  if (credential?.role === 'platform' && acting) {
    if (!/^\d{1,10}$/.test(acting.trim())) throw new AppError('bad_request', 'X-School-Id must be a school id');
    schoolId = Number(acting.trim());
  }
  const ctx: Context = { db: deps.db, credential, schoolId, now: deps.now, loaders: undefined as never };
  ctx.loaders = new LoaderRegistry(() => ctx);
  return ctx;
}

/** A context with no credential, for public routes. */
export function anonymousContext(deps: ContextDeps): Context {
  const ctx: Context = { db: deps.db, credential: null, schoolId: null, now: deps.now, loaders: undefined as never };
  ctx.loaders = new LoaderRegistry(() => ctx);
  return ctx;
}
