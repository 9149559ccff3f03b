import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schoolProducts, schoolProductTopics } from '../src/modules/school-products/school-product.table.js';
import { expectNoWrite as expectNoWriteOf } from './support/fingerprint.js';
import { graphql, type ReplyOf } from './support/graphql.js';
import { schoolProductFixtures } from './support/school-products.fixtures.js';
import { type Client, type Service, startTwoSchools, type TestSchool } from './support/service.js';

// GraphQL face of SchoolProduct and SchoolProductTopic: queries, mutations with UserError payloads,
// relation fields (batched through DataLoaders) and School.schoolProducts.

let service: Service;
let school: TestSchool;
let other: TestSchool;

beforeAll(async () => ({ service, school, other } = await startTwoSchools('GraphQL School', 'GraphQL Other')));
afterAll(() => service?.stop());

// Fixtures (no API creates these yet) and database reads.
const f = schoolProductFixtures(() => service);
const { libraryResource, category, mediaItem, person, studentClient, productRow, snapshot } = f;
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

// ---------------------------------------------------------------------------------------------
// Operations.

const PRODUCT = graphql(`fragment ProductFields on SchoolProduct {
  id schoolId title description published libraryResourceId availableTimeType availableTimeLength
  availableTimeUnit expireDate maxAttendanceType maxAttendanceLength certificationMinProgress categoryIds galleryMediaIds classTeacherIds
}`);

const CREATE = graphql(
  `mutation Create($input: SchoolProductInput!) {
    createSchoolProduct(input: $input) { schoolProduct { ...ProductFields } errors { field code message } }
  }`,
  [PRODUCT],
);
const UPDATE = graphql(
  `mutation Update($id: ID!, $input: SchoolProductInput!) {
    updateSchoolProduct(id: $id, input: $input) { schoolProduct { ...ProductFields } errors { field code message } }
  }`,
  [PRODUCT],
);
const DELETE = graphql(`mutation Delete($id: ID!) {
  deleteSchoolProduct(id: $id) { schoolProduct { id title } errors { field code message } }
}`);
const SHOW = graphql(`query Show($id: ID!) { schoolProduct(id: $id) { ...ProductFields } }`, [PRODUCT]);

const CREATE_TOPIC = graphql(`mutation CreateTopic($productId: ID!, $input: SchoolProductTopicInput!) {
  createSchoolProductTopic(schoolProductId: $productId, input: $input) {
    schoolProductTopic { id schoolId schoolProductId title description } errors { field code message }
  }
}`);
const UPDATE_TOPIC = graphql(`mutation UpdateTopic($id: ID!, $input: SchoolProductTopicInput!) {
  updateSchoolProductTopic(id: $id, input: $input) {
    schoolProductTopic { id schoolProductId title description } errors { field code message }
  }
}`);
const DELETE_TOPIC = graphql(`mutation DeleteTopic($id: ID!) {
  deleteSchoolProductTopic(id: $id) { schoolProductTopic { id } errors { field code message } }
}`);

async function create(input: Record<string, unknown>, client: Client = school.admin) {
  const res = await client.graphql(CREATE, { input });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.createSchoolProduct.errors).toEqual([]);
  return res.data.createSchoolProduct.schoolProduct;
}
async function createTopic(productId: string | number, input: Record<string, unknown>, client: Client = school.admin) {
  const res = await client.graphql(CREATE_TOPIC, { productId, input: { description: 'About it', ...input } });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  expect(res.data.createSchoolProductTopic.errors).toEqual([]);
  return res.data.createSchoolProductTopic.schoolProductTopic;
}
function expectCode(res: { errors?: any[] }, code: string) {
  expect(res.errors, 'expected a GraphQL error').toBeDefined();
  expect(res.errors![0].extensions.code).toBe(code);
  expect(JSON.stringify(res.errors)).not.toMatch(/stacktrace|\.ts:\d+/);
}

// =============================================================================================

