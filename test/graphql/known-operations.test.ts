import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownOperations } from '../../src/app.js';
import { buildSchema, getOperationAST, parse } from 'graphql';
import { KnownOperations } from '../../src/graphql/known-operations.js';
import { resolveLimits } from '../../src/graphql/limits.js';
import { type Client, type Reply, type Service, startService, type TestSchool } from '../support/service.js';

/**
 * The known path (src/graphql/known-operations.ts) must answer exactly as Apollo's pipeline does.
 * Each case is sent twice with a document text of its own: the first time Apollo serves it (the
 * document is new), the second time the known path does (checked by its count). Status, content
 * type and body must be the same, apart from the request's id.
 */
let service: Service;
let school: TestSchool;
let known: KnownOperations;
beforeAll(async () => {
  service = await startService();
  school = await service.school();
  known = knownOperations.get(service.app)!;
});
afterAll(() => service?.stop());

let cases = 0;
/** A document text no other case sends (an alias of its own), so that its first request is Apollo's. */
const fresh = (query: string) => `# case ${++cases}\n${query}`;

/** The reply as the two paths must agree on it: the budget's clock aside. */
const comparable = (reply: Reply) => {
  const cost = reply.body?.extensions?.cost;
  if (cost) delete cost.milliseconds;
  return { status: reply.status, type: reply.headers['content-type'], body: reply.body ?? reply.text };
};

/** Sends the request twice: Apollo's reply, then the known path's. */
async function twice(client: Client, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const before = known.served;
  const apollo = await client.request('POST', '/graphql', body, { headers });
  expect(known.served, 'the first request of a new document is Apollo’s').toBe(before);
  const lane = await client.request('POST', '/graphql', body, { headers });
  return { apollo: comparable(apollo), lane: comparable(lane), servedByLane: known.served - before };
}

describe('the known path answers as Apollo does', () => {
  it('a read, with its cost reported', async () => {
    const { apollo, lane, servedByLane } = await twice(school.admin, { query: fresh(`{ school(id: ${school.id}) { id name } }`) });
    expect(servedByLane).toBe(1);
    expect(apollo.status).toBe(200);
    expect(apollo.body.data.school.id).toBe(String(school.id));
    expect(apollo.body.extensions.cost).toMatchObject({ requested: expect.any(Number), maximum: expect.any(Number) });
    expect(lane).toEqual(apollo);
  });

  it('variables, an operation named among several, and Accept: application/graphql-response+json', async () => {
    const query = fresh('query A($id: ID!) { school(id: $id) { id } } query B { __typename }');
    const { apollo, lane, servedByLane } = await twice(school.admin, { query, operationName: 'A', variables: { id: school.id } }, { accept: 'application/graphql-response+json' });
    expect(servedByLane).toBe(1);
    expect(apollo.type).toBe('application/graphql-response+json; charset=utf-8');
    expect(lane).toEqual(apollo);
  });

  it('an error of a resolver (another school’s row) keeps its code and status', async () => {
    const other = await service.school();
    const { apollo, lane, servedByLane } = await twice(school.admin, { query: fresh(`{ school(id: ${other.id}) { id } }`) });
    expect(servedByLane).toBe(1);
    expect(apollo.body.errors?.length).toBeGreaterThan(0);
    expect(lane).toEqual(apollo);
  });

  it('variables that do not fit are refused as Apollo refuses them (400, or 200 to an application/json-only client), and nothing runs', async () => {
    const query = fresh('query ($id: ID!) { school(id: $id) { id } }');
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const { apollo, lane } = await twice(school.admin, { query, variables: { id: { not: 'an id' } } }, { accept });
      expect(apollo.status).toBe(accept === 'application/json' ? 200 : 400);
      expect(apollo.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(lane).toEqual(apollo);
    }
  });

  it('a page too large for the cost limit, given as a variable, is refused the same', async () => {
    const query = fresh('query ($n: Int) { schools(first: $n) { nodes { schoolProducts(first: 100) { nodes { topics { id } } } } } }');
    const { apollo, lane } = await twice(service.platform, { query, variables: { n: 100 } }, { accept: 'application/graphql-response+json' });
    expect(apollo.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(lane).toEqual(apollo);
  });

  it('a NUL byte in a variable is refused the same', async () => {
    const query = fresh('query ($code: String) { courseClass(code: $code) { id } }');
    const { apollo, lane } = await twice(school.admin, { query, variables: { code: 'a\u0000b' } });
    expect(apollo.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(apollo.body.errors[0].message).toMatch(/NUL/);
    expect(lane).toEqual(apollo);
  });

  it('a credential refused, or none, answers the same', async () => {
    const query = fresh('{ __typename }');
    const bad = await twice(service.client('not-a-token'), { query });
    expect(bad.apollo.status).toBe(401);
    expect(bad.lane).toEqual(bad.apollo);
    const anonymous = await twice(service.anonymous, { query: fresh(`{ school(id: ${school.id}) { id } }`) });
    expect(anonymous.lane).toEqual(anonymous.apollo);
  });

  it('a mutation runs once per request', async () => {
    const query = fresh('mutation ($name: String!) { createCourse(input: { name: $name }) { course { id name } } }');
    const first = await school.admin.post('/graphql', { query, variables: { name: 'Known one' } });
    expect(first.body).toMatchObject({ data: { createCourse: { course: { name: 'Known one' } } } });
    const before = known.served;
    const second = await school.admin.post('/graphql', { query, variables: { name: 'Known two' } });
    expect(known.served).toBe(before + 1);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const names = await school.admin.graphql('{ courses(first: 50) { nodes { name } } }');
    expect(names.data.courses.nodes.map((c: { name: string }) => c.name).filter((t: string) => t.startsWith('Known')).sort()).toEqual(['Known one', 'Known two']);
  });
});

describe('what the known path leaves to Apollo', () => {
  it('a subscription, persisted queries, a form body and GET are never served by it', async () => {
    const subscription = fresh('subscription { notificationReceived { id } }');
    const query = fresh('{ __typename }');
    await school.admin.post('/graphql', { query });
    const before = known.served;
    const sub1 = await school.admin.post('/graphql', { query: subscription });
    const sub2 = await school.admin.post('/graphql', { query: subscription });
    expect(sub1.status).toBe(400);
    expect(comparable(sub2)).toEqual(comparable(sub1));
    await school.admin.post('/graphql', { query, extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } });
    await school.admin.request('POST', '/graphql', { query }, { encoding: 'form', headers: { 'x-requested-with': 'test' } });
    await school.admin.get(`/graphql?query=${encodeURIComponent(query)}`, { headers: { 'x-requested-with': 'test' } });
    expect(known.served).toBe(before);
  });
});

describe('what the known path holds', () => {
  it('at most 1,000 documents, and never a subscription', async () => {
    const schema = buildSchema('type Query { a: Int } type Subscription { b: Int }');
    const lane = new KnownOperations(schema, async () => ({ data: null }), resolveLimits(), (formatted) => formatted);
    const listener = (await lane.plugin.requestDidStart!({} as never))!;
    const record = (source: string) => {
      const document = parse(source);
      return listener.didResolveOperation!({ source, document, operation: getOperationAST(document) } as never);
    };
    for (let i = 0; i < 1_010; i++) await record(`{ a } # ${i}`);
    expect(lane.size).toBe(1_000);
    await record('subscription { b }');
    expect(lane.size).toBe(1_000);
  });
});
