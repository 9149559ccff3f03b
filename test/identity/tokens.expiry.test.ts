import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { tokenUsages } from '../../src/app.js';
import { domainEvents } from '../../src/modules/events/domain-event.table.js';
import { pruneSessions } from '../../src/modules/identity/prune.js';
import { refreshTokens, sessions } from '../../src/modules/identity/session.table.js';
import { person, REFRESH, secondInstance, signIn } from '../support/identity.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// Tokens with a life: access tokens expire (401 token_expired), refresh tokens rotate and a reused one
// revokes its family, API tokens may carry an expiry, and every token records when it was last used.

let service: Service;
let school: TestSchool;
twoSchools('Expiry School', 'Expiry Other', (w) => ({ service, school } = w));

const later = (ms: number) => service.clock.set(new Date(service.clock.now().getTime() + ms));
const ME = (id: number) => `{ student(id: ${id}) { id } }`;

describe('refresh tokens', () => {
  it('a refresh token used twice revokes its whole family: every token of the session stops', async () => {
    const student = await person(school);
    const first = await signIn(service.anonymous, student);
    const second = (await service.anonymous.graphql(REFRESH, { token: first.refreshToken })).data.refreshToken.session;
    const third = (await service.anonymous.graphql(REFRESH, { token: second.refreshToken })).data.refreshToken.session;
    expect((await service.client(third.accessToken).graphql(ME(student.id))).data.student.id).toBe(String(student.id));

    // The first refresh token again: someone kept a copy. The family is revoked, the thief's and the owner's tokens alike.
    const replay = await service.anonymous.graphql(REFRESH, { token: first.refreshToken });
    expect(replay.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(replay.errors?.[0].message).toMatch(/already used/);
    for (const token of [first.accessToken, second.accessToken, third.accessToken])
      expect((await service.client(token).graphql(ME(student.id))).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    // The newest refresh token of the family is refused as well.
    const latest = await service.anonymous.post('/users/refresh_token', { refresh_token: third.refreshToken });
    expect(latest.status).toBe(401);
    const [session] = await service.db.select().from(sessions).where(eq(sessions.userId, student.id));
    expect(session.revokedAt).not.toBeNull();
    const events = await service.db.select().from(domainEvents).where(and(eq(domainEvents.name, 'token.revoked'), eq(domainEvents.schoolId, school.id)));
    expect(events.at(-1)!.payload).toMatchObject({ sessionId: session.id, reason: 'refresh_token_reused' });
    // Refresh tokens are kept only as digests.
    const stored = await service.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, session.id));
    expect(stored.length).toBe(3);
    expect(JSON.stringify(stored)).not.toContain(first.refreshToken);
  });

  it('an unknown or empty refresh token is a 401 (REST) and a missing one a 400', async () => {
    expect((await service.anonymous.post('/users/refresh_token', { refresh_token: 'lp_refresh_nothing' })).status).toBe(401);
    expect((await service.anonymous.post('/users/refresh_token', {})).status).toBe(400);
  });
});

