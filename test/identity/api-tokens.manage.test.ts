import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { digestToken, issueToken } from '../../src/auth/credential.js';
import { person, signIn } from '../support/identity.fixtures.js';
import type { Client, Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Tokens you can see and revoke: a school's admin lists its school's credentials (never a secret),
// makes them for its people and apps, and revokes any of them, the wizard's included; never another
// school's, never a platform one. The platform sees and revokes every school's.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Tokens Admin School', 'Tokens Admin Other', (w) => ({ service, school, other } = w));

const LIST = 'query ($first: Int, $userId: ID, $all: Boolean) { apiTokens(first: $first, userId: $userId, includeInactive: $all) { nodes { id role schoolId userId label sessionId createdAt lastUsedAt expiresAt revokedAt } totalCount pageInfo { hasNextPage endCursor } } }';
const CREATE = 'mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token apiToken { id role schoolId userId label } errors { field code message } } }';
const REVOKE = 'mutation ($id: ID!) { revokeApiToken(id: $id) { apiToken { id revokedAt } errors { code } } }';

describe('apiTokens', () => {
  it("lists the school's credentials to its admin (the wizard's, a CLI's, sessions'), never their secrets nor another school's", async () => {
    const cli = await issueToken(service.db, { role: 'app', schoolId: school.id, label: 'cli' });
    const student = await person(school);
    await signIn(service.anonymous, student);
    const res = await school.admin.graphql(LIST, { first: 100 });
    expect(res.errors).toBeUndefined();
    const nodes = res.data.apiTokens.nodes as { id: string; label: string; schoolId: string; userId: string | null }[];
    expect(nodes.map((n) => n.label)).toEqual(expect.arrayContaining(['wizard', 'cli', 'session']));
    expect(nodes.every((n) => n.schoolId === String(school.id))).toBe(true);
    expect(res.data.apiTokens.totalCount).toBe(nodes.length);
    expect(JSON.stringify(res)).not.toContain(cli);
    expect(JSON.stringify(res)).not.toMatch(/lp_[a-z]+_/);
    // REST: the same list, paged like every other.
    const rest = await school.admin.get('/api_tokens?page=1&per_page=2');
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.length).toBe(2);
    expect(rest.headers['x-total-count']).toBe(String(nodes.length));
    expect(Object.keys(rest.body[0]).sort()).toEqual(['created_at', 'expires_at', 'id', 'label', 'last_used_at', 'revoked_at', 'role', 'school_id', 'session_id', 'user_id']);
    const whole = await school.admin.get('/api_tokens');
    expect(whole.body.map((t: { id: number }) => String(t.id)).sort()).toEqual(nodes.map((n) => n.id).sort());
    // Another school's admin sees only its own.
    const theirs = await other.admin.graphql(LIST, { first: 100 });
    expect(theirs.data.apiTokens.nodes.every((n: { schoolId: string }) => n.schoolId === String(other.id))).toBe(true);
    // The platform, acting for the school, sees the same rows.
    const platform = await service.platform.forSchool(school.id).graphql(LIST, { first: 100 });
    expect(platform.data.apiTokens.totalCount).toBe(nodes.length);
  });

  it('is refused to a collaborator, an app, a student and to no credential', async () => {
    const student = await person(school);
    const clients: [string, Client][] = [
      ['collaborator', await service.token('collaborator', school.id, school.adminId)],
      ['app', await service.token('app', school.id)],
      ['student', await service.token('student', school.id, student.id)],
    ];
    for (const [role, client] of clients) {
      expect((await client.graphql(LIST)).errors?.[0].extensions.code, role).toBe('FORBIDDEN');
      expect((await client.get('/api_tokens')).status, role).toBe(403);
      expect((await client.graphql(CREATE, { input: { role: 'app' } })).errors?.[0].extensions.code, role).toBe('FORBIDDEN');
      expect((await client.graphql(REVOKE, { id: '1' })).errors?.[0].extensions.code, role).toBe('FORBIDDEN');
    }
    expect((await service.anonymous.get('/api_tokens')).status).toBe(401);
    expect((await service.anonymous.graphql(LIST)).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe("the platform's credentials", () => {
  it("the seed's and the CLI's platform tokens are listed to the platform only, and revoked like any other", async () => {
    // Made as src/tools/seed.ts and src/tools/create-token.ts (`npm run token`) make them: platform tokens of no school.
    const seedToken = await issueToken(service.db, { role: 'platform', label: 'seed' });
    const cliToken = await issueToken(service.db, { role: 'platform', label: 'cli' });
    const listed = (await service.platform.graphql(LIST, { first: 100 })).data.apiTokens.nodes as { id: string; role: string; label: string; schoolId: string | null }[];
    const theirs = listed.filter((n) => n.role === 'platform' && ['seed', 'cli'].includes(n.label));
    expect(theirs.map((n) => [n.label, n.schoolId]).sort()).toEqual([['cli', null], ['seed', null]]);
    expect(JSON.stringify(listed)).not.toContain(seedToken);
    // A school's admin sees none of them, and cannot revoke them.
    const adminSees = (await school.admin.graphql(LIST, { first: 100 })).data.apiTokens.nodes as { role: string }[];
    expect(adminSees.some((n) => n.role === 'platform')).toBe(false);
    for (const { id } of theirs) expect((await school.admin.delete(`/api_tokens/${id}`)).status).toBe(404);
    expect((await service.client(seedToken).get('/schools')).status).toBe(200);

    const [seed, cli] = ['seed', 'cli'].map((label) => theirs.find((n) => n.label === label)!);
    expect((await service.platform.delete(`/api_tokens/${seed.id}`)).status).toBe(204);
    const revoked = await service.platform.graphql(REVOKE, { id: cli.id });
    expect(revoked.data.revokeApiToken.apiToken.revokedAt).not.toBeNull();
    for (const token of [seedToken, cliToken]) expect((await service.client(token).get('/schools')).status).toBe(401);
    expect((await service.platform.get('/schools')).status).toBe(200);
  });
});

describe("an admin's credentials", () => {
  it('makes tokens for people and apps of its own school; the school is its own by default', async () => {
    const student = await person(school);
    const made = await school.admin.graphql(CREATE, { input: { role: 'student', userId: String(student.id), label: 'mobile app' } });
    expect(made.data.createApiToken.errors).toEqual([]);
    expect(made.data.createApiToken.apiToken).toMatchObject({ role: 'student', schoolId: String(school.id), userId: String(student.id), label: 'mobile app' });
    expect((await service.client(made.data.createApiToken.token).graphql(`{ student(id: ${student.id}) { id } }`)).data.student.id).toBe(String(student.id));
    const rest = await school.admin.post('/api_tokens', { api_token: { role: 'app', label: 'crm' } });
    expect(rest.status, rest.text).toBe(201);
    expect(rest.body.token).toMatch(/^lp_app_/);
    expect(rest.headers.location).toBe(`/api_tokens/${rest.body.api_token.id}`);
  });

  it('may not make a platform token, nor one of another school or for its people', async () => {
    const before = await service.db.$count(apiTokens);
    const platform = await school.admin.graphql(CREATE, { input: { role: 'platform' } });
    expect(platform.data.createApiToken.errors).toEqual([expect.objectContaining({ field: ['role'], code: 'forbidden' })]);
    const foreign = await school.admin.graphql(CREATE, { input: { role: 'app', schoolId: String(other.id) } });
    expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const theirPerson = await person(other);
    const theirs = await school.admin.graphql(CREATE, { input: { role: 'student', userId: String(theirPerson.id) } });
    expect(theirs.data.createApiToken.errors).toEqual([expect.objectContaining({ field: ['userId'], code: 'not_found' })]);
    expect((await school.admin.post('/api_tokens', { api_token: { role: 'platform' } })).status).toBe(403);
    expect((await school.admin.post('/api_tokens', { api_token: { role: 'app', school_id: other.id } })).status).toBe(404);
    expect(await service.db.$count(apiTokens)).toBe(before);
  });

  it("revoking a person's session token signs them out: its refresh token stops too", async () => {
    const student = await person(school);
    const session = await signIn(service.anonymous, student);
    const [row] = await service.db.select().from(apiTokens).where(eq(apiTokens.tokenDigest, digestToken(session.accessToken)));
    const revoked = await school.admin.graphql(REVOKE, { id: String(row.id) });
    expect(revoked.data.revokeApiToken.apiToken.revokedAt).not.toBeNull();
    expect((await service.client(session.accessToken).get(`/schools/${school.id}`)).status).toBe(401);
    expect((await service.anonymous.post('/users/refresh_token', { refresh_token: session.refreshToken })).status).toBe(401);
  });

  it("revokes the wizard's token (at once), but never another school's", async () => {
    // A second admin credential of the school, to revoke the wizard's with.
    const made = await school.admin.graphql(CREATE, { input: { role: 'admin', userId: String(school.adminId), label: 'ops' } });
    const admin = service.client(made.data.createApiToken.token);
    const [wizard] = await service.db.select().from(apiTokens).where(eq(apiTokens.tokenDigest, digestToken(school.admin.token!)));
    expect(wizard.label).toBe('wizard');
    const [otherWizard] = (await other.admin.graphql(LIST, { first: 100 })).data.apiTokens.nodes.filter((n: { label: string }) => n.label === 'wizard');
    // Another school's token: not found, and nothing changes.
    expect((await admin.graphql(REVOKE, { id: otherWizard.id })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await admin.delete(`/api_tokens/${otherWizard.id}`)).status).toBe(404);
    expect((await other.admin.get(`/schools/${other.id}`)).status).toBe(200);

    const revoked = await admin.delete(`/api_tokens/${wizard.id}`);
    expect(revoked.status, revoked.text).toBe(204);
    expect((await school.admin.get(`/schools/${school.id}`)).status).toBe(401);
    const listed = await admin.graphql(LIST, { first: 100, all: true });
    expect(listed.data.apiTokens.nodes.find((n: { id: string }) => n.id === String(wizard.id)).revokedAt).not.toBeNull();
    const working = await admin.graphql(LIST, { first: 100 });
    expect(working.data.apiTokens.nodes.some((n: { id: string }) => n.id === String(wizard.id))).toBe(false);
    // The school goes on with the new credential.
    school.admin = admin;
  });
});