describe('createSchoolProduct', () => {
  it('given valid input with references of the school, then the payload carries the product and no errors', async () => {
    const resource = await libraryResource(school);
    const [c1, c2] = [await category(school), await category(school)];
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const teacher = await person(school, 'Collaborator');

    const product = await create({
      title: 'GraphQL product',
      published: true,
      libraryResourceId: String(resource.id),
      availableTimeType: 'time',
      availableTimeLength: 12,
      availableTimeUnit: 'weeks',
      maxAttendanceType: 'time',
      maxAttendanceLength: 60,
      certificationMinProgress: 70,
      categoryIds: [c2.id, c1.id],
      galleryMediaIds: [m2.id, m3.id, m1.id],
      classTeacherIds: [teacher.id],
    });

    expect(product).toMatchObject({
      id: expect.any(String),
      schoolId: String(school.id),
      title: 'GraphQL product',
      published: true,
      libraryResourceId: String(resource.id),
      availableTimeType: 'time',
      availableTimeLength: 12,
      availableTimeUnit: 'weeks',
      maxAttendanceType: 'time',
      maxAttendanceLength: 60,
      certificationMinProgress: 70,
      galleryMediaIds: [String(m2.id), String(m3.id), String(m1.id)],
      classTeacherIds: [String(teacher.id)],
    });
    expect([...product.categoryIds].sort()).toEqual([String(c1.id), String(c2.id)].sort());
    expect(await productRow(product.id)).toMatchObject({ schoolId: school.id, title: 'GraphQL product', libraryResourceId: resource.id });
  });

  it('given no title, then errors [{field: ["title"], code: "blank"}], a null product, no execution error and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: { description: 'untitled' } }));
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data.createSchoolProduct).toEqual({
      schoolProduct: null,
      errors: [{ field: ['title'], code: 'blank', message: "can't be blank" }],
    });
  });

  it.each([
    ['availableTimeType time without length and unit', { availableTimeType: 'time' }, ['availableTimeLength', 'availableTimeUnit'], 'blank'],
    ['availableTimeType date without expireDate', { availableTimeType: 'date' }, ['expireDate'], 'blank'],
    ['published without libraryResourceId', { published: true }, ['libraryResourceId'], 'blank'],
    ['maxAttendanceType attempts without length', { maxAttendanceType: 'attempts' }, ['maxAttendanceLength'], 'blank'],
    ['certificationMinProgress 101', { certificationMinProgress: 101 }, ['certificationMinProgress'], 'less_than_or_equal_to'],
    ['certificationMinProgress -5', { certificationMinProgress: -5 }, ['certificationMinProgress'], 'greater_than_or_equal_to'],
  ])('given %s, then UserErrors name the fields and nothing is written', async (_name, fields, expected, code) => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: { title: 'Invalid', ...fields } }));
    expect(res.errors).toBeUndefined();
    const payload = res.data.createSchoolProduct;
    expect(payload.schoolProduct).toBeNull();
    expect(payload.errors.map((e) => e.field[0]).sort()).toEqual([...expected].sort());
    for (const e of payload.errors) {
      expect(e.code).toBe(code);
      expect(e.message).toEqual(expect.any(String));
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it("given references of another school, then not_found UserErrors and nothing written", async () => {
    const res = await expectNoWrite(async () =>
      school.admin.graphql(CREATE, {
        input: {
          title: 'Foreign references',
          published: true,
          libraryResourceId: (await libraryResource(other)).id,
          categoryIds: [(await category(school)).id, (await category(other)).id],
          galleryMediaIds: [(await mediaItem(other)).id],
          classTeacherIds: [(await person(other, 'Collaborator')).id],
        },
      }),
    );
    expect(res.errors).toBeUndefined();
    const payload = res.data.createSchoolProduct;
    expect(payload.schoolProduct).toBeNull();
    expect(payload.errors.map((e) => [e.field.join('.'), e.code]).sort()).toEqual(
      [
        ['categoryIds', 'not_found'],
        ['classTeacherIds', 'not_found'],
        ['galleryMediaIds', 'not_found'],
        ['libraryResourceId', 'not_found'],
      ].sort(),
    );
  });

  it('given an unknown enum value, then the request is refused as bad input and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE, { input: { title: 'x', availableTimeType: 'weeks' } }));
    expectCode(res, 'BAD_USER_INPUT');
  });

  it('given a student credential, then FORBIDDEN and nothing written', async () => {
    const res = await expectNoWrite(async () => (await studentClient(school)).graphql(CREATE, { input: { title: 'By a student' } }));
    expectCode(res, 'FORBIDDEN');
    expect(res.data?.createSchoolProduct ?? null).toBeNull();
  });

  it('given no credential, then UNAUTHENTICATED; given a wrong token, then 401 UNAUTHENTICATED; nothing written', async () => {
    expectCode(await expectNoWrite(() => service.anonymous.graphql(CREATE, { input: { title: 'Anon' } })), 'UNAUTHENTICATED');
    const wrong = await expectNoWrite(() => service.client('wrong-token').graphql(CREATE, { input: { title: 'Wrong' } }));
    expect(wrong.status).toBe(401);
    expectCode(wrong, 'UNAUTHENTICATED');
  });

  it('given a platform credential without X-School-Id, then a clear error naming the header and nothing written', async () => {
    const res = await expectNoWrite(() => service.platform.graphql(CREATE, { input: { title: 'Platform' } }));
    expectCode(res, 'BAD_USER_INPUT');
    expect(res.errors![0].message).toMatch(/X-School-Id/);
    expect(res.data?.createSchoolProduct ?? null).toBeNull();
  });

  it('given a platform credential with X-School-Id, then the product lands in that school', async () => {
    const product = await create({ title: 'Platform-made' }, service.platform.forSchool(other.id));
    expect(product.schoolId).toBe(String(other.id));
    expect((await productRow(product.id)).schoolId).toBe(other.id);
    // The school's own admin sees it; the other admin does not.
    expect((await other.admin.graphql(SHOW, { id: product.id })).data.schoolProduct.title).toBe('Platform-made');
    expectCode(await school.admin.graphql(SHOW, { id: product.id }), 'NOT_FOUND');
  });
});

