import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseInputError } from '../src/graphql/errors.js';
import { inputFlaw, MAX_INPUT_DEPTH } from '../src/graphql/input-guard.js';
import { parseJsonBody } from '../src/rest/get-body.js';
import { integrations } from '../src/modules/integrations/integration.table.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';
import { type Reply, type Service, startService, type TestSchool } from './support/service.js';

// Regression tests for the causes of 500s and off-shape error replies that the fuzz test
// (fuzz.test.ts) found: each bad input is refused where it enters, in the face's documented shape.

const json = (raw: string) => ({ raw, headers: { 'content-type': 'application/json' } });
const nested = (depth: number, leaf = '1') => '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
const leaks = /Maximum call stack|\bat .*\.(ts|js):\d+|node_modules|drizzle|postgres|pglite|fastify|apollo|insert into|select .* from/i;

/** The GraphQL error shape: `{"errors": [{"message", "extensions": {"code"}}]}` (and the reply's own `extensions`). */
function expectGraphqlErrors(res: Reply, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body ?? {}).filter((k) => k !== 'extensions'), res.text).toEqual(['errors']);
  expect(res.body.errors[0]).toMatchObject({ message: expect.any(String), extensions: { code } });
  expect(res.text).not.toMatch(leaks);
}

describe('bad input never answers 500', () => {
  let service: Service;
  let school: TestSchool;
  let productId: number;
  const productCount = async () => (await service.db.select({ n: count() }).from(schoolProducts))[0].n;

  beforeAll(async () => {
    service = await startService();
    school = await service.school('Bad Input School');
    productId = (await school.admin.post('/school_products', { school_product: { title: 'Kept' } })).body.id;
  });
  afterAll(() => service?.stop());

  describe('text no field can hold', () => {
    it.each(['json', 'form', 'multipart'] as const)('given a NUL byte in a %s body field, then 400 naming the field and nothing is stored', async (encoding) => {
      const before = await productCount();
      const res = await school.admin.post('/school_products', { school_product: { title: 'a\u0000b' } }, { encoding });
      expectFieldError(res, 400, 'title', 'invalid_characters');
      expect(await productCount()).toBe(before);
    });

    it('given a NUL byte in a code lookup, then 400 naming code', async () => {
      expectFieldError(await school.admin.get('/enrollments/ab%00c?find_by=code'), 400, 'code', 'invalid_characters');
    });

    it('given a lone surrogate in a JSON hash field (value or key), then 400 naming the field, the key not echoed', async () => {
      const owner = `"owner_type":"School","owner_id":${school.id}`;
      const value = await school.admin.post('/integrations', undefined, json(`{"integration":{${owner},"metaconfig":{"k":"\\ud800"}}}`));
      expectFieldError(value, 400, 'metaconfig.k', 'invalid_characters');
      const key = await school.admin.post('/integrations', undefined, json(`{"integration":{${owner},"metaconfig":{"\\udc00x":"v"}}}`));
      expectFieldError(key, 400, 'metaconfig', 'invalid_characters');
      expect((await service.db.select({ n: count() }).from(integrations))[0].n).toBe(0);
    });

    it('given a NUL byte in a GraphQL variable or string literal, then 400 BAD_USER_INPUT naming the variable', async () => {
      const variable = await school.admin.request('POST', '/graphql', {
        query: 'mutation($t: String) { createSchoolProduct(input: {title: $t}) { errors { code } } }',
        variables: { t: 'a\u0000b' },
      });
      expectGraphqlErrors(variable, 400, 'BAD_USER_INPUT');
      expect(variable.body.errors[0].extensions.field).toEqual(['t']);
      const literal = await school.admin.request('POST', '/graphql', {
        query: 'mutation { createSchoolProduct(input: {title: "a\\u0000b"}) { errors { code } } }',
      });
      expectGraphqlErrors(literal, 400, 'BAD_USER_INPUT');
    });

    it('given a body that is not UTF-8, then 400', async () => {
      const res = await school.admin.request('POST', '/school_products', undefined, {
        raw: Buffer.from('{"school_product":{"title":"\xff\xfe"}}', 'latin1') as never,
        headers: { 'content-type': 'application/json' },
      });
      expectFieldError(res, 400, 'base', 'bad_request');
    });

    it('inputFlaw names the path and walks a value of any depth without recursion', () => {
      expect(inputFlaw({ a: [{ b: 'x\u0000' }] })).toMatchObject({ path: ['a', 0, 'b'], code: 'invalid_characters' });
      expect(inputFlaw({ a: '\ud83d\ude00 paired surrogates are fine' })).toBeNull();
      let deep: unknown = 1;
      for (let i = 0; i < 100_000; i++) deep = [deep];
      expect(inputFlaw(deep)).toMatchObject({ code: 'too_deep' });
    });
  });

  describe('encoding', () => {
    it('a JSON body with a byte-order mark is read without it; bytes that are not UTF-8 are refused', () => {
      expect(parseJsonBody(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"ç"}')]))).toEqual({ a: 'ç' });
      expect(() => parseJsonBody(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]))).toThrow('The body is not valid UTF-8');
    });
  });

  describe('nesting', () => {
    it(`given a JSON body ${MAX_INPUT_DEPTH} levels deep it is read; one more is a 400`, () => {
      expect(parseJsonBody(Buffer.from(nested(MAX_INPUT_DEPTH)))).toBeTypeOf('object');
      expect(() => parseJsonBody(Buffer.from(nested(MAX_INPUT_DEPTH + 1)))).toThrow(/deeper than 64/);
    });

    it('given a 10,000-deep JSON hash field, then 400 on REST and GraphQL', async () => {
      const rest = await school.admin.post('/integrations', undefined, json(`{"integration":{"owner_type":"School","metaconfig":${nested(10_000)}}}`));
      expectFieldError(rest, 400, 'base', 'bad_request');
      const graphql = await school.admin.request('POST', '/graphql', undefined, json(`{"query":"query($m: JSON) { schools { totalCount } }","variables":{"m":${nested(10_000)}}}`));
      expectGraphqlErrors(graphql, 400, 'BAD_REQUEST');
    });

    it.each([2400, 5000])('given a GraphQL document nested %i deep, then a 400 that names no engine failure', async (depth) => {
      const res = await school.admin.request('POST', '/graphql', { query: `{ schools(first: ${'['.repeat(depth)}${']'.repeat(depth)}) { totalCount } }` });
      expect(res.status, res.text).toBe(400);
      // Refused by the parser, by the token limit, or (when the stack allows parsing) by validation.
      expect(res.body.errors[0].extensions.code, res.text).toMatch(/^(GRAPHQL_PARSE_FAILED|QUERY_TOO_LARGE|GRAPHQL_VALIDATION_FAILED)$/);
      expect(res.text).not.toMatch(leaks);
    });
  });

  describe('pages and cursors', () => {
    it('given page past the GraphQL Int range, then 400 naming page; the last page number in range is an empty page', async () => {
      expectFieldError(await school.admin.get('/school_products?page=2147483648'), 400, 'page', 'bad_request');
      expectFieldError(await school.admin.get('/school_products?page=99999999999999999999999'), 400, 'page', 'bad_request');
      const last = await school.admin.get('/school_products?page=2147483647&per_page=100');
      expect(last.status).toBe(200);
      expect(last.body).toEqual([]);
      expect(last.headers['x-total-count']).toBe('1');
    });

    it('given the largest page on a nested connection, then an empty page', async () => {
      const res = await school.admin.graphql(`{ schools { nodes { schoolProducts(page: 2147483647, perPage: 100) { nodes { id } } } } }`);
      expect(res.errors).toBeUndefined();
      expect(res.data.schools.nodes[0].schoolProducts.nodes).toEqual([]);
    });

    it('given a forged cursor past the id range, then BAD_USER_INPUT naming after', async () => {
      const forged = Buffer.from('id:99999999999').toString('base64url');
      const res = await school.admin.graphql(`{ schoolProducts(after: "${forged}") { totalCount } }`);
      expect(res.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', field: ['after'] });
    });
  });

  describe('multipart', () => {
    const multipart = (raw: string, contentType: string) => ({ raw, headers: { 'content-type': contentType } });
    it.each([
      ['no closing boundary', '--XX\r\nContent-Disposition: form-data; name="school_product[title]"\r\n\r\nabc', 'multipart/form-data; boundary=XX'],
      ['no boundary', 'abc', 'multipart/form-data'],
      ['a broken part header', '--XX\r\nContent-Disposition\r\n\r\nabc\r\n--XX--\r\n', 'multipart/form-data; boundary=XX'],
    ])('given a multipart body with %s, then 400 and nothing stored', async (_, raw, type) => {
      const before = await productCount();
      const res = await school.admin.request('POST', '/school_products', undefined, multipart(raw, type));
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      expectErrorBody(res, res.status);
      expect(await productCount()).toBe(before);
    });

    it('given a well-formed multipart body with bracket names, then it is read as before', async () => {
      const res = await school.admin.post('/school_products', { school_product: { title: 'Multipart product' } }, { encoding: 'multipart' });
      expect(res.status, res.text).toBe(201);
      expect(res.body.title).toBe('Multipart product');
    });
  });

  describe('values the database refuses', () => {
    it('given null for a required boolean on update, then 422 blank naming it and the row unchanged', async () => {
      const res = await school.admin.put(`/school_products/${productId}`, { school_product: { published: null, title: 'Changed' } });
      expectFieldError(res, 422, 'published', 'blank');
      expect((await school.admin.get(`/school_products/${productId}`)).body.title).toBe('Kept');
    });

    it.each([
      ['22P02', sql`select 'x'::integer`],
      ['22003', sql`select 2147483648::integer`],
      ['22008', sql`select '294277-01-01'::timestamptz`],
      ['22007', sql`select '2026-02-30'::date`],
    ])('a data exception %s from the driver is recognised as the input’s fault', async (code, statement) => {
      const error = await service.db.execute(statement).then(() => null, (e: unknown) => e);
      expect(error).not.toBeNull();
      expect(databaseInputError(error)).toMatchObject({ code: 'invalid', field: [] });
      expect(databaseInputError({ cause: { code } })).toMatchObject({ code: 'invalid' });
    });

    it('a NOT NULL violation from the driver names the column as a field', async () => {
      const error = await service.db.execute(sql`insert into school_products (school_id, title) values (${school.id}, null)`).then(() => null, (e: unknown) => e);
      expect(databaseInputError(error)).toEqual({ code: 'blank', field: ['title'], message: "can't be blank" });
    });
  });

  describe('framework errors in the documented shape, echoing nothing', () => {
    it('given a path parameter too long, then 414 in the REST shape without the URL', async () => {
      const res = await school.admin.get(`/school_products/${'7'.repeat(300)}`);
      expectFieldError(res, 414, 'base', 'uri_too_long');
      expect(res.text).not.toContain('777777');
    });

    it('given a path that is no route, then 404 route_not_found without the path', async () => {
      const res = await school.admin.get('/no_such_thing_<script>');
      expectFieldError(res, 404, 'base', 'route_not_found');
      expect(res.text).not.toContain('script');
    });

    it.each([
      ['malformed JSON', 400, 'BAD_REQUEST', { raw: '{"query": ', headers: { 'content-type': 'application/json' } }],
      ['an unsupported content type', 415, 'UNSUPPORTED_MEDIA_TYPE', { raw: '<q/>', headers: { 'content-type': 'application/xml' } }],
      ['a body over the limit', 413, 'PAYLOAD_TOO_LARGE', { raw: JSON.stringify({ query: `{ schools { totalCount } }${' '.repeat(2 * 1024 * 1024)}` }), headers: { 'content-type': 'application/json' } }],
      ['a form without a preflight header', 400, 'BAD_REQUEST', { raw: 'query=%7Bschools%7BtotalCount%7D%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
    ])('given %s on /graphql, then %i in the GraphQL shape', async (_, status, code, options) => {
      expectGraphqlErrors(await school.admin.request('POST', '/graphql', undefined, options), status as number, code as string);
    });

    it('given a method /graphql does not answer, then 405 in the GraphQL shape', async () => {
      const res = await school.admin.request('PUT', '/graphql', { query: '{ schools { totalCount } }' });
      expectGraphqlErrors(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('GET, POST, OPTIONS');
    });

    it.each([
      ['a persisted-query hash that is not the document\'s', { version: 1, sha256Hash: 'not-the-hash' }],
      ['a persisted-query version the service does not know', { version: 2, sha256Hash: 'not-the-hash' }],
    ])('given %s, then 400 BAD_REQUEST (also to a client accepting only application/json)', async (_, persistedQuery) => {
      const body = { query: '{ schools { totalCount } }', extensions: { persistedQuery } };
      expectGraphqlErrors(await school.admin.request('POST', '/graphql', body), 400, 'BAD_REQUEST');
      expectGraphqlErrors(await school.admin.request('POST', '/graphql', body, { headers: { accept: 'application/json' } }), 400, 'BAD_REQUEST');
    });
  });
});
