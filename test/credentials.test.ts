import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '../src/auth/api-token.table.js';
import { type Service, startService, type TestSchool } from './support/service.js';

describe('credentials and tenancy', () => {
  let service: Service;
  let school: TestSchool;
  beforeAll(async () => {
    service = await startService();
    school = await service.school('Tenant A');
  });
  afterAll(() => service?.stop());

  it.each([
    ['Bearer', (t: string) => `Bearer ${t}`],
    ['Token token="…"', (t: string) => `Token token="${t}"`],
    ['Token token=…', (t: string) => `Token token=${t}`],
  ])('accepts the %s header form', async (_name, header) => {
    const res = await service.anonymous.get(`/schools/${school.id}`, { headers: { authorization: header(school.admin.token!) } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(school.id);
  });

  it('an opaque token may contain ":"', async () => {
    const token = 'legacy:client:42';
    await service.db.insert(apiTokens).values({
      tokenDigest: createHash('sha256').update(token).digest('hex'),
      role: 'admin',
      schoolId: school.id,
    });
    expect((await service.client(token).get(`/schools/${school.id}`)).status).toBe(200);
    expect((await service.anonymous.get(`/schools/${school.id}`, { headers: { authorization: `Token token="${token}"` } })).status).toBe(200);
  });

  it('stores tokens only as digests', async () => {
    const rows = await service.db.select({ digest: apiTokens.tokenDigest }).from(apiTokens);
    expect(rows.some((r) => r.digest === school.admin.token)).toBe(false);
  });

  it.each([
    ['no header', undefined],
    ['an unknown token', 'Bearer nope'],
    ['an unknown scheme', 'Basic dXNlcjpwYXNz'],
  ])('%s is a 401 on REST and UNAUTHENTICATED on GraphQL', async (_name, authorization) => {
    const headers = authorization ? { authorization } : undefined;
    const rest = await service.anonymous.get('/school_products', { headers });
    expect(rest.status).toBe(401);
    expect(rest.body.details.base[0].error).toBe('unauthenticated');
    const gql = await service.anonymous.request('POST', '/graphql', { query: '{ schoolProducts { totalCount } }' }, { headers });
    expect(gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it("another school's credential sees a 404, never the object", async () => {
    const other = await service.school('Tenant B');
    const product = await school.admin.post('/school_products', { school_product: { title: 'Private' } });
    expect((await other.admin.get(`/school_products/${product.body.id}`)).status).toBe(404);
    expect((await other.admin.get('/school_products')).body).toEqual([]);
    expect((await other.admin.get(`/schools/${school.id}`)).status).toBe(404);
  });

  it('a platform credential reads across schools, and writes only for the school it names', async () => {
    const noSchool = await service.platform.post('/school_products', { school_product: { title: 'Whose?' } });
    expect(noSchool.status).toBe(400);
    expect(noSchool.body.errors.base[0]).toMatch(/X-School-Id/);
    const named = await service.platform.forSchool(school.id).post('/school_products', { school_product: { title: 'Ours' } });
    expect(named.status).toBe(201);
    expect(named.body.school_id).toBe(school.id);
    const all = await service.platform.get('/school_products');
    expect(all.body.map((p: any) => p.title)).toContain('Ours');
  });

  it('a student credential reads the catalogue but may not change it', async () => {
    const student = await school.admin.graphql('mutation { createStudent(input: {fullName: "Stu", email: "stu@example.com"}) { student { id } errors { code } } }');
    const studentId = Number(student.data.createStudent.student.id);
    const client = await service.token('student', school.id, studentId);
    expect((await client.get('/school_products')).status).toBe(200);
    const write = await client.post('/school_products', { school_product: { title: 'Nope' } });
    expect(write.status).toBe(403);
    expect(write.body.details.base[0].error).toBe('forbidden');
  });
});
