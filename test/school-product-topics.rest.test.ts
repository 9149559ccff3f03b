import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { schoolProducts, schoolProductTopics } from '../src/modules/school-products/school-product.table.js';
import { users } from '../src/modules/users/user.table.js';
import { expectNoWrite as expectNoWriteOf, fingerprint } from './support/fingerprint.js';
import { type Client, type Service, type TestSchool } from './support/service.js';
import { expectErrorBody, expectFieldError, expectNotFound } from './support/rest-assertions.js';
import { twoSchools } from './support/world.js';

// REST face of SchoolProductTopic:
//   GET/POST /school_products/:school_product_id/school_product_topics
//   GET/PUT/PATCH/DELETE /school_product_topics/:id

let service: Service;
let school: TestSchool;
let other: TestSchool;
/** Two products of the main school and one of the other school. */
let product: { id: number };
let sibling: { id: number };
let foreignProduct: { id: number };

twoSchools('Topic School', 'Other Topic School', async (w) => {
  ({ service, school, other } = w);
  product = await createProduct(school.admin, 'Main product');
  sibling = await createProduct(school.admin, 'Sibling product');
  foreignProduct = await createProduct(other.admin, 'Foreign product');
});

// ---------------------------------------------------------------------------------------------

let serial = 0;
async function studentClient(s: TestSchool): Promise<Client> {
  const n = ++serial;
  const [student] = await service.db
    .insert(users)
    .values({ schoolId: s.id, type: 'Student', fullName: `Student ${n}`, email: `student${n}@example.com` })
    .returning();
  return service.token('student', s.id, student.id);
}

