import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { categories } from '../../src/modules/library/library.table.js';
import { media } from '../../src/modules/media/media.table.js';
import { schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { expectNoWrite as expectNoWriteOf } from '../support/fingerprint.js';
import { productCreator, schoolProductFixtures } from '../support/school-products.fixtures.js';
import type { Reply, Service, TestSchool } from '../support/service.js';
import { expectErrorBody } from '../support/rest-assertions.js';
import { twoSchools } from '../support/world.js';

// REST face of SchoolProduct: DELETE /school_products/:id. Fixtures: test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('Main School', 'Other School', (w) => ({ service, school, other } = w));
const { category, mediaItem, studentClient, productRow, linksOf, snapshot } = schoolProductFixtures(() => world.service);
const expectNoWrite = (work: () => Promise<Reply>) => expectNoWriteOf(snapshot, work);
const createProduct = productCreator(() => world.school.admin);

describe('DELETE /school_products/:id', () => {
  it('given a product with topics and links, when deleted, then 204 with no body, its rows are gone and it is 404 after', async () => {
    const c = await category(school);
    const m = await mediaItem(school);
    const created = await createProduct({ title: 'Doomed', category_ids: [c.id], gallery_media_ids: [m.id] });
    const topic = await school.admin.post(`/school_products/${created.id}/school_product_topics`, {
      school_product_topic: { title: 'T', description: 'D' },
    });
    expect(topic.status).toBe(201);

    const res = await school.admin.delete(`/school_products/${created.id}`);

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await productRow(created.id)).toBeUndefined();
    expect(await linksOf(created.id)).toEqual({ categoryIds: [], galleryMediaIds: [], classTeacherIds: [] });
    expect(await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.schoolProductId, created.id))).toEqual([]);
    // The linked category and media themselves stay.
    expect(await service.db.select().from(categories).where(eq(categories.id, c.id))).toHaveLength(1);
    expect(await service.db.select().from(media).where(eq(media.id, m.id))).toHaveLength(1);

    expectErrorBody(await school.admin.get(`/school_products/${created.id}`), 404);
    const again = await school.admin.delete(`/school_products/${created.id}`);
    expectErrorBody(again, 404);
    expect(again.body.details.base).toEqual([{ error: 'not_found' }]);
  });

  it('given the /v1 prefix, then it deletes too', async () => {
    const created = await createProduct({ title: 'Doomed v1' });
    expect((await school.admin.delete(`/v1/school_products/${created.id}`)).status).toBe(204);
    expect(await productRow(created.id)).toBeUndefined();
  });

  it("given another school's product, then 404 and the row stays", async () => {
    const foreign = await createProduct({ title: 'Not yours' }, other.admin);
    const res = await expectNoWrite(() => school.admin.delete(`/school_products/${foreign.id}`));
    expectErrorBody(res, 404);
    expect(res.body.details.base).toEqual([{ error: 'not_found' }]);
    expect(await productRow(foreign.id)).toBeDefined();
  });

  it.each(['abc', '999999'])('given the id %s, then 404', async (id) => {
    const res = await expectNoWrite(() => school.admin.delete(`/school_products/${id}`));
    expectErrorBody(res, 404);
  });

  it('given no credential, a wrong token or a student, then 401, 401, 403 and the row stays', async () => {
    const created = await createProduct({ title: 'Protected' });
    const student = await studentClient(school);
    expectErrorBody(await expectNoWrite(() => service.anonymous.delete(`/school_products/${created.id}`)), 401);
    expectErrorBody(await expectNoWrite(() => service.client('wrong').delete(`/school_products/${created.id}`)), 401);
    expectErrorBody(await expectNoWrite(() => student.delete(`/school_products/${created.id}`)), 403);
    expect(await productRow(created.id)).toBeDefined();
  });

  it('given a platform credential, then without X-School-Id 400 and the row stays; with it, 204', async () => {
    const created = await createProduct({ title: 'Platform doomed' });
    const unnamed = await expectNoWrite(() => service.platform.delete(`/school_products/${created.id}`));
    expectErrorBody(unnamed, 400);
    expect(JSON.stringify(unnamed.body.errors)).toMatch(/X-School-Id/);
    expect((await service.platform.forSchool(school.id).delete(`/school_products/${created.id}`)).status).toBe(204);
    expect(await productRow(created.id)).toBeUndefined();
  });
});
