import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ssoSettings } from '../../src/modules/sso/sso.table.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// A school's single sign-on settings: its admin (and the platform) set them; the secrets are
// write-only (encrypted, never read back); nobody else reads or changes them. This file runs with
// SSO_ALLOW_INSECURE_ISSUERS off, as production does.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('SSO Settings School', 'Other SSO Settings School', (w) => ({ service, school, other } = w));

const CLIENT_SECRET = 'oidc-client-secret-value-WXYZ';
const JWT_SECRET = 'jwt-shared-secret-0123456789abcdef-LMNO';
let collaborator: Client;
let student: Client;
let app: Client;

beforeAll(async () => {
  const made = await school.admin.graphql('mutation { createStudent(input: { fullName: "Sam", email: "sam@example.com" }) { student { id } } }');
  student = await service.token('student', school.id, Number(made.data.createStudent.student.id));
  collaborator = await service.token('collaborator', school.id);
  app = await service.token('app', school.id);
});

const put = (client: Client, settings: Record<string, unknown>) => client.put('/sso_settings', { sso_settings: settings });

describe('SSO settings', () => {
  it('a school without settings reads the defaults', async () => {
    const res = await other.admin.get('/sso_settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ school_id: other.id, oidc_enabled: false, jwt_enabled: false, has_oidc_client_secret: false, has_jwt_secret: false, allowed_email_domains: [], create_missing_students: false });
  });

  it('stores secrets encrypted and never returns them: only whether one is set and a masked hint', async () => {
    const res = await put(school.admin, {
      oidc_issuer: 'https://login.example.com/',
      oidc_client_id: 'learning-platform',
      oidc_client_secret: CLIENT_SECRET,
      jwt_enabled: true,
      jwt_secret: JWT_SECRET,
      allowed_email_domains: ['@Example.com', 'school.example.org'],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      oidc_issuer: 'https://login.example.com',
      oidc_enabled: true,
      has_oidc_client_secret: true,
      oidc_client_secret_hint: '****WXYZ',
      jwt_enabled: true,
      has_jwt_secret: true,
      jwt_secret_hint: '****LMNO',
      allowed_email_domains: ['example.com', 'school.example.org'],
    });
    for (const reply of [res.text, (await school.admin.get('/sso_settings')).text, JSON.stringify((await school.admin.graphql('{ ssoSettings { oidcClientSecretHint jwtSecretHint hasJwtSecret } }')).data)]) {
      expect(reply).not.toContain(CLIENT_SECRET);
      expect(reply).not.toContain(JWT_SECRET);
    }
    const [row] = await service.db.select().from(ssoSettings).where(eq(ssoSettings.schoolId, school.id));
    expect(row.oidcClientSecretCiphertext).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(CLIENT_SECRET);
    expect(JSON.stringify(row)).not.toContain(JWT_SECRET);
    // No field of the type can return a secret.
    const type = await school.admin.graphql('{ __type(name: "SsoSettings") { fields { name } } }');
    expect(type.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('jwtSecret');
    expect(type.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('oidcClientSecret');
  });

  it('keeps a secret when its hint is sent back, and refuses a short JWT secret or JWT SSO without one', async () => {
    const shown = (await school.admin.get('/sso_settings')).body;
    const again = await put(school.admin, shown);
    expect(again.status, again.text).toBe(200);
    expect(again.body.has_jwt_secret).toBe(true);
    const [row] = await service.db.select().from(ssoSettings).where(eq(ssoSettings.schoolId, school.id));
    expect(row.jwtSecretHint).toBe('****LMNO');
    const short = await put(school.admin, { jwt_secret: 'too-short' });
    expect(short.status).toBe(422);
    expect(short.body.details.jwt_secret[0].error).toBe('too_short');
    const none = await put(other.admin, { jwt_enabled: true });
    expect(none.status).toBe(422);
    expect(none.body.details.jwt_secret[0].error).toBe('blank');
    expect(await service.db.select().from(ssoSettings).where(eq(ssoSettings.schoolId, other.id))).toHaveLength(0);
  });

  it('refuses an issuer that is not https on a public address, and a domain that is not one', async () => {
    for (const issuer of ['http://login.example.com', 'https://127.0.0.1:8443', 'https://10.0.0.5', 'https://user:pw@login.example.com', 'not a url']) {
      const res = await put(school.admin, { oidc_issuer: issuer });
      expect(res.status, issuer).toBe(422);
      expect(res.body.details.oidc_issuer[0].error).toBe('invalid');
    }
    const domains = await put(school.admin, { allowed_email_domains: ['example.com', 'not a domain'] });
    expect(domains.status).toBe(422);
    expect(domains.body.details, domains.text).toHaveProperty(['allowed_email_domains[1]']);
  });

  it('only the platform and the school admin read or change them; another school cannot reach them', async () => {
    for (const client of [collaborator, student, app]) {
      expect((await client.get('/sso_settings')).status).toBe(403);
      expect((await put(client, { create_missing_students: true })).status).toBe(403);
      const graphql = await client.graphql('mutation { updateSsoSettings(input: { createMissingStudents: true }) { ssoSettings { createMissingStudents } } }');
      expect(graphql.errors?.[0].extensions.code).toBe('FORBIDDEN');
    }
    expect((await service.anonymous.get('/sso_settings')).status).toBe(401);
    // Another school's admin naming this school changes its own school only.
    const changed = await put(other.admin.forSchool(school.id), { create_missing_students: true });
    expect(changed.body.school_id).toBe(other.id);
    expect((await school.admin.get('/sso_settings')).body.create_missing_students).toBe(false);
    // The platform names the school.
    const platform = await put(service.platform.forSchool(school.id), { create_missing_students: true });
    expect(platform.status, platform.text).toBe(200);
    expect((await school.admin.get('/sso_settings')).body.create_missing_students).toBe(true);
    expect((await service.platform.get('/sso_settings')).status).toBe(400);
  });
});
