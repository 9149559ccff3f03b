import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedAccepts } from '../src/rest/router.js';
import { type Service, startService, type TestSchool } from './support/service.js';

describe('REST conventions (DESIGN.md)', () => {
  let service: Service;
  let school: TestSchool;
  let productId: number;
  beforeAll(async () => {
    service = await startService();
    school = await service.school('Conventions School');
    const created = await school.admin.post('/school_products', { school_product: { title: 'Convention product' } });
    productId = created.body.id;
  });
  afterAll(() => service?.stop());

  it.each(['', '.json', '/'])('a path answers with the suffix %j', async (suffix) => {
    const res = await school.admin.get(`/school_products/${productId}${suffix}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(productId);
  });

  it.each(['/v1', '/api', '/api/v1'])('a path answers under the %s prefix', async (prefix) => {
    const res = await school.admin.get(`${prefix}/school_products/${productId}.json`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Convention product');
  });

  it.each(['application/json', '*/*', 'application/vnd.learning.v1+json', 'application/+json', 'text/html, application/json;q=0.9'])(
    'Accept %j selects version 1',
    async (accept) => {
      const res = await school.admin.get(`/school_products/${productId}`, { headers: { accept } });
      expect(res.status).toBe(200);
    },
  );

  it('the verdict on an Accept is remembered, for a bounded number of headers, and stays the same', async () => {
    const statusFor = async (accept: string) => (await school.admin.get(`/school_products/${productId}`, { headers: { accept } })).status;
    // More distinct headers than the memory keeps (64): each answers as the first time, before and after it starts over.
    for (let i = 0; i < 70; i++) {
      expect(await statusFor(`application/vnd.learning.v1+json; n=${i}`)).toBe(200);
      expect(await statusFor(`application/vnd.learning.v${i + 2}+json`)).toBe(406);
      expect(rememberedAccepts()).toBeLessThanOrEqual(64);
    }
    expect(await statusFor('application/vnd.learning.v2+json')).toBe(406);
    expect(await statusFor('application/vnd.learning.v2+json')).toBe(406);
    expect(await statusFor('application/vnd.learning.v1+json; n=0')).toBe(200);
  });

  it('a vendor type naming another version is a 406', async () => {
    const res = await school.admin.get(`/school_products/${productId}`, { headers: { accept: 'application/vnd.learning.v2+json' } });
    expect(res.status).toBe(406);
    expect(res.body.details.base[0].error).toBe('not_acceptable');
  });

  it('an unknown path is 404 route_not_found; a missing record is 404 not_found', async () => {
    const noRoute = await school.admin.get('/no_such_things/1');
    expect(noRoute.status).toBe(404);
    expect(noRoute.body).toEqual({ errors: { base: [expect.any(String)] }, details: { base: [{ error: 'route_not_found' }] } });
    const noRecord = await school.admin.get('/school_products/999999');
    expect(noRecord.status).toBe(404);
    expect(noRecord.body.details.base).toEqual([{ error: 'not_found' }]);
  });

  it('a known path with a wrong method is a 405 naming the allowed methods', async () => {
    const res = await school.admin.post(`/school_products/${productId}`, { school_product: { title: 'x' } });
    expect(res.status).toBe(405);
    expect(String(res.headers.allow).split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH', 'PUT']);
    expect(res.body.details.base[0].error).toBe('method_not_allowed');
  });

  it('bad JSON is a 400 in the Rails error shape, never a 500', async () => {
    const res = await school.admin.request('POST', '/school_products', undefined, {
      raw: '{"school_product": {"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.base[0].error).toBe('bad_request');
    expect(res.text).not.toMatch(/at .*\.ts|stack/i);
  });

  it('a body over the limit is a 413', async () => {
    const res = await school.admin.post('/school_products', { school_product: { title: 'x', description: 'y'.repeat(2 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.details.base[0].error).toBe('payload_too_large');
  });

  it('a vendor +json content type is parsed as JSON', async () => {
    const res = await school.admin.post('/school_products', { school_product: { title: 'Vendor body' } }, {
      headers: { 'content-type': 'application/vnd.learning.v1+json' },
    });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Vendor body');
  });

  it('fields that are not writable are ignored, as strong parameters do (a fetched object sent back)', async () => {
    const fetched = await school.admin.get(`/school_products/${productId}`);
    const res = await school.admin.put(`/school_products/${productId}`, { school_product: { ...fetched.body, id: 424242, school_id: 999, subtitle: 'Sent back' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: productId, school_id: school.id, subtitle: 'Sent back' });
    expect(res.headers.location).toBe(`/school_products/${productId}`);
  });

  it('a writable field with a wrong type is a 400 naming the field', async () => {
    const res = await school.admin.post('/school_products', { school_product: { title: 'x', certification_min_progress: 'lots' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['certification_min_progress']);
  });

  it('a GET may carry its parameters in a urlencoded or JSON body', async () => {
    const onlyEmail = await service.platform.request('GET', '/schools', { email: 'someone@example.com' }, { encoding: 'form' });
    expect(onlyEmail.status).toBe(400);
    const both = await service.platform.request('GET', '/schools', { email: 'nobody@example.com', type: 'Student' });
    expect(both.status).toBe(200);
    expect(both.body).toEqual([]);
  });

  it('create replies 201 with a Location; destroy replies 204 with no body', async () => {
    const created = await school.admin.post('/school_products', { school_product: { title: 'Short-lived' } });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/school_products/${created.body.id}`);
    const gone = await school.admin.delete(created.headers.location as string);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
  });

  it('numbered pages carry X-Total-Count, X-Page, X-Per-Page and Link; per_page over 100 is a 400', async () => {
    const other = await service.school('Paging School');
    for (let i = 0; i < 5; i++) await other.admin.post('/school_products', { school_product: { title: `Paged ${i}` } });
    const page2 = await other.admin.get('/school_products?page=2&per_page=2');
    expect(page2.status).toBe(200);
    expect(page2.body.map((p: any) => p.title)).toEqual(['Paged 2', 'Paged 3']);
    expect(page2.headers['x-total-count']).toBe('5');
    expect(page2.headers['x-page']).toBe('2');
    expect(page2.headers['x-per-page']).toBe('2');
    const link = String(page2.headers.link);
    expect(link).toContain('page=3&per_page=2>; rel="next"');
    expect(link).toContain('page=1&per_page=2>; rel="prev"');
    expect(link).toContain('page=3&per_page=2>; rel="last"');
    const defaultPerPage = await other.admin.get('/school_products?page=1');
    expect(defaultPerPage.headers['x-per-page']).toBe('10');
    expect((await other.admin.get('/school_products?page=1&per_page=101')).status).toBe(400);
    expect((await other.admin.get('/school_products?page=0')).status).toBe(400);
    expect((await other.admin.get('/school_products?page=abc')).status).toBe(400);
    const ignored = await other.admin.get('/school_products?per_page=2');
    expect(ignored.body).toHaveLength(5);
    expect(ignored.headers['x-total-count']).toBe('5');
  });

  it('serves its OpenAPI description, the committed one', async () => {
    const { readFileSync } = await import('node:fs');
    const res = await service.anonymous.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(readFileSync('schema/openapi.json', 'utf8')));
  });

  it('the playground is served to a browser, self-contained', async () => {
    const res = await service.anonymous.get('/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/graphiql/i);
    expect(res.text).not.toMatch(/<script[^>]+src=["']https?:/i);
    expect(res.text).not.toMatch(/<link[^>]+href=["']https?:/i);
  });
});
