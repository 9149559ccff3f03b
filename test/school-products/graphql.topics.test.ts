import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { schoolProductTopics } from '../../src/modules/school-products/school-product.table.js';
import { expectNoWrite as expectNoWriteOf } from '../support/fingerprint.js';
import { CREATE_TOPIC, DELETE_TOPIC, expectCode, productGraphqlCreators, schoolProductFixtures, UPDATE_TOPIC } from '../support/school-products.fixtures.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';

// GraphQL face of SchoolProductTopic: the topic mutations and reads. Operations and fixtures:
// test/support/school-products.fixtures.ts.

let service: Service;
let school: TestSchool;
let other: TestSchool;
const world = twoSchools('GraphQL School', 'GraphQL Other', (w) => ({ service, school, other } = w));
const { studentClient, snapshot } = schoolProductFixtures(() => world.service);
const { create, createTopic } = productGraphqlCreators(() => world.school.admin);
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

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
