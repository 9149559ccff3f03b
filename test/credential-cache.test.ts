import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../src/app.js';
import { apiTokens } from '../src/auth/api-token.table.js';
import { CredentialCache } from '../src/auth/credential-cache.js';
import { issueToken } from '../src/auth/credential.js';
import { type Service, startService, type TestSchool } from './support/service.js';

// The credential cache as production runs it (CREDENTIAL_CACHE_SECONDS): a checked token is reused
// without a statement, and a revocation or a school's change of status applies at once, on every instance.

let service: Service;
let school: TestSchool;
/** A second instance over the same database: its cache learns of changes only through the NOTIFY. */
let second: FastifyInstance;

beforeAll(async () => {
  service = await startService({ credentialCache: true });
  school = await service.school('Cache School');
  second = await createApp({ database: service.database, rateLimit: { enabled: false }, credentialCacheSeconds: 15 });
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await service?.stop();
});

const me = '{ school(id: "%") { id status } }';
const read = (app: FastifyInstance, token: string, schoolId: number) =>
  app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: { query: me.replace('%', String(schoolId)) } });
const write = (app: FastifyInstance, token: string) =>
  app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: { query: 'mutation { createSchoolProduct(input: { title: "Cached" }) { schoolProduct { id } errors { code } } }' },
  });
/** Until `check` holds (a NOTIFY reaches the other instance at commit, a moment later). */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error('never held');
}

describe('credential cache', () => {
  it('a token checked a moment ago costs no statement', async () => {
    const token = school.admin.token!;
    expect((await read(service.app, token, school.id)).statusCode).toBe(200);
    const statements = await service.countStatements(() => read(service.app, token, school.id));
    // school by id only: the credential came from the cache.
    expect(statements).toBe(1);
  });

  it('a revoked token is refused at once, on this instance and on the other', async () => {
    const created = await service.platform.graphql(
      'mutation ($input: ApiTokenInput!) { createApiToken(input: $input) { token apiToken { id } errors { code } } }',
      { input: { role: 'admin', schoolId: school.id } },
    );
    const { token, apiToken } = created.data.createApiToken;
    expect((await read(service.app, token, school.id)).statusCode).toBe(200);
    expect((await read(second, token, school.id)).statusCode).toBe(200);
    const revoked = await service.platform.graphql('mutation ($id: ID!) { revokeApiToken(id: $id) { apiToken { revokedAt } errors { code } } }', { id: apiToken.id });
    expect(revoked.data.revokeApiToken.errors).toEqual([]);
    const refused = await read(service.app, token, school.id);
    expect(refused.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    await eventually(async () => (await read(second, token, school.id)).json().errors?.[0]?.extensions.code === 'UNAUTHENTICATED');
  });

  it("a school's suspension applies to its cached credentials at once: they may only read", async () => {
    const token = school.admin.token!;
    expect((await write(service.app, token)).json().data.createSchoolProduct.errors).toEqual([]);
    expect((await write(second, token)).json().data.createSchoolProduct.errors).toEqual([]);
    const update = 'mutation ($id: ID!, $event: SchoolEvent!) { updateSchool(id: $id, input: { event: $event }) { school { status } errors { code } } }';
    const suspended = await service.platform.graphql(update, { id: String(school.id), event: 'suspend' });
    expect(suspended.data.updateSchool.school.status).toBe('suspended');
    expect((await write(service.app, token)).json().errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await read(service.app, token, school.id)).json().data.school.status).toBe('suspended');
    await eventually(async () => (await write(second, token)).json().errors?.[0]?.extensions.code === 'FORBIDDEN');
    await service.platform.graphql(update, { id: String(school.id), event: 'active' });
    expect((await write(service.app, token)).json().data.createSchoolProduct.errors).toEqual([]);
  });

  it("a deleted school's credentials are refused at once", async () => {
    const doomed = await service.school('Cache Doomed');
    const token = doomed.admin.token!;
    expect((await read(service.app, token, doomed.id)).statusCode).toBe(200);
    const deleted = await service.platform.graphql('mutation ($id: ID!) { deleteSchool(id: $id) { errors { code } } }', { id: String(doomed.id) });
    expect(deleted.data.deleteSchool.errors).toEqual([]);
    expect((await read(service.app, token, doomed.id)).json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // The row is gone: nothing cached it back.
    expect(await service.db.select().from(apiTokens).where(eq(apiTokens.schoolId, doomed.id))).toEqual([]);
  });

  it('when full, the least recently used token goes first; a token used again within a second keeps its place', async () => {
    const db = service.database.db;
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map((n) => issueToken(db, { role: 'admin', schoolId: school.id, label: `lru ${n}` })));
    const cache = new CredentialCache(60_000, 2);
    let now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      await cache.find(db, a);
      await cache.find(db, b);
      // Used again after a second: a moves behind b, so c pushes b out.
      now += 1_000;
      await cache.find(db, a);
      await cache.find(db, c);
      // Used again within the second: a keeps its place (oldest), so d pushes a out.
      now += 10;
      await cache.find(db, a);
      await cache.find(db, d);
      // Revoked without a notice: what the cache holds still answers, what it dropped is read again and refused.
      await db.update(apiTokens).set({ revokedAt: new Date() }).where(like(apiTokens.label, 'lru %'));
      const held = async (token: string) => (await cache.find(db, token)) !== null;
      expect({ a: await held(a), b: await held(b), c: await held(c), d: await held(d) }).toEqual({ a: false, b: false, c: true, d: true });
    } finally {
      clock.mockRestore();
    }
  });
});
