import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { config } from '../../src/config.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// JWT SSO (as Thinkific offers it): the school's site signs a short-lived HS256 token naming the
// person with the school's secret; the service verifies it (jose) and signs the person in, once.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('JWT School', 'Other JWT School', (w) => ({ service, school, other } = w));

const SECRET_A = 'school-a-jwt-secret-0123456789abcdefghij';
const SECRET_B = 'school-b-jwt-secret-0123456789abcdefghij';
const AUDIENCE_A = 'https://school-a.example/sso';

beforeAll(async () => {
  const a = await school.admin.put('/sso_settings', { sso_settings: { jwt_enabled: true, jwt_secret: SECRET_A, jwt_audience: AUDIENCE_A, create_missing_students: true } });
  expect(a.status, a.text).toBe(200);
  // School B takes the service's default audience (PUBLIC_URL).
  const b = await other.admin.put('/sso_settings', { sso_settings: { jwt_enabled: true, jwt_secret: SECRET_B, create_missing_students: true } });
  expect(b.status, b.text).toBe(200);
  expect(b.body.jwt_audience).toBe(config.publicUrl);
});

let jtis = 0;
/** A token as a school's site signs it, at the service's clock: `iat` now, `exp` in a minute, a new `jti`. */
function token(options: { secret?: string; aud?: string; iat?: number; exp?: number; jti?: string; email?: string; alg?: string; iss?: string } = {}) {
  const now = Math.floor(service.clock.now().getTime() / 1000);
  const jwt = new SignJWT({ email: options.email ?? 'carla@learners.example', first_name: 'Carla', last_name: 'Dias' })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 60)
    .setJti(options.jti ?? `jti-${++jtis}-${Date.now()}`)
    .setAudience(options.aud ?? AUDIENCE_A);
  if (options.iss) jwt.setIssuer(options.iss);
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET_A));
}

const signIn = async (jwt: string, schoolId = school.id) => service.anonymous.post('/users/sso/jwt', { school_id: schoolId, jwt });
const refusal = (res: { status: number; body: any }) => [res.status, res.body.details?.base?.[0]?.error];

describe('JWT SSO', () => {
  it("signs a new student in with a good token (REST), and the credential is the student's", async () => {
    const res = await signIn(await token());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: true, user: { email: 'carla@learners.example', full_name: 'Carla Dias', type: 'Student', school_id: school.id } });
    const me = await service.client(res.body.token).graphql(`{ student(id: ${res.body.user.id}) { email } }`);
    expect(me.data.student.email).toBe('carla@learners.example');
  });

  it("matches a collaborator over GraphQL (signInWithJwt) and gives the collaborator's role", async () => {
    await school.admin.graphql('mutation { createCollaborator(input: { fullName: "Tess", email: "tess@learners.example" }) { collaborator { id } } }');
    const res = await service.anonymous.graphql('mutation ($s: ID!, $jwt: String!) { signInWithJwt(schoolId: $s, jwt: $jwt) { signIn { token created user { type email } } errors { code } } }', {
      s: school.id,
      jwt: await token({ email: 'Tess@Learners.example' }),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.signInWithJwt.signIn).toMatchObject({ created: false, user: { type: 'Collaborator', email: 'tess@learners.example' } });
    expect(res.data.signInWithJwt.signIn.token).toMatch(/^lp_collaborator_/);
  });

  it('refuses a replayed token (same jti), however it comes back', async () => {
    const jwt = await token();
    expect((await signIn(jwt)).status).toBe(200);
    expect(refusal(await signIn(jwt))).toEqual([401, 'invalid_sso_token']);
    const graphql = await service.anonymous.graphql('mutation ($s: ID!, $jwt: String!) { signInWithJwt(schoolId: $s, jwt: $jwt) { signIn { token } } }', { s: school.id, jwt });
    expect(graphql.errors?.[0].extensions.code).toBe('INVALID_SSO_TOKEN');
    // Another token with the same jti is a replay too.
    const jti = `reused-${Date.now()}`;
    expect((await signIn(await token({ jti }))).status).toBe(200);
    expect(refusal(await signIn(await token({ jti, email: 'other@learners.example' })))).toEqual([401, 'invalid_sso_token']);
  });

  it('refuses an expired token, one issued too long ago, and one issued in the future', async () => {
    const now = Math.floor(service.clock.now().getTime() / 1000);
    expect(refusal(await signIn(await token({ iat: now - 120, exp: now - 60 })))).toEqual([401, 'invalid_sso_token']);
    expect(refusal(await signIn(await token({ iat: now - config.sso.jwtMaxAgeSeconds - 120, exp: now + 60 })))).toEqual([401, 'invalid_sso_token']);
    expect(refusal(await signIn(await token({ iat: now + 600, exp: now + 900 })))).toEqual([401, 'invalid_sso_token']);
  });

  it('refuses a token signed with another secret, or with another algorithm than HS256', async () => {
    const wrong = await signIn(await token({ secret: 'not-the-school-secret-0123456789abcdefgh' }));
    expect(refusal(wrong)).toEqual([401, 'invalid_sso_token']);
    expect(wrong.body.errors.base[0]).toMatch(/signature/);
    expect(refusal(await signIn(await token({ alg: 'HS512', secret: `${SECRET_A}${SECRET_A}` })))).toEqual([401, 'invalid_sso_token']);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ email: 'x@learners.example', aud: AUDIENCE_A, jti: 'n', iat: 1, exp: 9e9 })).toString('base64url')}.`;
    expect(refusal(await signIn(unsigned))).toEqual([401, 'invalid_sso_token']);
    expect(refusal(await signIn('not a jwt'))).toEqual([401, 'invalid_sso_token']);
  });

  it("refuses another school's token: signed with school B's secret, presented to school A", async () => {
    const forB = await token({ secret: SECRET_B, aud: config.publicUrl, email: 'dora@learners.example' });
    expect(refusal(await signIn(forB, school.id))).toEqual([401, 'invalid_sso_token']);
    // Even naming A's audience, B's secret does not sign for A.
    expect(refusal(await signIn(await token({ secret: SECRET_B }), school.id))).toEqual([401, 'invalid_sso_token']);
    // At B it is good: B's person, in B.
    const atB = await signIn(forB, other.id);
    expect(atB.status, atB.text).toBe(200);
    expect(atB.body.user.school_id).toBe(other.id);
  });

  it('refuses a wrong audience, and a wrong or missing issuer once the school sets one', async () => {
    expect(refusal(await signIn(await token({ aud: config.publicUrl })))).toEqual([401, 'invalid_sso_token']);
    expect((await school.admin.put('/sso_settings', { sso_settings: { jwt_issuer: 'https://school-a.example' } })).status).toBe(200);
    try {
      expect(refusal(await signIn(await token()))).toEqual([401, 'invalid_sso_token']);
      expect(refusal(await signIn(await token({ iss: 'https://school-b.example' })))).toEqual([401, 'invalid_sso_token']);
      expect((await signIn(await token({ iss: 'https://school-a.example' }))).status).toBe(200);
    } finally {
      await school.admin.put('/sso_settings', { sso_settings: { jwt_issuer: null } });
    }
  });

  it('answers 404 where JWT SSO is off or the school does not exist, and 400 without a token', async () => {
    const third = await service.school('No JWT School');
    expect(refusal(await signIn(await token(), third.id))).toEqual([404, 'sso_not_configured']);
    expect((await signIn(await token(), 999999)).status).toBe(404);
    expect((await service.anonymous.post('/users/sso/jwt', { school_id: school.id })).status).toBe(400);
  });
});
