import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggingApp, type Service, startService } from './support/service.js';

describe('unexpected failures', () => {
  let service: Service;
  let app: FastifyInstance;
  let token: string;
  const lines: string[] = [];
  beforeAll(async () => {
    service = await startService();
    token = service.platform.token!;
    app = await loggingApp(service, lines);
    // Given the database goes away under the service
    await service.database.close();
  });
  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  /** The error lines logged for one request, found by the id its reply names. */
  const errorLinesOf = (requestId: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 50 && l.reqId === requestId);

  it('REST replies 500 with a masked body, no SQL and no stack, and logs the cause under the request id', async () => {
    const res = await app.inject({ method: 'GET', url: '/school_products', headers: { authorization: `Bearer ${token}`, 'x-request-id': 'rest-broken-1' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ errors: { base: ['Internal server error'] }, details: { base: [{ error: 'internal' }] } });
    expect(res.body).not.toMatch(/select|api_tokens|\.ts:|\n\s+at /i);
    expect(res.headers['x-request-id']).toBe('rest-broken-1');
    expect(errorLinesOf('rest-broken-1').map((l) => l.msg)).toContain('unexpected error');
  });

  it('GraphQL masks the error the same way, and logs it under the request id', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': 'graphql-broken-1' },
      payload: JSON.stringify({ query: '{ schoolProducts { totalCount } }' }),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.body).not.toMatch(/select|api_tokens|\.ts:|stack/i);
    expect(res.json().errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
    expect(errorLinesOf('graphql-broken-1').map((l) => l.msg)).toContain('unexpected error');
  });
});