// =============================================================================================

describe('updateSchoolProduct', () => {
  it('given some fields, then only they change and the lists not given are kept', async () => {
    const c = await category(school);
    const [m1, m2] = [await mediaItem(school), await mediaItem(school)];
    const created = await create({ title: 'To update', description: 'old', categoryIds: [c.id], galleryMediaIds: [m2.id, m1.id] });

    const res = await school.admin.graphql(UPDATE, { id: created.id, input: { description: 'new', certificationMinProgress: 0 } });

    expect(res.errors).toBeUndefined();
    expect(res.data.updateSchoolProduct.errors).toEqual([]);
    expect(res.data.updateSchoolProduct.schoolProduct).toMatchObject({
      id: created.id,
      title: 'To update',
      description: 'new',
      certificationMinProgress: 0,
      categoryIds: [String(c.id)],
      galleryMediaIds: [String(m2.id), String(m1.id)],
    });
    expect(await productRow(created.id)).toMatchObject({ description: 'new', certificationMinProgress: 0 });
  });

  it('given new gallery ids, then they replace the old ones in the order given', async () => {
    const [m1, m2, m3] = [await mediaItem(school), await mediaItem(school), await mediaItem(school)];
    const created = await create({ title: 'Gallery', galleryMediaIds: [m1.id, m2.id] });
    const res = await school.admin.graphql(UPDATE, { id: created.id, input: { galleryMediaIds: [m3.id, m1.id] } });
    expect(res.data.updateSchoolProduct.schoolProduct.galleryMediaIds).toEqual([String(m3.id), String(m1.id)]);
  });

  it('given published true on a product without a library resource, then a libraryResourceId UserError and nothing written', async () => {
    const created = await create({ title: 'Draft' });
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: created.id, input: { published: true } }));
    expect(res.errors).toBeUndefined();
    expect(res.data.updateSchoolProduct.schoolProduct).toBeNull();
    expect(res.data.updateSchoolProduct.errors).toEqual([{ field: ['libraryResourceId'], code: 'blank', message: expect.stringMatching(/^can't be blank/) }]);
  });

  it('given a cleared title, then a title UserError', async () => {
    const created = await create({ title: 'Keep title' });
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: created.id, input: { title: null } }));
    expect(res.data.updateSchoolProduct.errors).toEqual([{ field: ['title'], code: 'blank', message: "can't be blank" }]);
  });

  it("given another school's product, then NOT_FOUND and its row untouched", async () => {
    const foreign = await create({ title: 'Foreign' }, other.admin);
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE, { id: foreign.id, input: { title: 'Stolen' } }));
    expectCode(res, 'NOT_FOUND');
    expect((await productRow(foreign.id)).title).toBe('Foreign');
  });

  it('given a non-numeric id, then NOT_FOUND', async () => {
    expectCode(await school.admin.graphql(UPDATE, { id: 'abc', input: { title: 'x' } }), 'NOT_FOUND');
  });

  it('given a student, then FORBIDDEN and nothing written', async () => {
    const created = await create({ title: 'Guarded' });
    const res = await expectNoWrite(async () => (await studentClient(school)).graphql(UPDATE, { id: created.id, input: { title: 'x' } }));
    expectCode(res, 'FORBIDDEN');
  });

  it('given a platform credential, then it must name the school; named, it writes only in that school', async () => {
    const created = await create({ title: 'Platform target' });
    const unnamed = await expectNoWrite(() => service.platform.graphql(UPDATE, { id: created.id, input: { title: 'Unnamed' } }));
    expectCode(unnamed, 'BAD_USER_INPUT');
    expect(unnamed.errors![0].message).toMatch(/X-School-Id/);

    const wrongSchool = await expectNoWrite(() =>
      service.platform.forSchool(other.id).graphql(UPDATE, { id: created.id, input: { title: 'Wrong school' } }),
    );
    expectCode(wrongSchool, 'NOT_FOUND');

    const named = await service.platform.forSchool(school.id).graphql(UPDATE, { id: created.id, input: { title: 'Named' } });
    expect(named.errors).toBeUndefined();
    expect(named.data.updateSchoolProduct.schoolProduct.title).toBe('Named');
    expect((await productRow(created.id)).title).toBe('Named');
  });
});

