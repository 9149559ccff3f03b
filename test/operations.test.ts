import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { loggingApp, type Service, startService } from './support/service.js';

// What operators and load balancers rely on: request ids, liveness and readiness.
describe('operations', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('given an X-Request-Id, then the reply echoes it and every log line of the request carries it; without one, a random id is made', async () => {
    const lines: string[] = [];
    const app = await loggingApp(service, lines);
    try {
      const named = await app.inject({ method: 'GET', url: '/courses/1', headers: { 'x-request-id': 'lb-7f3a-42' } });
      expect(named.statusCode).toBe(401);
      expect(named.headers['x-request-id']).toBe('lb-7f3a-42');
      const ofRequest = lines.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'lb-7f3a-42');
      expect(ofRequest.length).toBeGreaterThanOrEqual(2); // incoming request and its completion
      const first = await app.inject({ method: 'GET', url: '/health' });
      const second = await app.inject({ method: 'GET', url: '/health' });
      for (const res of [first, second]) expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    } finally {
      await app.close();
    }
  });

  it('given a migrated database, then /healthz and /readyz answer 200', async () => {
    expect((await service.anonymous.get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await service.anonymous.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('given a database without the migrations, or one that is gone, then /readyz answers 503 while /healthz still answers', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    const app = await createApp({ database, rateLimit: { enabled: false } });
    try {
      const unmigrated = await app.inject({ method: 'GET', url: '/readyz' });
      expect(unmigrated.statusCode).toBe(503);
      expect(unmigrated.json()).toEqual({ status: 'unavailable' });
      await database.close();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
