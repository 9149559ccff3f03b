import { describe, expect, it } from 'vitest';
import { mediaFixtures } from './support/media.fixtures.js';
import { type Service, type TestSchool } from './support/service.js';
import { twoSchools } from './support/world.js';

// A school product's categories and gallery media over REST, with categories and media made
// through the API (createCategory, POST /media).

let service: Service;
let school: TestSchool;
let other: TestSchool;
let f: ReturnType<typeof mediaFixtures>;

twoSchools('Catalogue School', 'Other Catalogue School', (w) => {
  ({ service, school, other } = w);
  f = mediaFixtures(service);
});

let serial = 0;
async function category(s: TestSchool) {
  const res = await s.admin.graphql(`mutation ($input: CategoryInput!) { createCategory(input: $input) { category { id } errors { code } } }`, {
    input: { name: `Category ${++serial}`, slug: `category-${serial}` },
  });
  expect(res.data.createCategory.errors).toEqual([]);
  return Number(res.data.createCategory.category.id);
}

describe('school_product[category_ids] and [gallery_media_ids]', () => {
  it('given categories and gallery media of the school, then the product shows them, the gallery in the order given', async () => {
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2, m3] = [(await f.create(school)).id, (await f.videoSlide(school)).id, (await f.scorm(school)).id];
    const res = await school.admin.post('/school_products', { school_product: { title: 'Photography', category_ids: [c2, c1], gallery_media_ids: [m3, m1, m2] } });
    expect(res.status, res.text).toBe(201);
    expect([...res.body.category_ids].sort((a: number, b: number) => a - b)).toEqual([c1, c2].sort((a, b) => a - b));
    expect(res.body.gallery_media_ids).toEqual([m3, m1, m2]);
  });

  it('given a form body with bracket lists, then an update replaces them; an empty list clears', async () => {
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2] = [(await f.create(school)).id, (await f.create(school)).id];
    const created = await school.admin.post('/school_products', { school_product: { title: 'Form', category_ids: [c1], gallery_media_ids: [m1] } });
    expect(created.status, created.text).toBe(201);
    const raw = `school_product[category_ids][]=${c2}&school_product[gallery_media_ids][]=${m2}&school_product[gallery_media_ids][]=${m1}`;
    const updated = await school.admin.put(`/school_products/${created.body.id}`, undefined, { raw, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ category_ids: [c2], gallery_media_ids: [m2, m1] });
    const cleared = await school.admin.patch(`/school_products/${created.body.id}`, { school_product: { category_ids: [], gallery_media_ids: [] } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ category_ids: [], gallery_media_ids: [] });
  });

  it("given another school's category or media, then 422 naming each and no product", async () => {
    const before = (await school.admin.get('/school_products')).body.length;
    const res = await school.admin.post('/school_products', {
      school_product: { title: 'Borrowed', category_ids: [await category(other)], gallery_media_ids: [(await f.create(other)).id] },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.details.category_ids).toEqual([{ error: 'not_found' }]);
    expect(res.body.details.gallery_media_ids).toEqual([{ error: 'not_found' }]);
    expect((await school.admin.get('/school_products')).body.length).toBe(before);
  });
});
