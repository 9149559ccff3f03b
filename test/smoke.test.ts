import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, startService } from './support/service.js';

describe('the service', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.stop());

  it('answers a GraphQL query and GET /school_products with a platform credential', async () => {
    const school = await service.school('Smoke School');
    const created = await school.admin.post('/school_products', { school_product: { title: 'Intro' } });
    expect(created.status).toBe(201);
    const list = await service.platform.get('/school_products');
    expect(list.status).toBe(200);
    expect(list.body.map((p: any) => p.title)).toEqual(['Intro']);
    const gql = await service.platform.graphql('{ schools { nodes { name schoolProducts { nodes { title } } } } }');
    expect(gql.errors).toBeUndefined();
    expect(gql.data.schools.nodes).toEqual([{ name: 'Smoke School', schoolProducts: { nodes: [{ title: 'Intro' }] } }]);
  });
});
