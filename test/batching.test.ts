import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolProducts, schoolProductTopics } from '../src/modules/school-products/school-product.table.js';
import { schools } from '../src/db/school.table.js';
import { type Service, startService } from './support/service.js';

/** Seeds `schoolCount` schools with `productCount` products and 2 topics each, straight into the tables. */
async function seed(service: Service, prefix: string, schoolCount: number, productCount: number) {
  const made = await service.db
    .insert(schools)
    .values(Array.from({ length: schoolCount }, (_, i) => ({ name: `${prefix} ${i}`, subdomain: `${prefix}-${i}` })))
    .returning({ id: schools.id });
  const products = await service.db
    .insert(schoolProducts)
    .values(made.flatMap((s) => Array.from({ length: productCount }, (_, j) => ({ schoolId: s.id, title: `P${j}` }))))
    .returning({ id: schoolProducts.id, schoolId: schoolProducts.schoolId });
  await service.db.insert(schoolProductTopics).values(
    products.flatMap((p) => [1, 2].map((k) => ({ schoolId: p.schoolId, schoolProductId: p.id, title: `T${k}`, description: 'd' }))),
  );
  return made.map((s) => s.id);
}

const nested = `query ($first: Int) {
  schools(first: $first) {
    totalCount
    nodes { id name domains organization { id } schoolProducts(first: 50) { totalCount nodes { id title categoryIds school { id } topics { id title } } } }
  }
}`;

describe('nested queries are batched', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.stop());

  it('schools { schoolProducts { topics } } costs the same number of statements for 50 schools as for 2', async () => {
    // Given 2 schools of 10 products
    await seed(service, 'small', 2, 10);
    let small: any;
    const smallCount = await service.countStatements(async () => {
      small = await service.platform.graphql(nested, { first: 2 });
    });
    expect(small.errors).toBeUndefined();
    expect(small.data.schools.nodes).toHaveLength(2);
    expect(small.data.schools.nodes[0].schoolProducts.nodes).toHaveLength(10);
    expect(small.data.schools.nodes[0].schoolProducts.nodes[0].topics).toHaveLength(2);

    // When there are 50 schools (48 more) and the query asks for all of them
    await seed(service, 'large', 48, 10);
    let large: any;
    const largeCount = await service.countStatements(async () => {
      large = await service.platform.graphql(nested, { first: 50 });
    });

    // Then the statements do not grow with the rows
    expect(large.errors).toBeUndefined();
    expect(large.data.schools.nodes).toHaveLength(50);
    expect(large.data.schools.nodes.flatMap((s: any) => s.schoolProducts.nodes)).toHaveLength(500);
    expect(large.data.schools.nodes.flatMap((s: any) => s.schoolProducts.nodes.flatMap((p: any) => p.topics))).toHaveLength(1000);
    expect(large.data.schools.nodes.every((s: any) => s.schoolProducts.totalCount === 10)).toBe(true);
    expect(largeCount).toBe(smallCount);
    // credential, schools page, schools count, domains, organizations, products page, products count,
    // category ids, product schools, topics: a bound set by the depth of the query.
    expect(largeCount).toBeLessThanOrEqual(10);
  });

  it('the REST list of products costs a constant number of statements however many products there are', async () => {
    const school = await service.school('Counting School');
    await service.db.insert(schoolProducts).values({ schoolId: school.id, title: 'First' });
    const list = () => school.admin.get('/school_products');
    const before = await service.countStatements(list);
    await service.db.insert(schoolProducts).values(Array.from({ length: 60 }, (_, i) => ({ schoolId: school.id, title: `Bulk ${i}` })));
    let reply: any;
    const after = await service.countStatements(async () => {
      reply = await list();
    });
    expect(reply.body).toHaveLength(61);
    expect(after).toBe(before);
  });
});
