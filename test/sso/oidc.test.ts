import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/modules/users/user.table.js';
import { callbackUrl } from '../../src/modules/sso/sso.oidc.js';
import { ssoOidcStates } from '../../src/modules/sso/sso.table.js';
import { createApp } from '../../src/app.js';
import { Client, type Service, type TestSchool } from '../support/service.js';
import { signInAt, startProvider, type TestProvider } from '../support/sso.fixtures.js';
import { twoSchools } from '../support/world.js';

// OpenID Connect sign-in against a real provider (oidc-provider) on loopback: code flow with PKCE,
// state and nonce, the ID token checked by openid-client. The service may call an http issuer on
// loopback only because this file turns SSO_ALLOW_INSECURE_ISSUERS on (settings.test.ts: off refuses it).

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('OIDC School', 'Other OIDC School', (w) => ({ service, school, other } = w), { ssoAllowInsecureIssuers: true });

let provider: TestProvider;
let home: string;
const callback = callbackUrl();

beforeAll(async () => {
  provider = await startProvider(callback);
  const settings = await school.admin.put('/sso_settings', {
    sso_settings: { oidc_issuer: provider.issuer, oidc_client_id: provider.clients.a.id, oidc_client_secret: provider.clients.a.secret, create_missing_students: true },
  });
  expect(settings.status, settings.text).toBe(200);
  const shown = await school.admin.graphql(`{ school(id: ${school.id}) { subdomain } }`);
  home = `http://${shown.data.school.subdomain}.localhost/welcome`;
});
afterAll(() => provider?.close());