// =============================================================================================

describe('deleteSchoolProduct', () => {
  it('given a product, then the payload returns it, its row is gone and it is NOT_FOUND after', async () => {
    const created = await create({ title: 'Doomed' });
    await createTopic(created.id, { title: 'Topic of doomed' });
    const res = await school.admin.graphql(DELETE, { id: created.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.deleteSchoolProduct).toEqual({ schoolProduct: { id: created.id, title: 'Doomed' }, errors: [] });
    expect(await productRow(created.id)).toBeUndefined();
    expect(await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.schoolProductId, Number(created.id)))).toEqual([]);
    expectCode(await school.admin.graphql(SHOW, { id: created.id }), 'NOT_FOUND');
    expectCode(await school.admin.graphql(DELETE, { id: created.id }), 'NOT_FOUND');
  });

  it("given another school's product, a student or a platform credential without X-School-Id, then refused and the row stays", async () => {
    const foreign = await create({ title: 'Foreign doomed' }, other.admin);
    expectCode(await expectNoWrite(() => school.admin.graphql(DELETE, { id: foreign.id })), 'NOT_FOUND');
    expectCode(await expectNoWrite(async () => (await studentClient(other)).graphql(DELETE, { id: foreign.id })), 'FORBIDDEN');
    const unnamed = await expectNoWrite(() => service.platform.graphql(DELETE, { id: foreign.id }));
    expectCode(unnamed, 'BAD_USER_INPUT');
    expect(unnamed.errors![0].message).toMatch(/X-School-Id/);
    expect(await productRow(foreign.id)).toBeDefined();

    const named = await service.platform.forSchool(other.id).graphql(DELETE, { id: foreign.id });
    expect(named.data.deleteSchoolProduct.errors).toEqual([]);
    expect(await productRow(foreign.id)).toBeUndefined();
  });
});

// =============================================================================================

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

// =============================================================================================

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

// =============================================================================================

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

// =============================================================================================

