import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Service, startService } from './support/service.js';

describe('unexpected failures', () => {
  let service: Service;
  let token: string;
  const logged: unknown[] = [];
  beforeAll(async () => {
    service = await startService();
    token = service.platform.token!;
    service.app.log.error = ((...args: unknown[]) => logged.push(args)) as never;
    // Given the database goes away under the service
    await service.database.close();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('REST replies 500 with a masked body, no SQL and no stack, and logs the cause', async () => {
    const res = await service.client(token).get('/school_products');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ errors: { base: ['Internal server error'] }, details: { base: [{ error: 'internal' }] } });
    expect(res.text).not.toMatch(/select|api_tokens|\.ts:|\n\s+at /i);
    expect(logged.length).toBeGreaterThan(0);
  });

  it('GraphQL masks the error the same way', async () => {
    const res = await service.client(token).request('POST', '/graphql', { query: '{ schoolProducts { totalCount } }' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.body)).not.toMatch(/select|api_tokens|\.ts:|stack/i);
    expect(res.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
  });
});