/** Starts a sign-in over REST; returns its authorization URL and state. */
async function start(schoolId = school.id, returnTo?: string) {
  const res = await service.anonymous.get(`/users/sso/oidc/start?school_id=${schoolId}${returnTo ? `&return_to=${encodeURIComponent(returnTo)}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { authorization_url: string; state: string; expires_at: string };
}

const callbackPath = (back: URL) => `/users/sso/oidc/callback${back.search}`;
const errorOf = (res: { body: any }) => res.body.details.base[0].error;

describe('OpenID Connect sign-in', () => {
  it('signs a new student in end to end over REST (code + PKCE, state, nonce), once per state, and the credential works', async () => {
    const started = await start(school.id, home);
    const url = new URL(started.authorization_url);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: provider.clients.a.id,
      response_type: 'code',
      redirect_uri: callback,
      code_challenge_method: 'S256',
      state: started.state,
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    // Kept in PostgreSQL (any instance finishes it), the state as a digest only.
    const [pending] = await service.db.select().from(ssoOidcStates);
    expect(pending.stateDigest).not.toBe(started.state);
    expect(pending.codeVerifierCiphertext).toMatch(/^v1\./);

    const back = await signInAt(started.authorization_url, 'ana', callback);
    expect(back.searchParams.get('state')).toBe(started.state);
    const res = await service.anonymous.get(callbackPath(back));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ user: { email: 'ana@learners.example', full_name: 'Ana Souza', type: 'Student', school_id: school.id }, return_to: home, created: true });

    const me = await service.client(res.body.token).graphql(`{ student(id: ${res.body.user.id}) { email } }`);
    expect(me.data.student.email).toBe('ana@learners.example');

    const again = await service.anonymous.get(callbackPath(back));
    expect(again.status).toBe(401);
    expect(errorOf(again)).toBe('invalid_sso_token');
    expect(await service.db.select().from(ssoOidcStates)).toHaveLength(0);
  });

  it('matches the existing person by e-mail over GraphQL (startOidcSignIn, completeOidcSignIn)', async () => {
    const created = await school.admin.graphql('mutation { createStudent(input: { fullName: "Bruno", email: "Bruno@Learners.example" }) { student { id } } }');
    const id = created.data.createStudent.student.id;
    const started = await service.anonymous.graphql('mutation ($s: ID!) { startOidcSignIn(schoolId: $s) { oidcAuthorization { authorizationUrl state } errors { code } } }', { s: school.id });
    const { authorizationUrl, state } = started.data.startOidcSignIn.oidcAuthorization;
    const back = await signInAt(authorizationUrl, 'bruno', callback);
    expect(back.searchParams.get('state')).toBe(state);
    const done = await service.anonymous.graphql(
      'mutation ($code: String, $state: String!, $iss: String) { completeOidcSignIn(authorizationCode: $code, state: $state, iss: $iss) { signIn { token created user { id type email } } errors { code } } }',
      { code: back.searchParams.get('code'), state, iss: back.searchParams.get('iss') },
    );
    expect(done.errors).toBeUndefined();
    expect(done.data.completeOidcSignIn.signIn).toMatchObject({ created: false, user: { id, type: 'Student', email: 'bruno@learners.example' } });
    expect(done.data.completeOidcSignIn.signIn.token).toMatch(/^lp_student_/);
  });

  it('refuses a wrong state, and the right one still works after it', async () => {
    const started = await start();
    const back = await signInAt(started.authorization_url, 'ana', callback);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-value');
    const res = await service.anonymous.get(callbackPath(forged));
    expect(res.status).toBe(401);
    expect(errorOf(res)).toBe('invalid_sso_token');
    expect((await service.anonymous.get(callbackPath(back))).status).toBe(200);
  });

  it('refuses an ID token whose nonce is not the one the sign-in stored (a replayed or injected response)', async () => {
    const started = await start();
    const url = new URL(started.authorization_url);
    url.searchParams.set('nonce', 'another-sign-ins-nonce');
    const back = await signInAt(url.href, 'ana', callback);
    const res = await service.anonymous.get(callbackPath(back));
    expect(res.status).toBe(401);
    expect(errorOf(res)).toBe('invalid_sso_token');
    expect(res.body.errors.base[0]).toMatch(/nonce/);
  });

  it("refuses an ID token issued to another client (its audience is not the school's client id)", async () => {
    const started = await start();
    const url = new URL(started.authorization_url);
    url.searchParams.set('client_id', provider.clients.b.id);
    const back = await signInAt(url.href, 'ana', callback);
    provider.swapTokenClient = 'b';
    try {
      const res = await service.anonymous.get(callbackPath(back));
      expect(res.status).toBe(401);
      expect(errorOf(res)).toBe('invalid_sso_token');
      expect(res.body.errors.base[0]).toMatch(/aud/);
    } finally {
      provider.swapTokenClient = null;
    }
  });

  it('answers 401 when the person cancels at the provider, and the state is spent', async () => {
    const started = await start();
    const back = await signInAt(started.authorization_url, null, callback);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const res = await service.anonymous.get(callbackPath(back));
    expect(res.status).toBe(401);
    expect(res.body.errors.base[0]).toMatch(/access_denied/);
    expect((await service.anonymous.get(callbackPath(back))).body.errors.base[0]).toMatch(/state/);
  });

  it('refuses an e-mail the provider has not verified, and creates no one', async () => {
    const started = await start();
    const back = await signInAt(started.authorization_url, 'mallory', callback);
    const res = await service.anonymous.get(callbackPath(back));
    expect(res.status).toBe(403);
    expect(errorOf(res)).toBe('unverified_email');
    expect(await service.db.select().from(users).where(eq(users.email, 'mallory@learners.example'))).toHaveLength(0);
  });

  it('refuses a domain the school does not allow, and an unknown person where the school creates none', async () => {
    const configured = await other.admin.put('/sso_settings', {
      sso_settings: { oidc_issuer: provider.issuer, oidc_client_id: provider.clients.b.id, oidc_client_secret: provider.clients.b.secret, allowed_email_domains: ['learners.example'] },
    });
    expect(configured.status, configured.text).toBe(200);
    const outsider = await signInAt((await start(other.id)).authorization_url, 'outsider', callback);
    const refused = await service.anonymous.get(callbackPath(outsider));
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toBe('email_domain_not_allowed');
    const ana = await signInAt((await start(other.id)).authorization_url, 'ana', callback);
    const unknown = await service.anonymous.get(callbackPath(ana));
    expect(unknown.status).toBe(403);
    expect(errorOf(unknown)).toBe('sso_no_account');
  });

  it('answers 404 for a school without OpenID settings or that does not exist, and 422 for a return_to off the school', async () => {
    const third = await service.school('No SSO School');
    const none = await service.anonymous.get(`/users/sso/oidc/start?school_id=${third.id}`);
    expect(none.status).toBe(404);
    expect(errorOf(none)).toBe('sso_not_configured');
    expect((await service.anonymous.get('/users/sso/oidc/start?school_id=999999')).status).toBe(404);
    const away = await service.anonymous.get(`/users/sso/oidc/start?school_id=${school.id}&return_to=${encodeURIComponent('https://evil.example/')}`);
    expect(away.status).toBe(422);
    expect(away.body.details.return_to[0].error).toBe('foreign_host');
  });

  it('is finished by another instance than the one that started it (the state is in PostgreSQL), and not after it expires', async () => {
    const second = await createApp({ database: service.database, now: service.clock.now, rateLimit: { enabled: false }, credentialCacheSeconds: 0, ssoAllowInsecureIssuers: true });
    await second.ready();
    try {
      const started = await start();
      const back = await signInAt(started.authorization_url, 'ana', callback);
      const res = await new Client(second, null).get(callbackPath(back));
      expect(res.status, res.text).toBe(200);
      expect(res.body.user.email).toBe('ana@learners.example');
    } finally {
      await second.close();
    }
    const late = await start();
    const back = await signInAt(late.authorization_url, 'ana', callback);
    service.clock.set(new Date(service.clock.now().getTime() + 11 * 60_000));
    const res = await service.anonymous.get(callbackPath(back));
    expect(res.status).toBe(401);
    expect(errorOf(res)).toBe('invalid_sso_token');
  });
});