describe('school product topics over GraphQL', () => {
  let product: { id: string };
  let sibling: { id: string };
  let foreign: { id: string };
  beforeAll(async () => {
    product = await create({ title: 'Topic host' });
    sibling = await create({ title: 'Topic sibling' });
    foreign = await create({ title: 'Topic foreign' }, other.admin);
  });

  it('given a title and description, then createSchoolProductTopic returns the topic under the product', async () => {
    const topic = await createTopic(product.id, { title: 'Intro', description: 'The basics' });
    expect(topic).toMatchObject({ schoolId: String(school.id), schoolProductId: product.id, title: 'Intro', description: 'The basics' });
  });

  it('given no title and no description, then UserErrors for both and nothing written', async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE_TOPIC, { productId: product.id, input: {} }));
    expect(res.errors).toBeUndefined();
    expect(res.data.createSchoolProductTopic).toEqual({
      schoolProductTopic: null,
      errors: [
        { field: ['title'], code: 'blank', message: "can't be blank" },
        { field: ['description'], code: 'blank', message: "can't be blank" },
      ],
    });
  });

  it("given another school's product, then NOT_FOUND and nothing written", async () => {
    const res = await expectNoWrite(() => school.admin.graphql(CREATE_TOPIC, { productId: foreign.id, input: { title: 'x', description: 'y' } }));
    expectCode(res, 'NOT_FOUND');
  });

  it('given a platform credential without X-School-Id, then a clear error and nothing written', async () => {
    const res = await expectNoWrite(() => service.platform.graphql(CREATE_TOPIC, { productId: product.id, input: { title: 'x', description: 'y' } }));
    expectCode(res, 'BAD_USER_INPUT');
    expect(res.errors![0].message).toMatch(/X-School-Id/);
  });

  it('given schoolProductTopics and schoolProductTopic, then one product\'s topics and each topic', async () => {
    const listed = await create({ title: 'Listed' });
    const a = await createTopic(listed.id, { title: 'A' });
    await createTopic(sibling.id, { title: 'Elsewhere' });
    const b = await createTopic(listed.id, { title: 'B' });
    const res = await school.admin.graphql(
      `query($p: ID!, $t: ID!) {
        schoolProductTopics(schoolProductId: $p) { totalCount nodes { id title } }
        schoolProductTopic(id: $t) { id title schoolProductId }
      }`,
      { p: listed.id, t: b.id },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.schoolProductTopics).toEqual({ totalCount: 2, nodes: [{ id: a.id, title: 'A' }, { id: b.id, title: 'B' }] });
    expect(res.data.schoolProductTopic).toEqual({ id: b.id, title: 'B', schoolProductId: listed.id });
  });

  it('given schoolProductId of a sibling product, then updateSchoolProductTopic moves the topic', async () => {
    const topic = await createTopic(product.id, { title: 'Mover' });
    const res = await school.admin.graphql(UPDATE_TOPIC, { id: topic.id, input: { schoolProductId: sibling.id, title: 'Moved' } });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateSchoolProductTopic).toEqual({
      schoolProductTopic: { id: topic.id, schoolProductId: sibling.id, title: 'Moved', description: 'About it' },
      errors: [],
    });
    const [row] = await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.id, Number(topic.id)));
    expect(row).toMatchObject({ schoolProductId: Number(sibling.id), title: 'Moved' });
  });

  it("given schoolProductId of another school's product, then a not_found UserError and the topic stays", async () => {
    const topic = await createTopic(product.id, { title: 'Stayer' });
    const res = await expectNoWrite(() => school.admin.graphql(UPDATE_TOPIC, { id: topic.id, input: { schoolProductId: foreign.id } }));
    expect(res.errors).toBeUndefined();
    expect(res.data.updateSchoolProductTopic.schoolProductTopic).toBeNull();
    expect(res.data.updateSchoolProductTopic.errors).toEqual([{ field: ['schoolProductId'], code: 'not_found', message: expect.any(String) }]);
  });

  it('given a platform credential without X-School-Id, then updating or deleting a topic is refused with a clear error', async () => {
    const topic = await createTopic(product.id, { title: 'Platform target' });
    for (const res of [
      await expectNoWrite(() => service.platform.graphql(UPDATE_TOPIC, { id: topic.id, input: { title: 'x' } })),
      await expectNoWrite(() => service.platform.graphql(DELETE_TOPIC, { id: topic.id })),
    ]) {
      expectCode(res, 'BAD_USER_INPUT');
      expect(res.errors![0].message).toMatch(/X-School-Id/);
    }
    const named = await service.platform.forSchool(school.id).graphql(UPDATE_TOPIC, { id: topic.id, input: { title: 'Named' } });
    expect(named.data.updateSchoolProductTopic.schoolProductTopic.title).toBe('Named');
  });

  it('given a topic, then deleteSchoolProductTopic removes it; a student may not', async () => {
    const topic = await createTopic(product.id, { title: 'Doomed' });
    expectCode(await expectNoWrite(async () => (await studentClient(school)).graphql(DELETE_TOPIC, { id: topic.id })), 'FORBIDDEN');
    const res = await school.admin.graphql(DELETE_TOPIC, { id: topic.id });
    expect(res.data.deleteSchoolProductTopic).toEqual({ schoolProductTopic: { id: topic.id }, errors: [] });
    expect(await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.id, Number(topic.id)))).toEqual([]);
    expectCode(await school.admin.graphql('query($id: ID!) { schoolProductTopic(id: $id) { id } }', { id: topic.id }), 'NOT_FOUND');
  });
});
