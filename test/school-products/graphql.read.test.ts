import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { schoolProducts } from '../../src/modules/school-products/school-product.table.js';
import { graphql, type ReplyOf } from '../support/graphql.js';
import { expectCode, productGraphqlCreators, schoolProductFixtures, SHOW, UPDATE } from '../support/school-products.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of SchoolProduct: schoolProduct and its relation fields (batched through DataLoaders),
// schoolProducts and School.schoolProducts. Operations and fixtures: test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('GraphQL School', 'GraphQL Other', (w) => ({ service, school, other } = w));
const { libraryResource, category, mediaItem, person, studentClient } = schoolProductFixtures(() => world.service);
const { create, createTopic } = productGraphqlCreators(() => world.school.admin);

describe('schoolProduct and its relation fields', () => {
  it('given a product with topics, categories, gallery media and teachers, then every relation field resolves', async () => {
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const [t1, t2] = [await person(school, 'Collaborator'), await person(school, 'Collaborator')];
    const created = await create({
      title: 'Related',
      categoryIds: [c1.id, c2.id],
      galleryMediaIds: [m3.id, m1.id, m2.id],
      classTeacherIds: [t1.id, t2.id],
    });
    const topicA = await createTopic(created.id, { title: 'A' });
    const topicB = await createTopic(created.id, { title: 'B' });

    const res = await school.admin.graphql(
      graphql(`query($id: ID!) { schoolProduct(id: $id) {
        id title
        school { id name }
        topics { id title schoolProductId }
        categories { id name }
        categoryIds
        galleryMedia { id title }
        galleryMediaIds
        classTeacherIds
      } }`),
      { id: created.id },
    );

    expect(res.errors).toBeUndefined();
    const p = res.data.schoolProduct;
    expect(p.school).toEqual({ id: String(school.id), name: 'GraphQL School' });
    expect(p.topics).toEqual([
      { id: topicA.id, title: 'A', schoolProductId: created.id },
      { id: topicB.id, title: 'B', schoolProductId: created.id },
    ]);
    expect(p.categoryIds.sort()).toEqual([String(c1.id), String(c2.id)].sort());
    expect(p.categories.map((c) => c.id)).toEqual(p.categoryIds);
    expect(p.categories.map((c) => c.name).sort()).toEqual([c1.name, c2.name].sort());
    expect(p.galleryMediaIds).toEqual([String(m3.id), String(m1.id), String(m2.id)]);
    expect(p.galleryMedia).toEqual([
      { id: String(m3.id), title: m3.title },
      { id: String(m1.id), title: m1.title },
      { id: String(m2.id), title: m2.title },
    ]);
    expect(p.classTeacherIds.sort()).toEqual([String(t1.id), String(t2.id)].sort());
  });

  it("given another school's product or a non-numeric id, then NOT_FOUND", async () => {
    const foreign = await create({ title: 'Hidden' }, other.admin);
    expectCode(await school.admin.graphql(SHOW, { id: foreign.id }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(SHOW, { id: 'abc' }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(SHOW, { id: '999999' }), 'NOT_FOUND');
  });

  it('given a student of the school, then it may read the product', async () => {
    const created = await create({ title: 'Public to students' });
    const res = await (await studentClient(school)).graphql(SHOW, { id: created.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.schoolProduct.title).toBe('Public to students');
  });
});

describe('schoolProducts and School.schoolProducts', () => {
  let catalogue: TestSchool;
  let ids: string[];

  beforeAll(async () => {
    catalogue = await service.school('GraphQL Catalogue');
    ids = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ title: `C${i}` }, catalogue.admin)).id);
    const resource = await libraryResource(catalogue);
    await catalogue.admin.graphql(UPDATE, { id: ids[1], input: { published: true, libraryResourceId: resource.id } });
    await catalogue.admin.graphql(UPDATE, { id: ids[3], input: { published: true, libraryResourceId: resource.id } });
    await create({ title: 'Not in catalogue' }, other.admin);
  });

  it('given first/after, then cursor pages of the school only, with totalCount and pageInfo', async () => {
    const query = graphql(`query($after: String) { schoolProducts(first: 2, after: $after) {
      totalCount nodes { id schoolId } edges { cursor node { id } } pageInfo { hasNextPage endCursor }
    } }`);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: ReplyOf<typeof query> = await catalogue.admin.graphql(query, { after });
      expect(res.errors).toBeUndefined();
      const conn = res.data.schoolProducts;
      expect(conn.totalCount).toBe(5);
      for (const n of conn.nodes) expect(n.schoolId).toBe(String(catalogue.id));
      expect(conn.edges.map((e) => e.node.id)).toEqual(conn.nodes.map((n) => n.id));
      seen.push(...conn.nodes.map((n) => n.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(ids);
  });

  it('given published: true, then only the published products', async () => {
    const res = await catalogue.admin.graphql('{ schoolProducts(published: true) { totalCount nodes { id published } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.schoolProducts).toEqual({ totalCount: 2, nodes: [{ id: ids[1], published: true }, { id: ids[3], published: true }] });
  });

  it('given page and perPage, then that numbered page', async () => {
    const res = await catalogue.admin.graphql('{ schoolProducts(page: 2, perPage: 2) { totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage } } }');
    expect(res.data.schoolProducts).toEqual({ totalCount: 5, nodes: [{ id: ids[2] }, { id: ids[3] }], pageInfo: { hasNextPage: true, hasPreviousPage: true } });
  });

  it('given first above 100, then a bad-input error', async () => {
    expectCode(await catalogue.admin.graphql('{ schoolProducts(first: 101) { totalCount } }'), 'BAD_USER_INPUT');
  });

  it('given School.schoolProducts, then the products of that school', async () => {
    const res = await catalogue.admin.graphql(
      `query($id: ID!) { school(id: $id) { id schoolProducts(first: 3) { totalCount nodes { id } pageInfo { hasNextPage } } } }`,
      { id: catalogue.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.school.schoolProducts).toEqual({ totalCount: 5, nodes: ids.slice(0, 3).map((id) => ({ id })), pageInfo: { hasNextPage: true } });
  });

  it('given School.schoolProducts walked with first/after and by numbered pages, then the products of that school in id order', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: any = await catalogue.admin.graphql(
        `query($id: ID!, $after: String) { school(id: $id) { schoolProducts(first: 2, after: $after) { nodes { id schoolId } pageInfo { hasNextPage endCursor } } } }`,
        { id: catalogue.id, after },
      );
      expect(res.errors).toBeUndefined();
      const conn = res.data.school.schoolProducts;
      for (const n of conn.nodes) expect(n.schoolId).toBe(String(catalogue.id));
      seen.push(...conn.nodes.map((n: any) => n.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen).toEqual(ids);
    const numbered: any = await catalogue.admin.graphql(`query($id: ID!) { school(id: $id) { schoolProducts(page: 2, perPage: 2) { nodes { id } } } }`, { id: catalogue.id });
    expect(numbered.data.school.schoolProducts.nodes).toEqual([{ id: ids[2] }, { id: ids[3] }]);
  });

  it('given School.schoolProducts asking for plain fields and courses, then the same nodes as a read of every column', async () => {
    const narrow = `query($id: ID!) { school(id: $id) { schoolProducts(first: 4) { nodes { id title published courses { id } topics { id } } edges { cursor node { id schoolId } } } } }`;
    // A fragment reads every column.
    const full = `query($id: ID!) { school(id: $id) { schoolProducts(first: 4) { nodes { ...P } edges { cursor node { ...P } } } } }
      fragment P on SchoolProduct { id schoolId title published courses { id } topics { id } }`;
    const [a, b] = [await catalogue.admin.graphql(narrow, { id: catalogue.id }), await catalogue.admin.graphql(full, { id: catalogue.id })];
    expect(a.errors).toBeUndefined();
    expect(b.errors).toBeUndefined();
    const nodes = b.data.school.schoolProducts.nodes;
    expect(a.data.school.schoolProducts.nodes).toEqual(nodes.map(({ schoolId: _, ...n }: any) => n));
    expect(a.data.school.schoolProducts.edges).toEqual(b.data.school.schoolProducts.edges.map((e: any) => ({ cursor: e.cursor, node: { id: e.node.id, schoolId: e.node.schoolId } })));
    expect(nodes.map((n: any) => [n.id, n.title, n.published])).toEqual([[ids[0], 'C0', false], [ids[1], 'C1', true], [ids[2], 'C2', false], [ids[3], 'C3', true]]);
  });

  it('given a platform credential listing schools, then each school carries its own products', async () => {
    const res = await service.platform.graphql(graphql('{ schools(first: 100) { nodes { id schoolProducts(first: 100) { totalCount nodes { id schoolId } } } } }'));
    expect(res.errors).toBeUndefined();
    const bySchool = new Map<string, any>(res.data.schools.nodes.map((s) => [s.id, s.schoolProducts]));
    expect(bySchool.get(String(catalogue.id)).nodes.map((n: any) => n.id)).toEqual(ids);
    for (const [schoolId, conn] of bySchool) {
      expect(conn.totalCount).toBe(conn.nodes.length);
      for (const n of conn.nodes) expect(n.schoolId).toBe(schoolId);
    }
    const [own] = await service.db.select({ n: count() }).from(schoolProducts).where(eq(schoolProducts.schoolId, other.id));
    expect(bySchool.get(String(other.id)).totalCount).toBe(Number(own.n));
  });

  it('given no credential, then UNAUTHENTICATED', async () => {
    expectCode(await service.anonymous.graphql('{ schoolProducts { totalCount } }'), 'UNAUTHENTICATED');
  });
});

describe('batching: statements bounded by depth, not by rows', () => {
  const NESTED = `{ schoolProducts(first: 100) { totalCount nodes {
    id school { id name } topics { id } categories { id } categoryIds galleryMedia { id } galleryMediaIds classTeacherIds
  } } }`;

  async function schoolWith(products: number) {
    const s = await service.school(`Batch ${products}`);
    const c = await category(s);
    const m = await mediaItem(s);
    const t = await person(s, 'Collaborator');
    for (let i = 0; i < products; i++) {
      const p = await create({ title: `B${i}`, categoryIds: [c.id], galleryMediaIds: [m.id], classTeacherIds: [t.id] }, s.admin);
      await createTopic(p.id, { title: `T${i}` }, s.admin);
    }
    return s;
  }

  it('given 2 and then 8 products with relations, then the nested query costs the same number of statements', async () => {
    const small = await schoolWith(2);
    const large = await schoolWith(8);
    let smallResult: any;
    let largeResult: any;
    const smallCount = await service.countStatements(async () => (smallResult = await small.admin.graphql(NESTED)));
    const largeCount = await service.countStatements(async () => (largeResult = await large.admin.graphql(NESTED)));
    expect(smallResult.errors).toBeUndefined();
    expect(largeResult.errors).toBeUndefined();
    expect(largeResult.data.schoolProducts.nodes).toHaveLength(8);
    for (const node of largeResult.data.schoolProducts.nodes) {
      expect(node.topics).toHaveLength(1);
      expect(node.categories).toHaveLength(1);
      expect(node.galleryMedia).toHaveLength(1);
    }
    expect(largeCount).toBe(smallCount);
    expect(largeCount).toBeLessThanOrEqual(12);
  });

  it('given more schools, then School.schoolProducts with nested topics costs the same number of statements', async () => {
    const query = '{ schools(first: 40) { nodes { id schoolProducts(first: 20) { totalCount nodes { id topics { id } categories { id } } } } } }';
    const before = await service.countStatements(() => service.platform.graphql(query));
    await schoolWith(3);
    let result: any;
    const after = await service.countStatements(async () => (result = await service.platform.graphql(query)));
    expect(result.errors).toBeUndefined();
    expect(after).toBe(before);
  });
});
