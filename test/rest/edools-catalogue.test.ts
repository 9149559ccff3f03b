import { describe, expect, it } from 'vitest';
import { type Service, type TestSchool } from '../support/service.js';
import { expectNotFound } from '../support/rest-assertions.js';
import { productCreator } from '../support/school-products.fixtures.js';
import { twoSchools } from '../support/world.js';

// The Edools v1 clients' category and coupon routes beyond the spec, onto the library's category and
// the orders module's coupon operations (`/products/:id/coupons`: a v1 product is a school product).

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Edools Catalogue', 'Edools Catalogue Other', (w) => ({ service, school, other } = w));
const createProduct = productCreator(() => school.admin);

let serial = 0;
async function studentClient() {
  const n = ++serial;
  const res = await school.admin.post('/students', { user: { first_name: 'Cat', last_name: `Student ${n}`, email: `catalogue-student${n}@example.com` } });
  expect(res.status, res.text).toBe(201);
  return service.token('student', school.id, res.body.id);
}

describe('/categories', () => {
  it('POST (201 + Location), GET list and show, PUT, DELETE (204, then 404)', async () => {
    const created = await school.admin.post('/categories', { category: { name: 'Design', slug: `design-${++serial}` } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'Design', school_id: school.id });
    expect(created.headers.location).toBe(`/categories/${created.body.id}`);
    const id = created.body.id;
    const list = await school.admin.get('/v1/categories.json');
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((c: { id: number }) => c.id)).toContain(id);
    expect((await school.admin.get(`/api/categories/${id}`)).body).toMatchObject({ id, name: 'Design' });
    const updated = await school.admin.put(`/categories/${id}`, { category: { name: 'UX' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.name).toBe('UX');
    expect((await school.admin.delete(`/categories/${id}`)).status).toBe(204);
    expectNotFound(await school.admin.get(`/categories/${id}`));
  });

  it("another school's category is 404; a student reads the catalogue but may not write it", async () => {
    const theirs = (await other.admin.post('/categories', { category: { name: 'Theirs' } })).body;
    expectNotFound(await school.admin.get(`/categories/${theirs.id}`));
    expectNotFound(await school.admin.put(`/categories/${theirs.id}`, { category: { name: 'Mine' } }));
    expectNotFound(await school.admin.delete(`/categories/${theirs.id}`));
    const student = await studentClient();
    expect((await student.get('/categories')).status).toBe(200);
    expect((await student.post('/categories', { category: { name: 'Nope' } })).status).toBe(403);
  });

  it('a create without a name is 422 naming it', async () => {
    const res = await school.admin.post('/categories', { category: { slug: 'no-name' } });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors)).toContain('name');
  });
});

describe('/coupons', () => {
  it('POST (201), GET show, PUT, GET /products/:id/coupons lists the product’s; DELETE deactivates (204)', async () => {
    const product = await createProduct({ title: 'Couponed' });
    const elsewhere = await createProduct({ title: 'Elsewhere' });
    const created = await school.admin.post('/coupons', { coupon: { code: `TEN-${++serial}`, discount_percent: 10, school_product_id: product.id } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), discount_percent: 10, active: true, school_product_id: product.id });
    expect(created.headers.location).toBe(`/coupons/${created.body.id}`);
    const id = created.body.id;
    await school.admin.post('/coupons', { coupon: { code: `OTHER-${++serial}`, discount_amount: 500, school_product_id: elsewhere.id } });
    const ofProduct = await school.admin.get(`/v1/products/${product.id}/coupons.json`);
    expect(ofProduct.status, ofProduct.text).toBe(200);
    expect(ofProduct.body.map((c: { id: number }) => c.id)).toEqual([id]);
    expect((await school.admin.get(`/coupons/${id}`)).body).toMatchObject({ id, discount_percent: 10 });
    const updated = await school.admin.put(`/coupons/${id}`, { coupon: { discount_percent: 20 } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.discount_percent).toBe(20);
    expect((await school.admin.delete(`/coupons/${id}`)).status).toBe(204);
    expect((await school.admin.get(`/coupons/${id}`)).body.active).toBe(false);
  });

  it('a coupon with neither a percentage nor an amount is 422', async () => {
    const res = await school.admin.post('/coupons', { coupon: { code: `NONE-${++serial}` } });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.errors)).toContain('discount_percent');
  });

  it("another school's coupon and product are 404; a student is refused every coupon route", async () => {
    const theirProduct = (await other.admin.post('/school_products', { school_product: { title: 'Theirs' } })).body;
    const theirs = (await other.admin.post('/coupons', { coupon: { code: `THEIRS-${++serial}`, discount_percent: 5 } })).body;
    expectNotFound(await school.admin.get(`/coupons/${theirs.id}`));
    expectNotFound(await school.admin.put(`/coupons/${theirs.id}`, { coupon: { discount_percent: 1 } }));
    expectNotFound(await school.admin.delete(`/coupons/${theirs.id}`));
    expectNotFound(await school.admin.get(`/products/${theirProduct.id}/coupons`));
    const student = await studentClient();
    const mine = (await school.admin.post('/coupons', { coupon: { code: `MINE-${++serial}`, discount_percent: 5 } })).body;
    expect((await student.get(`/coupons/${mine.id}`)).status).toBe(403);
    expect((await student.post('/coupons', { coupon: { code: 'X', discount_percent: 5 } })).status).toBe(403);
    expect((await student.delete(`/coupons/${mine.id}`)).status).toBe(403);
  });
});
