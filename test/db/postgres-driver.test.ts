import postgres from 'postgres';
import { describe, expect, inject, it } from 'vitest';

// The driver is patched (src/db/patches, applied by `npm ci`'s postinstall through patch-package): a
// write queued as a connection closed found no socket and threw from a timer, which ended the process
// (porsager/postgres#1154, fix of #1176; unfixed in 3.4.9). Seen in test/system/process.test.ts when the
// database was dropped under the service. A reserved connection whose backend is terminated makes it
// happen every time: the process must live on, and the query must not succeed.
const database = inject('testDatabase');

describe.runIf(database.kind === 'postgres')('the PostgreSQL driver when a connection closes under it', () => {
  it('given a reserved connection whose backend was terminated, then its next query does not succeed and nothing is thrown from the driver', async () => {
    const thrown: unknown[] = [];
    const record = (error: unknown) => thrown.push(error);
    process.on('uncaughtException', record);
    const sql = postgres(database.url!, { max: 1, onnotice: () => {} });
    const admin = postgres(database.url!, { max: 1, onnotice: () => {} });
    try {
      const reserved = await sql.reserve();
      const [{ pid }] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
      await admin`select pg_terminate_backend(${pid})`;
      await new Promise((resolve) => setTimeout(resolve, 200));
      const outcome = await Promise.race([
        reserved`select 1`.then(() => 'answered', (error: { code?: string }) => error.code),
        new Promise((resolve) => setTimeout(() => resolve('pending'), 500)),
      ]);
      expect(['CONNECTION_CLOSED', 'pending']).toContain(outcome);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(thrown).toEqual([]);
      reserved.release();
    } finally {
      process.off('uncaughtException', record);
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  });
});

// Behind PgBouncer in transaction mode (DATABASE_PREPARE=false) the service sends one statement at a time
// per connection (max_pipeline 0, db/client.ts): a pipelined one's replies could reach another client. The
// patch makes sql.begin reserve its connection before the pipeline's bound, or BEGIN failed UNSAFE_TRANSACTION.
describe.runIf(database.kind === 'postgres')('the PostgreSQL driver without named statements (behind a pooler)', () => {
  it('given transactions and plain statements at once on two connections, then every one answers', async () => {
    const { openDatabase } = await import('../../src/db/client.js');
    const { sql } = await import('drizzle-orm');
    const opened = await openDatabase({ url: database.url!, prepare: false, maxConnections: 2 });
    try {
      const work = Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? opened.db.transaction(async (tx) => (await tx.execute(sql`select ${i}::int as n`)) as unknown)
          : (opened.db.execute(sql`select ${i}::int as n`) as Promise<unknown>),
      );
      const answers = await Promise.allSettled(work);
      expect(answers.filter((a) => a.status === 'rejected').map((a) => String((a as PromiseRejectedResult).reason))).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