describe('expiry', () => {
  it('an expired access token answers 401 token_expired (REST and GraphQL); a refresh gives a fresh one', async () => {
    const student = await person(school);
    const session = await signIn(service.anonymous, student);
    later(15 * 60_000 + 1000);
    const rest = await service.client(session.accessToken).get(`/schools/${school.id}`);
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ errors: { base: ['The credential has expired: refresh it or sign in again'] }, details: { base: [{ error: 'token_expired' }] } });
    const graphql = await service.client(session.accessToken).graphql(ME(student.id));
    expect(graphql.errors?.[0].extensions.code).toBe('TOKEN_EXPIRED');
    expect(graphql.errors?.[0].message).toMatch(/expired/);
    const renewed = (await service.anonymous.graphql(REFRESH, { token: session.refreshToken })).data.refreshToken.session;
    expect((await service.client(renewed.accessToken).graphql(ME(student.id))).data.student.id).toBe(String(student.id));
  });

  it("the access token's life is configured (ACCESS_TOKEN_MINUTES): an instance set to 5 minutes issues tokens that stop after 5", async () => {
    const five = await secondInstance(service, { identity: { accessTokenSeconds: 300 } });
    try {
      const student = await person(school);
      const session = await signIn(five.client(null), student);
      expect(new Date(session.accessTokenExpiresAt).getTime() - service.clock.now().getTime()).toBe(300_000);
      later(299_000);
      expect((await service.client(session.accessToken).get(`/schools/${school.id}`)).status).toBe(200);
      later(2000);
      const expired = await service.client(session.accessToken).get(`/schools/${school.id}`);
      expect(expired.status).toBe(401);
      expect(expired.body.details.base[0].error).toBe('token_expired');
    } finally {
      await five.app.close();
    }
  });

  it('an expired refresh token answers token_expired; the prune job deletes expired sessions and their tokens', async () => {
    const student = await person(school);
    const session = await signIn(service.anonymous, student);
    later(31 * 86_400_000);
    const res = await service.anonymous.graphql(REFRESH, { token: session.refreshToken });
    expect(res.errors?.[0].extensions.code).toBe('TOKEN_EXPIRED');
    await pruneSessions(service.db, service.clock.now(), 900);
    expect(await service.db.$count(sessions, eq(sessions.userId, student.id))).toBe(0);
    expect(await service.db.$count(apiTokens, eq(apiTokens.userId, student.id))).toBe(0);
  });

  it('an API token may carry an expiry: in the future only, then 401 token_expired', async () => {
    const at = new Date(service.clock.now().getTime() + 3600_000).toISOString();
    const created = await school.admin.graphql('mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token apiToken { id expiresAt } errors { field code } } }', {
      input: { role: 'app', label: 'crm', expiresAt: at },
    });
    expect(created.data.createApiToken.apiToken.expiresAt).toBe(at);
    const app = service.client(created.data.createApiToken.token);
    expect((await app.get(`/schools/${school.id}`)).status).toBe(200);
    later(3600_000);
    const expired = await app.get(`/schools/${school.id}`);
    expect(expired.status).toBe(401);
    expect(expired.body.details.base[0].error).toBe('token_expired');
    const past = await school.admin.graphql('mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token errors { field code } } }', {
      input: { role: 'app', expiresAt: new Date(service.clock.now().getTime() - 1000).toISOString() },
    });
    expect(past.data.createApiToken).toEqual({ token: null, errors: [{ field: ['expiresAt'], code: 'invalid' }] });
  });
});

describe('last use', () => {
  it('is recorded in batches, one UPDATE for many requests, and only when older than the granularity', async () => {
    const usage = tokenUsages.get(service.app)!;
    await usage.flush();
    const student = await person(school);
    const session = await signIn(service.anonymous, student);
    const client = service.client(session.accessToken);
    const before = await service.countStatements(() => client.graphql(ME(student.id)));
    for (let i = 0; i < 5; i++) await client.graphql(ME(student.id));
    // A request costs no write of its own.
    expect(await service.countStatements(() => client.graphql(ME(student.id)))).toBe(before);
    const [unrecorded] = await service.db.select().from(apiTokens).where(eq(apiTokens.userId, student.id));
    expect(unrecorded.lastUsedAt).toBeNull();
    const statements = await service.countStatements(() => usage.flush());
    expect(statements).toBe(1);
    const [recorded] = await service.db.select().from(apiTokens).where(eq(apiTokens.userId, student.id));
    expect(recorded.lastUsedAt?.toISOString()).toBe(service.clock.now().toISOString());
    // Used again within the granularity: nothing to record.
    await client.graphql(ME(student.id));
    expect(await service.countStatements(() => usage.flush())).toBe(0);
    const listed = await school.admin.graphql(`{ apiTokens(userId: ${student.id}) { nodes { id lastUsedAt expiresAt label } } }`);
    expect(listed.data.apiTokens.nodes).toEqual([{ id: String(recorded.id), lastUsedAt: recorded.lastUsedAt!.toISOString(), expiresAt: recorded.expiresAt!.toISOString(), label: 'session' }]);
  });
});
