import net from 'node:net';
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

    // A raw socket that takes the first chunk and then reads nothing: its kernel buffers stay small
    // (they grow only as an application reads), so the 8 MB cannot all leave the service.
    const { port } = new URL(origin);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.write(`GET /exports/enrollments.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${school.admin.token}\r\n\r\n`);
    const first = await new Promise<Buffer>((resolve, reject) => {
      socket.once('data', (chunk: Buffer) => {
        socket.pause();
        resolve(chunk);
      });
      socket.once('error', reject);
    });
    expect(first.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    // The client reads nothing more: the server's read waits on the reply's drain, its cursor still open.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(openBatchReaders()).toBe(1);
    if (service.database.driver === 'postgres') expect(await busyExportStatements()).toBe(1);

    socket.destroy();
    await vi.waitFor(() => expect(openBatchReaders()).toBe(0), { timeout: 15_000, interval: 50 });
    await vi.waitFor(async () => expect(await busyExportStatements()).toBe(0), { timeout: 15_000, interval: 100 });

    // The service goes on answering, the database included.
    const again = await school.admin.get(`/exports/enrollments.csv?student_id=0`);
    expect(again.status).toBe(404);
    expect((await school.admin.get('/exports/orders.csv')).status).toBe(200);
  }, 120_000);
});
