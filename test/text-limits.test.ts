import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitFor } from '../src/graphql/text-limits.js';
import { schoolProducts } from '../src/modules/school-products/school-product.table.js';
import { type Service, startService, type TestSchool } from './support/service.js';

// Text fields are bounded by family (README "Text limits"): beyond, REST answers 422 naming the
// field and GraphQL a BAD_USER_INPUT error naming it, and nothing is written.

let service: Service;
let school: TestSchool;

beforeAll(async () => {
  service = await startService();
  school = await service.school('Limits School');
});
afterAll(() => service?.stop());

const products = async () => {
  const [row] = await service.db.select({ n: sql<number>`count(*)::int` }).from(schoolProducts);
  return Number(row.n);
};
const MEGABYTE = 'x'.repeat(1_000_000);

describe('the families', () => {
  it('sorts fields by name and scalar', () => {
    const max = (field: string, scalar = 'String') => limitFor(field, scalar).max;
    expect([max('title'), max('name'), max('code'), max('slug'), max('uuid')]).toEqual([255, 255, 255, 255, 255]);
    expect([max('videoUrl'), max('imageUrl'), max('redirectUri'), max('site'), max('socialLink3')]).toEqual([2048, 2048, 2048, 2048, 2048]);
    expect([max('email', 'EmailAddress'), max('email')]).toEqual([254, 254]);
    expect([max('description'), max('text'), max('termsOfUse'), max('message')]).toEqual([65_535, 65_535, 65_535, 65_535]);
    expect([max('password'), max('crmToken'), max('secretKey'), max('token')]).toEqual([4096, 4096, 4096, 4096]);
    expect([max('metadata', 'JSONObject'), max('metaconfig', 'JSONObject'), max('metaAvailableLocales', 'JSON')]).toEqual([65_536, 65_536, 65_536]);
  });
});

describe('REST', () => {
  it('given a 1 MB title, then 422 naming title, too_long, and no product', async () => {
    const before = await products();
    const res = await school.admin.post('/school_products', { school_product: { title: MEGABYTE } });
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.body).toEqual({
      errors: { title: ['Title is too long (maximum is 255 characters)'] },
      details: { title: [{ error: 'too_long' }] },
    });
    expect(await products()).toBe(before);
  });

  it('given each family at its limit, then 201; one character over, then 422 naming the field', async () => {
    const at = { title: 't'.repeat(255), description: 'd'.repeat(65_535), video_url: `https://v.example/${'u'.repeat(2048 - 18)}` };
    expect(at.video_url).toHaveLength(2048);
    const ok = await school.admin.post('/school_products', { school_product: at });
    expect(ok.status, ok.text.slice(0, 300)).toBe(201);
    for (const [field, value] of Object.entries(at)) {
      const res = await school.admin.post('/school_products', { school_product: { ...at, [field]: `${value}x` } });
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.details[field]).toEqual([{ error: 'too_long' }]);
    }
  });

  it('counts characters, not UTF-16 units: 255 emoji make a valid title', async () => {
    const res = await school.admin.post('/school_products', { school_product: { title: '📚'.repeat(255) } });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    expect((await school.admin.post('/school_products', { school_product: { title: '📚'.repeat(256) } })).status).toBe(422);
  });

  it('given a JSON hash whose JSON text passes 64 KiB, then 422 naming it; below, it is stored', async () => {
    const big = { notes: 'n'.repeat(70_000) };
    const res = await school.admin.put(`/school/${school.id}`, { school: { metadata: big } });
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(res.body.errors).toEqual({ metadata: ['Metadata is too long (maximum is 65,536 characters of JSON)'] });
    const many = { list: Array.from({ length: 40_000 }, (_, i) => i) };
    expect((await school.admin.put(`/school/${school.id}`, { school: { metadata: many } })).status).toBe(422);
    const fine = await school.admin.put(`/school/${school.id}`, { school: { metadata: { notes: 'n'.repeat(60_000) } } });
    expect(fine.status, fine.text.slice(0, 300)).toBe(200);
  });
});

describe('GraphQL', () => {
  it('given a 1 MB title, then a BAD_USER_INPUT error naming title, and no product', async () => {
    const before = await products();
    const res = await school.admin.graphql(
      'mutation($input: SchoolProductInput!) { createSchoolProduct(input: $input) { schoolProduct { id } errors { field } } }',
      { input: { title: MEGABYTE } },
    );
    expect(res.data?.createSchoolProduct ?? null).toBeNull();
    expect(res.errors).toEqual([
      expect.objectContaining({
        message: 'Title is too long (maximum is 255 characters)',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: ['title'] }),
      }),
    ]);
    expect(await products()).toBe(before);
  });

  it('given a query argument beyond its family, then it is refused by its own name', async () => {
    const res = await school.admin.graphql('query($code: String) { enrollment(code: $code) { id } }', { code: 'c'.repeat(256) });
    expect(res.errors?.[0]).toMatchObject({
      message: 'Code is too long (maximum is 255 characters)',
      extensions: { code: 'BAD_USER_INPUT', field: ['code'] },
    });
  });
});
