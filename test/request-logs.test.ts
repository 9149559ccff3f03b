import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loggedUrl } from '../src/app.js';
import { createLogger, repeatedFailures } from '../src/http/logging.js';
import { loggingApp, type Service, startService } from './support/service.js';

// Request logs name the URL of every request: a SCORM launch URI's token must not land in them.
// Failures of background work are logged with their cause, and not again each time they repeat.

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
    // `x` is no parameter of the launch (400 naming it): the line is logged all the same, its token masked.
    const res = await logged.inject({ method: 'GET', url: '/scorm/launch?token=eyJzZWNyZXQiOjF9.c2lnbmF0dXJl&x=1' });
    expect(res.statusCode).toBe(400);
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

describe('failures of background work', () => {
  it('given a failed statement repeated every second, then one JSON line with its cause and no statement, then one a minute with the count', async () => {
    const lines: string[] = [];
    let now = 0;
    const failed = repeatedFailures(createLogger({ stream: { write: (line) => lines.push(line) } }), 60_000, () => now);
    const failure = await service.db.execute(sql`select * from no_such_table where id = ${'a-parameter-value'}`).catch((error: unknown) => error);
    for (; now <= 60_000; now += 1000) failed('webhook delivery failed', failure);
    failed('event pruning failed', failure);

    const logged = lines.map((line) => JSON.parse(line));
    expect(logged.map((l) => [l.msg, l.repeated])).toEqual([
      ['webhook delivery failed', undefined],
      ['webhook delivery failed', 59],
      ['event pruning failed', undefined],
    ]);
    expect(logged[0].level).toBe(50);
    expect(logged[0].err).toMatchObject({ type: 'DrizzleQueryError', message: 'Failed query', cause: { code: '42P01', message: 'relation "no_such_table" does not exist' } });
    const text = lines.join('');
    for (const statement of ['select', 'where id', 'a-parameter-value', 'params']) expect(text).not.toContain(statement);
  });
});
