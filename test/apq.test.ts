import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { Client, type Service, startService } from './support/service.js';

// Automatic persisted queries (Apollo's APQ protocol), stored in PostgreSQL so every instance shares them.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

describe('automatic persisted queries', () => {
  let service: Service;
  let other: FastifyInstance;
  let client: Client;

  beforeAll(async () => {
    service = await startService();
    // A second instance over the same database: what another process behind the load balancer is.
    other = await createApp({ database: service.database, now: service.clock.now, rateLimit: { enabled: false } });
    await other.ready();
    client = (await service.school('APQ School')).admin;
  });
  afterAll(async () => {
    await other?.close();
    await service?.stop();
  });

  const onOther = (body: unknown) => new Client(other, client.token).request('POST', '/graphql', body);

  it('given the hash alone, then PERSISTED_QUERY_NOT_FOUND; with the document, it runs; then the hash alone runs, on any instance', async () => {
    const query = 'query SchoolCount { schools { totalCount } }';
    const unknown = await client.request('POST', '/graphql', { extensions: persisted(query) });
    // 200, as Apollo answers: Apollo Client's APQ link reads a 400 as "the server has no APQ" and stops using it.
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } })]);
    expect(unknown.headers['cache-control']).toContain('no-cache');

    const registered = await client.request('POST', '/graphql', { query, extensions: persisted(query) });
    expect(registered.status).toBe(200);
    expect(registered.body.data).toEqual({ schools: { totalCount: 1 } });

    const byHash = await client.request('POST', '/graphql', { extensions: persisted(query) });
    expect(byHash.status).toBe(200);
    expect(byHash.body.data).toEqual({ schools: { totalCount: 1 } });
    const elsewhere = await onOther({ extensions: persisted(query) });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data).toEqual({ schools: { totalCount: 1 } });
  });

  it('given a hash with variables over GET (as clients send hashed queries for CDN caching), then it runs, with a preflight header', async () => {
    const query = 'query Product($id: ID!) { schoolProduct(id: $id) { id title } }';
    const product = await client.post('/school_products', { school_product: { title: 'Hashed' } });
    expect(product.status).toBe(201);
    await onOther({ query, variables: { id: product.body.id }, extensions: persisted(query) });
    const params = new URLSearchParams({ variables: JSON.stringify({ id: product.body.id }), extensions: JSON.stringify(persisted(query)) });
    const res = await client.get(`/graphql?${params}`, { headers: { 'apollo-require-preflight': 'true' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.schoolProduct).toEqual({ id: String(product.body.id), title: 'Hashed' });
  });

  it('given a document that does not validate or breaks a limit, then it is not stored: its hash stays unknown', async () => {
    for (const query of ['{ noSuchField }', `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: schools(first: 1) { totalCount }`).join(' ')} }`]) {
      const refused = await client.request('POST', '/graphql', { query, extensions: persisted(query) });
      expect(refused.status).toBe(400);
      const again = await client.request('POST', '/graphql', { extensions: persisted(query) });
      expect(again.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    }
  });

  it('given a registered document, when a day has passed, then its hash is unknown again and the client re-sends it', async () => {
    const query = 'query Later { schools { totalCount } }';
    await client.request('POST', '/graphql', { query, extensions: persisted(query) });
    expect((await client.request('POST', '/graphql', { extensions: persisted(query) })).body.data).toBeDefined();
    service.clock.advanceDays(1.01);
    expect((await client.request('POST', '/graphql', { extensions: persisted(query) })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await client.request('POST', '/graphql', { query, extensions: persisted(query) })).body.data).toEqual({ schools: { totalCount: 1 } });
  });

  it('given the hash of a document registered by another school, then it runs with the caller\'s own credential and data', async () => {
    const query = 'query Mine { schools { nodes { name } } }';
    await client.request('POST', '/graphql', { query, extensions: persisted(query) });
    const stranger = (await service.school('Other APQ School')).admin;
    const res = await stranger.request('POST', '/graphql', { extensions: persisted(query) });
    expect(res.body.data).toEqual({ schools: { nodes: [{ name: 'Other APQ School' }] } });
  });
});
