import http from 'node:http';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { openBatchReaders } from '../../src/db/batches.js';
import { rowsOf } from '../../src/db/rows.js';
import type { Service, TestSchool } from '../support/service.js';
import { twoSchools } from '../support/world.js';
import { exportFixtures } from '../support/exports.fixtures.js';

// A streamed export reads no faster than its client takes it (the reply's backpressure), and a client
// that goes away mid-download ends the read: the cursor is closed and its connection given back.

let service: Service;
let school: TestSchool;
twoSchools('Disconnect School', 'Other Disconnect School', (w) => ({ service, school } = w));
const fx = exportFixtures(() => service);

/** PostgreSQL: the connections of this database busy with an export's statement (its dates are formatted with to_char). */
async function busyExportStatements(): Promise<number> {
  if (service.database.driver !== 'postgres') return 0;
  const result = await service.db.execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query like '%to_char(%'`,
  );
  return Number(rowsOf<{ n: number }>(result)[0].n);
}

describe('a client that goes away mid-download', () => {
  it('stops the read where the client stopped taking it, and releases the cursor and its connection when it leaves', async () => {
    const product = await fx.product(school.id);
    // About 8 MB of CSV: more than the socket buffers hold, so the reply waits for the client.
    await fx.manyEnrollments(school.id, product.id, 40_000);
    const origin = await service.app.listen({ port: 0, host: '127.0.0.1' });
    expect(openBatchReaders()).toBe(0);

    let received = 0;
    const request = http.get(`${origin}/exports/enrollments.csv`, { headers: { authorization: `Bearer ${school.admin.token}` } });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    await new Promise<void>((resolve) =>
      response.once('data', (chunk: Buffer) => {
        received += chunk.length;
        response.pause();
        resolve();
      }),
    );
    // The client reads nothing more: the server's read waits on the reply's drain, its cursor still open.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(openBatchReaders()).toBe(1);
    if (service.database.driver === 'postgres') expect(await busyExportStatements()).toBe(1);
    expect(received).toBeLessThan(8_000_000);

    request.destroy();
    await vi.waitFor(() => expect(openBatchReaders()).toBe(0), { timeout: 15_000, interval: 50 });
    await vi.waitFor(async () => expect(await busyExportStatements()).toBe(0), { timeout: 15_000, interval: 100 });

    // The service goes on answering, the database included.
    const again = await school.admin.get(`/exports/enrollments.csv?student_id=0`);
    expect(again.status).toBe(404);
    expect((await school.admin.get('/exports/orders.csv')).status).toBe(200);
  }, 120_000);
});
