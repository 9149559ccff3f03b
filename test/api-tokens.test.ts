import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiTokens } from '../src/auth/api-token.table.js';
import { type Service, type TestSchool } from './support/service.js';
import { twoSchools } from './support/world.js';

// Credentials through the API (createApiToken / revokeApiToken): what `npm run token` uses on a running service.

let service: Service;
let school: TestSchool;
let other: TestSchool;

twoSchools('Tokens School', 'Tokens Other', (w) => ({ service, school, other } = w));

const create = `mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token apiToken { id role schoolId userId label revokedAt } errors { field code message } } }`;
const revoke = `mutation ($id: ID!) { revokeApiToken(id: $id) { apiToken { id revokedAt } errors { code } } }`;

async function studentOf(s: TestSchool): Promise<string> {
  const r = await s.admin.graphql(`mutation { createStudent(input: { fullName: "Token Student", email: "ts${Date.now()}${Math.random()}@example.com" }) { student { id } errors { code } } }`);
  return r.data.createStudent.student.id;
}

describe('createApiToken', () => {
  it('makes a working token of each role, shown once, stored only as a digest', async () => {
    const studentId = await studentOf(school);
    for (const input of [
      { role: 'platform', label: 'ops' },
      { role: 'admin', schoolId: school.id, userId: school.adminId },
      { role: 'app', schoolId: school.id },
      { role: 'student', schoolId: school.id, userId: studentId },
    ]) {
      const r = await service.platform.graphql(create, { input });
      expect(r.data.createApiToken.errors).toEqual([]);
      const { token, apiToken } = r.data.createApiToken;
      expect(token).toMatch(new RegExp(`^lp_${input.role}_`));
      expect(apiToken).toMatchObject({ role: input.role, schoolId: input.schoolId ? String(input.schoolId) : null, revokedAt: null });
      const [row] = await service.db.select().from(apiTokens).where(eq(apiTokens.id, Number(apiToken.id)));
      expect(row.tokenDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(token);
      // The new token is accepted at once.
      const client = input.schoolId ? service.client(token) : service.client(token).forSchool(school.id);
      expect((await client.get(`/schools/${school.id}`)).status).toBe(200);
    }
  });

  it('names what is wrong: an unknown school, a person of another school or type, a missing student', async () => {
    const otherStudent = await studentOf(other);
    const cases: [Record<string, unknown>, [string, string][]][] = [
      [{ role: 'admin', schoolId: 999_999 }, [['schoolId', 'not_found']]],
      [{ role: 'admin' }, [['schoolId', 'blank']]],
      [{ role: 'platform', schoolId: school.id }, [['schoolId', 'present']]],
      [{ role: 'student', schoolId: school.id }, [['userId', 'blank']]],
      [{ role: 'student', schoolId: school.id, userId: otherStudent }, [['userId', 'not_found']]],
      [{ role: 'student', schoolId: school.id, userId: school.adminId }, [['userId', 'not_found']]],
      [{ role: 'app', schoolId: school.id, userId: school.adminId }, [['userId', 'present']]],
    ];
    for (const [input, expected] of cases) {
      const r = await service.platform.graphql(create, { input });
      expect(r.data.createApiToken.token, JSON.stringify(input)).toBeNull();
      expect(r.data.createApiToken.apiToken).toBeNull();
      expect(r.data.createApiToken.errors.map((e: any) => [e.field.join('.'), e.code]), JSON.stringify(input)).toEqual(expected);
    }
    const unknownRole = await service.platform.graphql(create, { input: { role: 'root' } });
    expect(unknownRole.errors?.[0].message).toMatch(/root/);
  });

  it('a platform credential is the platform’s alone: an admin, an app and a student are refused, and no credential is made', async () => {
    const students = await studentOf(school);
    const clients = [await service.token('app', school.id), await service.token('student', school.id, Number(students))];
    const before = await service.db.$count(apiTokens);
    for (const client of clients) {
      const r = await client.graphql(create, { input: { role: 'platform' } });
      expect(r.errors?.[0].extensions.code).toBe('FORBIDDEN');
      expect(r.data).toBeNull();
    }
    // An admin makes its school's credentials (test/identity/api-tokens.manage.test.ts), never a platform one.
    const byAdmin = await school.admin.graphql(create, { input: { role: 'platform' } });
    expect(byAdmin.data.createApiToken).toMatchObject({ token: null, apiToken: null, errors: [{ field: ['role'], code: 'forbidden' }] });
    expect(await service.db.$count(apiTokens)).toBe(before);
  });
});

describe('revokeApiToken', () => {
  it('revokes at once; the token is refused afterwards; an unknown id is not found', async () => {
    const made = (await service.platform.graphql(create, { input: { role: 'app', schoolId: school.id } })).data.createApiToken;
    const client = service.client(made.token);
    expect((await client.get(`/schools/${school.id}`)).status).toBe(200);
    const r = await service.platform.graphql(revoke, { id: made.apiToken.id });
    expect(r.data.revokeApiToken.apiToken.revokedAt).toBeTruthy();
    expect((await client.get(`/schools/${school.id}`)).status).toBe(401);
    const missing = await service.platform.graphql(revoke, { id: '999999' });
    expect(missing.errors?.[0].extensions.code).toBe('NOT_FOUND');
    // Another school's admin does not find it; a collaborator of the school may not revoke (test/identity/ has the admin's own).
    expect((await other.admin.graphql(revoke, { id: made.apiToken.id })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await (await service.token('collaborator', school.id, school.adminId)).graphql(revoke, { id: made.apiToken.id })).errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
