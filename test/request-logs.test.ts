import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loggedUrl } from '../src/app.js';
import { loggingApp, type Service, startService } from './support/service.js';

// Request logs name the URL of every request: a SCORM launch URI's token must not land in them.

let service: Service;
let logged: FastifyInstance;
const lines: string[] = [];

beforeAll(async () => {
  service = await startService();
  logged = await loggingApp(service, lines);
});
afterAll(async () => {
  await logged?.close();
  await service?.stop();
});

describe('request logs', () => {
  it('given a launch URI opened, then the log shows the path with its token masked', async () => {
    const res = await logged.inject({ method: 'GET', url: '/scorm/launch?token=eyJzZWNyZXQiOjF9.c2lnbmF0dXJl&x=1' });
    expect(res.statusCode).toBe(401);
    const text = lines.join('');
    expect(text).toContain('/scorm/launch?token=[redacted]&x=1');
    expect(text).not.toContain('eyJzZWNyZXQiOjF9');
  });

  it('masks token and access_token wherever they stand, and leaves other URLs alone', () => {
    expect(loggedUrl('/a?x=1&access_token=abc#f')).toBe('/a?x=1&access_token=[redacted]#f');
    expect(loggedUrl('/a?TOKEN=abc&token=def')).toBe('/a?TOKEN=[redacted]&token=[redacted]');
    expect(loggedUrl('/media/12?page=2')).toBe('/media/12?page=2');
  });
});