async function createProduct(client: Client, title: string) {
  const res = await client.post('/school_products', { school_product: { title } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}
async function createTopic(productId: number, fields: Record<string, unknown> = {}, client: Client = school.admin) {
  const res = await client.post(`/school_products/${productId}/school_product_topics`, {
    school_product_topic: { title: `Topic ${++serial}`, description: 'What you will learn', ...fields },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
async function topicRow(id: number) {
  const [row] = await service.db.select().from(schoolProductTopics).where(eq(schoolProductTopics.id, id));
  return row;
}
const snapshot = fingerprint(() => service, { topics: schoolProductTopics, products: schoolProducts });
const expectNoWrite = <T>(work: () => Promise<T>) => expectNoWriteOf(snapshot, work);

// =============================================================================================

describe('POST /school_products/:school_product_id/school_product_topics', () => {
  it('given a title and a description as JSON, then 201 with the topic, a Location and the row', async () => {
    const res = await school.admin.post(`/school_products/${product.id}/school_product_topics`, {
      school_product_topic: { title: 'Regression', description: 'Linear and logistic' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/school_product_topics/${res.body.id}`);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      school_id: school.id,
      school_product_id: product.id,
      title: 'Regression',
      description: 'Linear and logistic',
    });
    expect(await topicRow(res.body.id)).toMatchObject({
      schoolId: school.id,
      schoolProductId: product.id,
      title: 'Regression',
      description: 'Linear and logistic',
    });
  });

  it('given a form-urlencoded body with bracket names, then 201', async () => {
    const res = await school.admin.post(
      `/school_products/${product.id}/school_product_topics`,
      { school_product_topic: { title: 'Form topic', description: 'sent as a form' } },
      { encoding: 'form' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Form topic', description: 'sent as a form', school_product_id: product.id });
    expect(await topicRow(res.body.id)).toMatchObject({ title: 'Form topic' });
  });

  it('given a multipart body, then 201', async () => {
    const res = await school.admin.post(
      `/school_products/${product.id}/school_product_topics`,
      { school_product_topic: { title: 'Multipart topic', description: 'sent as multipart' } },
      { encoding: 'multipart' },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ title: 'Multipart topic', description: 'sent as multipart', school_product_id: product.id });
  });

  it('given a school_product_id in the body naming another product, then the product of the path wins', async () => {
    const res = await school.admin.post(`/school_products/${product.id}/school_product_topics`, {
      school_product_topic: { title: 'Path wins', description: 'd', school_product_id: sibling.id },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.school_product_id).toBe(product.id);
    expect((await topicRow(res.body.id)).schoolProductId).toBe(product.id);
  });

  it('given a collaborator credential, then 201', async () => {
    const [collaborator] = await service.db
      .insert(users)
      .values({ schoolId: school.id, type: 'Collaborator', fullName: 'Teacher', email: 'teacher-topics@example.com' })
      .returning();
    const client = await service.token('collaborator', school.id, collaborator.id);
    const topic = await createTopic(product.id, { title: 'By a collaborator' }, client);
    expect(topic.school_id).toBe(school.id);
  });

  describe('invalid objects: 422 and nothing written', () => {
    it('given no title, then the Rails-style body names title as blank', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post(`/school_products/${product.id}/school_product_topics`, { school_product_topic: { description: 'no title' } }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { title: ["can't be blank"] }, details: { title: [{ error: 'blank' }] } });
    });

    it('given no description, then description is blank', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post(`/school_products/${product.id}/school_product_topics`, { school_product_topic: { title: 'no description' } }),
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: { description: ["can't be blank"] }, details: { description: [{ error: 'blank' }] } });
    });

    it('given a blank title and a blank description, then both are blank', async () => {
      const res = await expectNoWrite(() =>
        school.admin.post(`/school_products/${product.id}/school_product_topics`, { school_product_topic: { title: ' ', description: '' } }),
      );
      expectErrorBody(res, 422);
      expect(res.body.details).toEqual({ title: [{ error: 'blank' }], description: [{ error: 'blank' }] });
    });
  });

  describe('refused requests', () => {
    it.each([
      ['invalid JSON', undefined, { raw: '{"school_product_topic": {', headers: { 'content-type': 'application/json' } }],
      ['a missing resource key', { title: 'x', description: 'y' }, {}],
      ['an empty resource', { school_product_topic: {} }, {}],
      ['a resource that is not a hash', { school_product_topic: ['x'] }, {}],
      ['a title of the wrong type', { school_product_topic: { title: ['x'], description: 'y' } }, {}],
      ['a description of the wrong type', { school_product_topic: { title: 'x', description: { a: 1 } } }, {}],
    ])('given %s, then 400 and nothing written', async (_name, body, options) => {
      const res = await expectNoWrite(() => school.admin.post(`/school_products/${product.id}/school_product_topics`, body, options as any));
      expectErrorBody(res, 400);
    });

    it("given another school's product, then 404 and nothing written", async () => {
      const res = await expectNoWrite(() =>
        school.admin.post(`/school_products/${foreignProduct.id}/school_product_topics`, { school_product_topic: { title: 'x', description: 'y' } }),
      );
      expectNotFound(res);
    });

    it.each(['abc', '999999'])('given the product id %s, then 404 and nothing written', async (id) => {
      const res = await expectNoWrite(() =>
        school.admin.post(`/school_products/${id}/school_product_topics`, { school_product_topic: { title: 'x', description: 'y' } }),
      );
      expectNotFound(res);
    });

    it('given no credential, a wrong token or a student, then 401, 401, 403 and nothing written', async () => {
      const body = { school_product_topic: { title: 'x', description: 'y' } };
      const url = `/school_products/${product.id}/school_product_topics`;
      expectErrorBody(await expectNoWrite(() => service.anonymous.post(url, body)), 401);
      expectErrorBody(await expectNoWrite(() => service.client('wrong-token').post(url, body)), 401);
      const res = await expectNoWrite(async () => (await studentClient(school)).post(url, body));
      expectErrorBody(res, 403);
      expect(res.body.details.base).toEqual([{ error: 'forbidden' }]);
    });
  });
});

// =============================================================================================

describe('GET /school_products/:school_product_id/school_product_topics', () => {
  it("given topics under several products, then the list holds one product's topics only, in id order", async () => {
    const listed = await createProduct(school.admin, 'Listed product');
    const t1 = await createTopic(listed.id, { title: 'First' });
    await createTopic(sibling.id, { title: 'Elsewhere' });
    const t2 = await createTopic(listed.id, { title: 'Second' });
    await createTopic(foreignProduct.id, { title: 'Foreign' }, other.admin);

    const res = await school.admin.get(`/school_products/${listed.id}/school_product_topics`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual([t1, t2]);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers['x-page']).toBeDefined();
    expect(res.headers['x-per-page']).toBeDefined();
    expect(res.headers.link).toBeDefined();
  });

  it('given a product without topics, then an empty array', async () => {
    const bare = await createProduct(school.admin, 'Bare product');
    const res = await school.admin.get(`/school_products/${bare.id}/school_product_topics`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('given page and per_page, then one page with the pagination headers', async () => {
    const paged = await createProduct(school.admin, 'Paged product');
    const topics = [];
    for (let i = 0; i < 5; i++) topics.push(await createTopic(paged.id, { title: `Paged ${i}` }));
    const res = await school.admin.get(`/school_products/${paged.id}/school_product_topics?page=2&per_page=2`);
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.id)).toEqual([topics[2].id, topics[3].id]);
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers['x-page']).toBe('2');
    expect(res.headers['x-per-page']).toBe('2');
    expect(String(res.headers.link)).toMatch(/rel="next"/);
    expectErrorBody(await school.admin.get(`/school_products/${paged.id}/school_product_topics?page=1&per_page=101`), 400);
  });

  it('given a student of the school, then it may read the list', async () => {
    const topic = await createTopic(product.id, { title: 'Student visible' });
    const res = await (await studentClient(school)).get(`/school_products/${product.id}/school_product_topics`);
    expect(res.status).toBe(200);
    expect(res.body.map((t: any) => t.id)).toContain(topic.id);
  });

  it("given another school's product, then 404", async () => {
    await createTopic(foreignProduct.id, {}, other.admin);
    expectNotFound(await school.admin.get(`/school_products/${foreignProduct.id}/school_product_topics`));
  });

  it.each(['abc', '999999'])('given the product id %s, then 404', async (id) => {
    expectNotFound(await school.admin.get(`/school_products/${id}/school_product_topics`));
  });

  it('given no credential or a wrong token, then 401', async () => {
    expectErrorBody(await service.anonymous.get(`/school_products/${product.id}/school_product_topics`), 401);
    expectErrorBody(await service.client('wrong').get(`/school_products/${product.id}/school_product_topics`), 401);
  });
});

// =============================================================================================

describe('GET /school_product_topics/:id', () => {
  it('given a topic, then 200 with it', async () => {
    const topic = await createTopic(product.id, { title: 'Shown topic', description: 'shown' });
    const res = await school.admin.get(`/school_product_topics/${topic.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(topic);
    expect(res.body).toMatchObject({ id: topic.id, title: 'Shown topic', description: 'shown', school_product_id: product.id });
    expect((await school.admin.get(`/v1/school_product_topics/${topic.id}.json`)).body).toEqual(topic);
  });

  it('given a student of the school, then 200', async () => {
    const topic = await createTopic(product.id);
    const res = await (await studentClient(school)).get(`/school_product_topics/${topic.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(topic.id);
  });

  it("given another school's topic, then 404", async () => {
    const foreign = await createTopic(foreignProduct.id, {}, other.admin);
    expectNotFound(await school.admin.get(`/school_product_topics/${foreign.id}`));
  });

  it.each(['abc', '999999', '1x'])('given the id %s, then 404', async (id) => {
    expectNotFound(await school.admin.get(`/school_product_topics/${id}`));
  });

  it('given no credential or a wrong token, then 401', async () => {
    const topic = await createTopic(product.id);
    expectErrorBody(await service.anonymous.get(`/school_product_topics/${topic.id}`), 401);
    expectErrorBody(await service.client('wrong').get(`/school_product_topics/${topic.id}`), 401);
  });
});

// =============================================================================================

describe('PUT and PATCH /school_product_topics/:id', () => {
  it.each(['PUT', 'PATCH'] as const)('given a %s with a new title and description, then 200 with the topic', async (method) => {
    const topic = await createTopic(product.id, { title: 'Old title', description: 'Old description' });
    const res = await school.admin.request(method, `/school_product_topics/${topic.id}`, {
      school_product_topic: { title: 'New title', description: 'New description' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: topic.id, title: 'New title', description: 'New description', school_product_id: product.id });
    expect(await topicRow(topic.id)).toMatchObject({ title: 'New title', description: 'New description', schoolProductId: product.id });
    expect((await school.admin.get(`/school_product_topics/${topic.id}`)).body).toEqual(res.body);
  });

  it('given a PATCH of the title only, then the description is kept', async () => {
    const topic = await createTopic(product.id, { title: 'Partial', description: 'Kept' });
    const res = await school.admin.patch(`/school_product_topics/${topic.id}`, { school_product_topic: { title: 'Partial 2' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'Partial 2', description: 'Kept' });
  });

  it('given a form-urlencoded and a multipart update, then both apply', async () => {
    const topic = await createTopic(product.id);
    const form = await school.admin.patch(`/school_product_topics/${topic.id}`, { school_product_topic: { title: 'Via form' } }, { encoding: 'form' });
    expect(form.status, form.text).toBe(200);
    expect(form.body.title).toBe('Via form');
    const multi = await school.admin.put(
      `/school_product_topics/${topic.id}`,
      { school_product_topic: { description: 'Via multipart' } },
      { encoding: 'multipart' },
    );
    expect(multi.status, multi.text).toBe(200);
    expect(multi.body).toMatchObject({ title: 'Via form', description: 'Via multipart' });
    expect(await topicRow(topic.id)).toMatchObject({ title: 'Via form', description: 'Via multipart' });
  });

  it('given a school_product_id of another product of the same school, then the topic moves there', async () => {
    const topic = await createTopic(product.id, { title: 'Mover' });
    const res = await school.admin.patch(`/school_product_topics/${topic.id}`, { school_product_topic: { school_product_id: sibling.id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.school_product_id).toBe(sibling.id);
    expect((await topicRow(topic.id)).schoolProductId).toBe(sibling.id);
    const siblingList = await school.admin.get(`/school_products/${sibling.id}/school_product_topics`);
    expect(siblingList.body.map((t: any) => t.id)).toContain(topic.id);
    const productList = await school.admin.get(`/school_products/${product.id}/school_product_topics`);
    expect(productList.body.map((t: any) => t.id)).not.toContain(topic.id);
  });

  it('given a school_product_id as a form string, then the topic moves too', async () => {
    const topic = await createTopic(product.id, { title: 'Form mover' });
    const res = await school.admin.put(
      `/school_product_topics/${topic.id}`,
      { school_product_topic: { school_product_id: String(sibling.id) } },
      { encoding: 'form' },
    );
    expect(res.status, res.text).toBe(200);
    expect((await topicRow(topic.id)).schoolProductId).toBe(sibling.id);
  });

  it('given a school_product_id of another school, then 422 and the topic stays', async () => {
    const topic = await createTopic(product.id, { title: 'Stayer' });
    const res = await expectNoWrite(() =>
      school.admin.patch(`/school_product_topics/${topic.id}`, { school_product_topic: { title: 'Moved?', school_product_id: foreignProduct.id } }),
    );
    expectFieldError(res, 422, 'school_product_id', 'not_found');
    expect(await topicRow(topic.id)).toMatchObject({ title: 'Stayer', schoolProductId: product.id });
  });

  it('given a school_product_id that names no product, then 422', async () => {
    const topic = await createTopic(product.id);
    for (const id of [999999, 'abc']) {
      const res = await expectNoWrite(() => school.admin.patch(`/school_product_topics/${topic.id}`, { school_product_topic: { school_product_id: id } }));
      expectFieldError(res, 422, 'school_product_id', 'not_found');
    }
  });

  it.each([
    ['title', { title: '' }],
    ['description', { description: '  ' }],
    ['school_product_id', { school_product_id: null }],
  ])('given a cleared %s, then 422 blank and the topic untouched', async (field, fields) => {
    const topic = await createTopic(product.id);
    const res = await expectNoWrite(() => school.admin.put(`/school_product_topics/${topic.id}`, { school_product_topic: fields }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: { [field]: ["can't be blank"] }, details: { [field]: [{ error: 'blank' }] } });
  });

  describe('refused updates', () => {
    let topic: { id: number; title: string };
    beforeAll(async () => {
      topic = await createTopic(product.id, { title: 'Guarded topic' });
    });

    it.each([
      ['invalid JSON', undefined, { raw: '{"school_product_topic": ', headers: { 'content-type': 'application/json' } }],
      ['a missing resource key', { title: 'unwrapped' }, {}],
      ['an empty resource', { school_product_topic: {} }, {}],
      ['a title of the wrong type', { school_product_topic: { title: ['list'] } }, {}],
    ])('given %s, then 400 and the topic untouched', async (_name, body, options) => {
      for (const method of ['PUT', 'PATCH']) {
        const res = await expectNoWrite(() => school.admin.request(method, `/school_product_topics/${topic.id}`, body, options as any));
        expectErrorBody(res, 400);
      }
    });

    it("given another school's topic, then 404 and its row untouched", async () => {
      const foreign = await createTopic(foreignProduct.id, { title: 'Theirs' }, other.admin);
      for (const method of ['PUT', 'PATCH']) {
        const res = await expectNoWrite(() =>
          school.admin.request(method, `/school_product_topics/${foreign.id}`, { school_product_topic: { title: 'Mine', school_product_id: product.id } }),
        );
        expectNotFound(res);
      }
      expect(await topicRow(foreign.id)).toMatchObject({ title: 'Theirs', schoolProductId: foreignProduct.id, schoolId: other.id });
    });

    it.each(['abc', '999999'])('given the id %s, then 404', async (id) => {
      expectNotFound(await expectNoWrite(() => school.admin.patch(`/school_product_topics/${id}`, { school_product_topic: { title: 'x' } })));
    });

    it('given no credential, a wrong token or a student, then 401, 401, 403 and the topic untouched', async () => {
      const body = { school_product_topic: { title: 'Hijacked' } };
      expectErrorBody(await expectNoWrite(() => service.anonymous.put(`/school_product_topics/${topic.id}`, body)), 401);
      expectErrorBody(await expectNoWrite(() => service.client('wrong').patch(`/school_product_topics/${topic.id}`, body)), 401);
      const student = await studentClient(school);
      expectErrorBody(await expectNoWrite(() => student.patch(`/school_product_topics/${topic.id}`, body)), 403);
      expect((await topicRow(topic.id)).title).toBe('Guarded topic');
    });

    it('given a platform credential, then without X-School-Id 400 naming the header; with it, 200', async () => {
      const body = { school_product_topic: { description: 'by the platform' } };
      const unnamed = await expectNoWrite(() => service.platform.patch(`/school_product_topics/${topic.id}`, body));
      expectErrorBody(unnamed, 400);
      expect(JSON.stringify(unnamed.body.errors)).toMatch(/X-School-Id/);
      const named = await service.platform.forSchool(school.id).patch(`/school_product_topics/${topic.id}`, body);
      expect(named.status, named.text).toBe(200);
      expect((await topicRow(topic.id)).description).toBe('by the platform');
    });
  });
});

// =============================================================================================

describe('DELETE /school_product_topics/:id', () => {
  it('given a topic, when deleted, then 204 with no body, the row is gone, it is 404 after and the product stays', async () => {
    const topic = await createTopic(product.id, { title: 'Doomed topic' });
    const res = await school.admin.delete(`/school_product_topics/${topic.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await topicRow(topic.id)).toBeUndefined();
    expectNotFound(await school.admin.get(`/school_product_topics/${topic.id}`));
    expectNotFound(await school.admin.delete(`/school_product_topics/${topic.id}`));
    expect((await school.admin.get(`/school_products/${product.id}`)).status).toBe(200);
  });

  it("given another school's topic, then 404 and the row stays", async () => {
    const foreign = await createTopic(foreignProduct.id, {}, other.admin);
    expectNotFound(await expectNoWrite(() => school.admin.delete(`/school_product_topics/${foreign.id}`)));
    expect(await topicRow(foreign.id)).toBeDefined();
  });

  it.each(['abc', '999999'])('given the id %s, then 404', async (id) => {
    expectNotFound(await expectNoWrite(() => school.admin.delete(`/school_product_topics/${id}`)));
  });

  it('given no credential, a wrong token or a student, then 401, 401, 403 and the row stays', async () => {
    const topic = await createTopic(product.id);
    expectErrorBody(await expectNoWrite(() => service.anonymous.delete(`/school_product_topics/${topic.id}`)), 401);
    expectErrorBody(await expectNoWrite(() => service.client('wrong').delete(`/school_product_topics/${topic.id}`)), 401);
    const student = await studentClient(school);
    expectErrorBody(await expectNoWrite(() => student.delete(`/school_product_topics/${topic.id}`)), 403);
    expect(await topicRow(topic.id)).toBeDefined();
  });

  it('given a platform credential, then without X-School-Id 400 and the row stays; with it, 204', async () => {
    const topic = await createTopic(product.id);
    const unnamed = await expectNoWrite(() => service.platform.delete(`/school_product_topics/${topic.id}`));
    expectErrorBody(unnamed, 400);
    expect(JSON.stringify(unnamed.body.errors)).toMatch(/X-School-Id/);
    expectNotFound(await expectNoWrite(() => service.platform.forSchool(other.id).delete(`/school_product_topics/${topic.id}`)));
    expect((await service.platform.forSchool(school.id).delete(`/school_product_topics/${topic.id}`)).status).toBe(204);
    expect(await topicRow(topic.id)).toBeUndefined();
  });
});
