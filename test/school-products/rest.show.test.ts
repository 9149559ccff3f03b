import { describe, expect, it } from 'vitest';
import { productCreator, schoolProductFixtures } from '../support/school-products.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { expectErrorBody } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of SchoolProduct: GET /school_products/:id. Fixtures: test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Main School', 'Other School', (w) => ({ service, school, other } = w));
const { category, mediaItem, person, studentClient } = schoolProductFixtures(() => world.service);
const createProduct = productCreator(() => world.school.admin);

describe('GET /school_products/:id', () => {
  it('given a product with links, when shown, then 200 with its fields and lists', async () => {
    const c = await category(school);
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const t = await person(school, 'Collaborator');
    const created = await createProduct({ title: 'Shown', category_ids: [c.id], gallery_media_ids: [m2.id, m1.id], class_teacher_ids: [t.id] });

    const res = await school.admin.get(`/school_products/${created.id}`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expect(res.body).toMatchObject({ id: created.id, title: 'Shown', category_ids: [c.id], gallery_media_ids: [m2.id, m1.id], class_teacher_ids: [t.id] });
  });

  it.each(['/v1/school_products/:id', '/school_products/:id.json', '/school_products/:id/', '/api/school_products/:id'])(
    'given the path variant %s, then the same product',
    async (path) => {
      const created = await createProduct({ title: 'Variant' });
      const res = await school.admin.get(path.replace(':id', String(created.id)));
      expect(res.status, res.text).toBe(200);
      expect(res.body.id).toBe(created.id);
    },
  );

  it('given a student of the school, then it may read the product', async () => {
    const created = await createProduct({ title: 'Readable' });
    const res = await (await studentClient(school)).get(`/school_products/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Readable');
  });

  it("given another school's product, then 404 not_found for the admin and the student", async () => {
    const foreign = await createProduct({ title: 'Foreign' }, other.admin);
    for (const client of [school.admin, await studentClient(school)]) {
      const res = await client.get(`/school_products/${foreign.id}`);
      expectErrorBody(res, 404);
      expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
    }
  });

  it.each(['abc', '12abc', '999999', '0', '-1', '99999999999'])('given the id %s, then 404 not_found', async (id) => {
    const res = await school.admin.get(`/school_products/${id}`);
    expectErrorBody(res, 404);
    expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
  });

  it('given no credential or a wrong token, then 401', async () => {
    const created = await createProduct({ title: 'Private' });
    expectErrorBody(await service.anonymous.get(`/school_products/${created.id}`), 401);
    expectErrorBody(await service.client('nope').get(`/school_products/${created.id}`), 401);
    expectErrorBody(await service.client(null, { authorization: 'Basic dXNlcjpwYXNz' }).get(`/school_products/${created.id}`), 401);
  });
});
