import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, startService, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError } from './support/rest-assertions.js';

// Wire habit: a media type with parameters, in any case. Many HTTP libraries (Faraday, Net::HTTP
// wrappers, axios, jQuery) send `application/json; charset=utf-8`; some capitalise it.

const JSON_TYPES = ['application/json; charset=utf-8', 'Application/JSON;Charset=UTF-8', 'application/json;charset=UTF-8', 'application/vnd.learning.v1+json; charset=utf-8'];

let service: Service;
let school: TestSchool;
beforeAll(async () => {
  service = await startService();
  school = await service.school('Media Types School');
});
afterAll(() => service?.stop());

describe('REST', () => {
  it.each(JSON_TYPES)('a JSON body sent as %j is read (create and update)', async (type) => {
    const created = await school.admin.request('POST', '/school_products', undefined, {
      raw: '{"school_product":{"title":"Charset product"}}',
      headers: { 'content-type': type },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.title).toBe('Charset product');
    const updated = await school.admin.request('PUT', `/school_products/${created.body.id}`, undefined, {
      raw: '{"school_product":{"title":"Charset renamed"}}',
      headers: { 'content-type': type },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.title).toBe('Charset renamed');
  });

  it('a GET with a JSON content type and no body (ActiveResource) is answered', async () => {
    const res = await school.admin.request('GET', '/school_products', undefined, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status, res.text).toBe(200);
  });

  it.each(['application/x-www-form-urlencoded; charset=UTF-8', 'Application/X-WWW-Form-Urlencoded'])('a form sent as %j is read', async (type) => {
    const res = await school.admin.request('POST', '/school_products', undefined, {
      raw: 'school_product%5Btitle%5D=Form+product',
      headers: { 'content-type': type },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('Form product');
  });

  it('a multipart type in capitals with a quoted boundary is read', async () => {
    const res = await school.admin.request('POST', '/school_products', undefined, {
      raw: '--XyZ\r\nContent-Disposition: form-data; name="school_product[title]"\r\n\r\nMultipart product\r\n--XyZ--\r\n',
      headers: { 'content-type': 'Multipart/Form-Data; Boundary="XyZ"' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.title).toBe('Multipart product');
  });

  it('malformed JSON under a charset parameter is a 400 in the error shape', async () => {
    const res = await school.admin.request('POST', '/school_products', undefined, { raw: '{"school_product": ', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expectFieldError(res, 400, 'base', 'bad_request');
  });

  it('a type the service does not read stays a 415 in the error shape', async () => {
    const res = await school.admin.request('POST', '/school_products', undefined, { raw: '<school_product/>', headers: { 'content-type': 'application/xml; charset=utf-8' } });
    expectErrorBody(res, 415);
  });
});

describe('POST /graphql', () => {
  it.each(JSON_TYPES.slice(0, 3))('a request sent as %j is executed', async (type) => {
    const res = await school.admin.request('POST', '/graphql', undefined, {
      raw: '{"query":"{ schoolProducts(first: 1) { totalCount } }"}',
      headers: { 'content-type': type },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.schoolProducts.totalCount).toBeGreaterThan(0);
  });

  it('malformed JSON under a charset parameter is a 400 with a code', async () => {
    const res = await school.admin.request('POST', '/graphql', undefined, { raw: '{"query": ', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});
