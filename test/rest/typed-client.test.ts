import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components, paths } from '../../schema/openapi-types.js';
import { type TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// The README's "Typed client": types generated from schema/openapi.json (openapi-typescript, kept
// fresh by test/artifacts.test.ts) and calls through openapi-fetch, over a real port.

type SchoolProduct = components['schemas']['SchoolProduct'];

let school: TestSchool;
let origin: string;
const world = twoSchools('Typed Client School', 'Typed Client Other', (w) => ({ school } = w));

beforeAll(async () => {
  origin = await world.service.app.listen({ port: 0, host: '127.0.0.1' });
});

describe('a typed client of the REST API (openapi-typescript + openapi-fetch)', () => {
  it('creates a school product and lists it, the replies typed by the OpenAPI document', async () => {
    const client = createClient<paths>({ baseUrl: origin, headers: { authorization: `Bearer ${school.admin.token}` } });

    const created = await client.POST('/school_products', { body: { school_product: { title: 'Typed Product' } } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    expectTypeOf(created.data).toEqualTypeOf<SchoolProduct | undefined>();
    expect(created.data).toMatchObject({ title: 'Typed Product', school_id: school.id, published: expect.any(Boolean) });

    const listed = await client.GET('/school_products', { params: { query: { page: 1, per_page: 50 } } });
    expect(listed.response.status).toBe(200);
    expectTypeOf(listed.data).toEqualTypeOf<SchoolProduct[] | undefined>();
    expect(listed.data?.map((p) => p.title)).toContain('Typed Product');

    const shown = await client.GET('/school_products/{id}', { params: { path: { id: created.data!.id } } });
    expect(shown.data?.id).toBe(created.data!.id);
  });

  it('types the errors and refuses, at compile time, what the document does not allow', async () => {
    const client = createClient<paths>({ baseUrl: origin, headers: { authorization: `Bearer ${school.admin.token}` } });
    const missing = await client.GET('/school_products/{id}', { params: { path: { id: 2_000_000_000 } } });
    expect(missing.response.status).toBe(404);
    expectTypeOf(missing.error).toEqualTypeOf<components['schemas']['ErrorReply'] | undefined>();
    expect(missing.error?.details.base?.[0].error).toBe('not_found');

    if (false as boolean) {
      // @ts-expect-error a title is a string
      await client.POST('/school_products', { body: { school_product: { title: 42 } } });
      // @ts-expect-error no such path
      await client.GET('/school_product');
    }
  });
});
