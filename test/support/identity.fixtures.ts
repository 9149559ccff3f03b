import { createApp, type AppOptions } from '../../src/app.js';
import { openDatabase } from '../../src/db/client.js';
import type { FastifyInstance } from 'fastify';
import { Client, type Service, type TestSchool } from './service.js';

// What the identity tests share: people with passwords, the sign-in documents, a second instance.

export const PASSWORD = 'violet-harbour-lantern-7';

export const SESSION_FIELDS = 'user { id schoolId type fullName email } role accessToken accessTokenExpiresAt refreshToken refreshTokenExpiresAt tokenType';
export const SIGN_IN = `mutation ($input: SignInInput!) { signIn(input: $input) { session { ${SESSION_FIELDS} } errors { field code message } } }`;
export const REFRESH = `mutation ($token: String!) { refreshToken(refreshToken: $token) { session { ${SESSION_FIELDS} } errors { field code message } } }`;
export const SIGN_OUT = 'mutation { signOut { signOut { done message } errors { field code message } } }';
export const CHANGE_PASSWORD = 'mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { changePassword { done message } errors { field code message } } }';
export const REQUEST_RESET = 'mutation ($input: PasswordResetRequestInput!) { requestPasswordReset(input: $input) { passwordReset { done message } errors { field code message } } }';
export const RESET = 'mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) { resetPassword { done message } errors { field code message } } }';

export interface Person {
  id: number;
  email: string;
  password: string;
  schoolId: number;
}

let serial = 0;

/** A person made by the school's admin, with a password, as a school adds its students and staff. */
export async function person(school: TestSchool, kind: 'Student' | 'Collaborator' | 'Admin' = 'Student', password = PASSWORD): Promise<Person> {
  const email = `person${++serial}-${process.pid}-${Date.now()}@example.com`;
  const res = await school.admin.graphql(`mutation ($input: PersonInput!) { r: create${kind}(input: $input) { p: ${kind.toLowerCase()} { id } errors { field code message } } }`, {
    input: { fullName: `${kind} ${serial}`, email, password },
  });
  if (res.data?.r?.errors?.length || !res.data?.r?.p) throw new Error(`create${kind}: ${JSON.stringify(res)}`);
  return { id: Number(res.data.r.p.id), email, password, schoolId: school.id };
}

/** Signs in over GraphQL; returns the session (or throws with the reply). */
export async function signIn(client: Client, who: Pick<Person, 'email' | 'password' | 'schoolId'>) {
  const res = await client.graphql(SIGN_IN, { input: { email: who.email, password: who.password, schoolId: String(who.schoolId) } });
  if (!res.data?.signIn?.session) throw new Error(`signIn: ${JSON.stringify(res)}`);
  return res.data.signIn.session as { accessToken: string; refreshToken: string; role: string; user: { id: string }; accessTokenExpiresAt: string };
}

/**
 * Another instance of the service over the same database (each caches credentials and learns of
 * changes by NOTIFY). On PostgreSQL it opens a pool of its own, as another process would: nothing in
 * this process tells it of a revocation but the NOTIFY. On PGlite (one embedded database) it shares the
 * service's. Closing the app closes its pool.
 */
export async function secondInstance(service: Service, options: Partial<AppOptions> = {}): Promise<{ app: FastifyInstance; client: (token: string | null) => Client }> {
  const database = service.databaseUrl ? await openDatabase({ url: service.databaseUrl, maxConnections: 3 }) : service.database;
  const app = await createApp({ database, now: service.clock.now, rateLimit: { enabled: false }, credentialCacheSeconds: 15, tokenUsageSeconds: 0, ...options });
  if (database !== service.database) app.addHook('onClose', () => database.close());
  await app.ready();
  return { app, client: (token) => new Client(app, token) };
}
