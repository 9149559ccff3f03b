import { describe, expect, it } from 'vitest';
import { type Service, type TestSchool } from '../support/service.js';
import { expectNotFound } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// The Edools v1 clients' product routes beyond the spec: a v1 product is today's school product,
// `/schools/:id/...` names the caller's school, and a v1 school class is a course class.

let service: Service;
let school: TestSchool;
let other: TestSchool;
twoSchools('Edools Products', 'Edools Products Other', (w) => ({ service, school, other } = w));

let serial = 0;
async function created(res: { status: number; text: string; body: any }) {
  expect(res.status, res.text).toBe(201);
  return res.body;
}
async function studentClient() {
  const n = ++serial;
  const person = await created(await school.admin.post('/students', { user: { first_name: 'P', last_name: `${n}`, email: `products-student${n}@example.com` } }));
  return service.token('student', school.id, person.id);
}

describe('/products and /schools/:id/(school_)products', () => {
  it('POST /schools/:id/products (201, Location /products/:id), GET, PUT and DELETE /products/:id', async () => {
    const res = await school.admin.post(`/v1/schools/${school.id}/products.json`, { product: { title: 'Old Product' } });
    const product = await created(res);
    expect(product).toMatchObject({ id: expect.any(Number), title: 'Old Product', school_id: school.id });
    expect(res.headers.location).toBe(`/products/${product.id}`);
    expect((await school.admin.get(`/products/${product.id}`)).body).toMatchObject({ id: product.id, title: 'Old Product' });
    const updated = await school.admin.put(`/api/products/${product.id}`, { product: { title: 'Renamed' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.title).toBe('Renamed');
    expect((await school.admin.delete(`/products/${product.id}`)).status).toBe(204);
    expectNotFound(await school.admin.get(`/products/${product.id}`));
  });

  it('GET /schools/:id/products and /school_products list the school’s; POST /schools/:id/school_products takes `school_product`', async () => {
    const product = await created(await school.admin.post(`/schools/${school.id}/school_products`, { school_product: { title: 'New Name' } }));
    for (const segment of ['products', 'school_products']) {
      const list = await school.admin.get(`/schools/${school.id}/${segment}?page=1&per_page=100`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.map((p: { id: number }) => p.id)).toContain(product.id);
      expect(list.body.every((p: { school_id: number }) => p.school_id === school.id)).toBe(true);
    }
  });

  it("another school's id in the path, or its product, is 404", async () => {
    const theirs = await created(await other.admin.post('/school_products', { school_product: { title: 'Theirs' } }));
    for (const segment of ['products', 'school_products']) {
      expectNotFound(await school.admin.get(`/schools/${other.id}/${segment}`));
      expectNotFound(await school.admin.post(`/schools/${other.id}/${segment}`, { [segment.slice(0, -1)]: { title: 'Elsewhere' } }));
    }
    expectNotFound(await school.admin.get(`/products/${theirs.id}`));
    expectNotFound(await school.admin.put(`/products/${theirs.id}`, { product: { title: 'Mine' } }));
    expectNotFound(await school.admin.delete(`/products/${theirs.id}`));
    expectNotFound(await school.admin.get(`/school_products/${theirs.id}/school_classes`));
  });

  it('a student reads the catalogue but may not write it', async () => {
    const product = await created(await school.admin.post('/school_products', { school_product: { title: 'For Sale' } }));
    const student = await studentClient();
    expect((await student.get(`/products/${product.id}`)).status).toBe(200);
    expect((await student.put(`/products/${product.id}`, { product: { title: 'Mine' } })).status).toBe(403);
    expect((await student.post(`/schools/${school.id}/products`, { product: { title: 'Mine' } })).status).toBe(403);
    expect((await student.delete(`/products/${product.id}`)).status).toBe(403);
  });
});

describe('/school_products/:id/school_classes', () => {
  it("lists the course classes of the product's courses only; staff only", async () => {
    const course = await created(await school.admin.post('/courses', { course: { name: 'With Classes' } }));
    const elsewhere = await created(await school.admin.post('/courses', { course: { name: 'Elsewhere' } }));
    const klass = await created(await school.admin.post(`/courses/${course.id}/course_classes`, { course_class: { code: `K-${++serial}` } }));
    await created(await school.admin.post(`/courses/${elsewhere.id}/course_classes`, { course_class: { code: `K-${++serial}` } }));
    const product = await created(await school.admin.post('/school_products', { school_product: { title: 'Classes', course_ids: [course.id] } }));
    const res = await school.admin.get(`/v1/school_products/${product.id}/school_classes.json`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: klass.id, course_id: course.id, code: klass.code })]);
    expect((await (await studentClient()).get(`/school_products/${product.id}/school_classes`)).status).toBe(403);
  });
});
