import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, startService, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// Wire habit: rest-client sends a request's parameters as a multipart body on every method, GET
// included, and an empty parameter hash as the bare form `--B\r\n--\r\n`; others send `--B--\r\n`
// or a urlencoded body. These are its exact bytes (its boundary is `----RubyFormBoundary` + random).

const B = '----RubyFormBoundaryTzHC1nW2sIIWJsT6';
const multipart = (raw: string) => ({ raw, headers: { 'content-type': `multipart/form-data; boundary=${B}` } });
const field = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const EMPTY_FORMS = [
  ['rest-client', `--${B}\r\n--\r\n`],
  ['a closing delimiter only', `--${B}--\r\n`],
  ['no bytes', ''],
];

let service: Service;
let school: TestSchool;
let productIds: number[];
beforeAll(async () => {
  service = await startService();
  school = await service.school('Multipart School');
  productIds = [];
  for (const title of ['First', 'Second', 'Third']) productIds.push((await school.admin.post('/school_products', { school_product: { title } })).body.id);
});
afterAll(() => service?.stop());

describe('GET', () => {
  it('list parameters in a multipart body are read (page and per_page)', async () => {
    const res = await school.admin.request('GET', '/school_products', undefined, multipart(field('page', '2') + field('per_page', '1') + `--${B}--\r\n`));
    expect(res.status, res.text).toBe(200);
    expect(res.headers['x-page']).toBe('2');
    expect(res.headers['x-per-page']).toBe('1');
    expect(res.body).toHaveLength(1);
  });

  it('list parameters in a urlencoded body are read', async () => {
    const res = await school.admin.request('GET', '/school_products', undefined, {
      raw: 'page=1&per_page=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(2);
  });

  it.each(EMPTY_FORMS)('an empty form (%s) is no parameters: a list and a show answer', async (_, raw) => {
    const list = await school.admin.request('GET', '/school_products', undefined, multipart(raw));
    expect(list.status, list.text).toBe(200);
    expect(list.body.length).toBeGreaterThanOrEqual(3);
    const show = await school.admin.request('GET', `/school_products/${productIds[0]}.json`, undefined, multipart(raw));
    expect(show.status, show.text).toBe(200);
    expect(show.body.title).toBe('First');
  });

  it('a truncated multipart GET body is a 400 in the error shape', async () => {
    const res = await school.admin.request('GET', '/school_products', undefined, multipart(`--${B}\r\nContent-Disposition: form-data; name="page"\r\n\r\n1`));
    expectFieldError(res, 400, 'base', 'bad_request');
  });
});

describe('POST, PUT, PATCH, DELETE', () => {
  it('a create and an update in rest-client multipart are read', async () => {
    const created = await school.admin.request('POST', '/school_products', undefined, multipart(field('school_product[title]', 'Made by rest-client') + `--${B}--\r\n`));
    expect(created.status, created.text).toBe(201);
    for (const method of ['PUT', 'PATCH']) {
      const updated = await school.admin.request(method, `/school_products/${created.body.id}`, undefined, multipart(field('school_product[title]', `Renamed by ${method}`) + `--${B}--\r\n`));
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body.title).toBe(`Renamed by ${method}`);
    }
  });

  it.each(EMPTY_FORMS)('a DELETE with an empty form (%s) deletes', async (_, raw) => {
    const { body } = await school.admin.post('/school_products', { school_product: { title: 'To delete' } });
    const res = await school.admin.request('DELETE', `/school_products/${body.id}`, undefined, multipart(raw));
    expect(res.status, res.text).toBe(204);
  });

  it.each(EMPTY_FORMS)('a POST or PUT with an empty form (%s) is a 400 naming the missing resource key', async (_, raw) => {
    expectFieldError(await school.admin.request('POST', '/school_products', undefined, multipart(raw)), 400, 'school_product', 'bad_request');
    expectFieldError(await school.admin.request('PUT', `/school_products/${productIds[0]}`, undefined, multipart(raw)), 400, 'school_product', 'bad_request');
  });

  it.each([
    ['a part cut in its value', `--${B}\r\nContent-Disposition: form-data; name="school_product[title]"\r\n\r\nHalf`],
    ['a part cut in its headers', `--${B}\r\nContent-Dispo`],
    ['an opening delimiter only', `--${B}\r\n`],
    ['a file cut short', `--${B}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nabc`],
    ['no delimiter at all', 'school_product[title]=x'],
  ])('a truncated or malformed body (%s) is a 400 in the error shape, on POST and PUT', async (_, raw) => {
    for (const [method, url] of [['POST', '/school_products'], ['PUT', `/school_products/${productIds[0]}`]]) {
      const res = await school.admin.request(method, url, undefined, multipart(raw));
      expectFieldError(res, 400, 'base', 'bad_request');
    }
    expect((await school.admin.get(`/school_products/${productIds[0]}`)).body.title).toBe('First');
  });

  it('a multipart type with no boundary is a 400 in the error shape', async () => {
    const res = await school.admin.request('POST', '/school_products', undefined, { raw: 'abc', headers: { 'content-type': 'multipart/form-data' } });
    expectErrorBody(res, 400);
  });
});
