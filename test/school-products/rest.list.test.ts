import { describe, expect, it } from 'vitest';
import { productCreator, schoolProductFixtures } from '../support/school-products.fixtures.js';
import type { Service } from '../support/service.js';
import { expectErrorBody } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of SchoolProduct: GET /school_products, the school's own products (its pages are in
// test/rest/pagination.test.ts). Fixtures: test/support/school-products.fixtures.ts.

let service: Service;
const world = twoSchools('Main School', 'Other School', (w) => ({ service } = w));
const { studentClient } = schoolProductFixtures(() => world.service);
const createProduct = productCreator(() => world.school.admin);

describe('GET /school_products', () => {
  it("given two schools with products, when each admin lists, then each sees only its own school's products, in id order", async () => {
    const a = await service.school('List A');
    const b = await service.school('List B');
    const a1 = await createProduct({ title: 'A1' }, a.admin);
    const b1 = await createProduct({ title: 'B1' }, b.admin);
    const a2 = await createProduct({ title: 'A2', published: false }, a.admin);

    const res = await a.admin.get('/school_products');

    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((p: any) => p.id)).toEqual([a1.id, a2.id]);
    expect(res.body[0]).toEqual(a1);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers['x-page']).toBeDefined();
    expect(res.headers['x-per-page']).toBeDefined();
    expect(res.headers.link).toBeDefined();

    const resB = await b.admin.get('/school_products');
    expect(resB.body.map((p: any) => p.id)).toEqual([b1.id]);

    const student = await studentClient(a);
    const resStudent = await student.get('/school_products');
    expect(resStudent.status).toBe(200);
    expect(resStudent.body.map((p: any) => p.id)).toEqual([a1.id, a2.id]);
  });

  it('given a school without products, then an empty array', async () => {
    const empty = await service.school('Empty');
    const res = await empty.admin.get('/school_products');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('given no credential or a wrong token, then 401', async () => {
    expectErrorBody(await service.anonymous.get('/school_products'), 401);
    expectErrorBody(await service.client('wrong').get('/school_products'), 401);
  });
});
