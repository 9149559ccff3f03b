import { createServer, connect, type Socket } from 'node:net';
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

// A connection reserved at start-up (sql.reserve) fetches its array types with no waiting query, and
// ReadyForQuery dropped that fetch's promise (porsager/postgres#1192): a connection closed while it ran
// rejected it unhandled, which ends the process. A proxy closes the first connection as that query passes.
describe.runIf(database.kind === 'postgres')('the PostgreSQL driver when a new connection closes during its type query', () => {
  it('given the first connection closed as its type query is sent, then nothing is left unhandled and a new connection answers', async () => {
    const target = new URL(database.url!);
    let cut = 0;
    const sockets = new Set<Socket>();
    const proxy = createServer((client) => {
      const server = connect(Number(target.port || 5432), target.hostname);
      sockets.add(client).add(server);
      client.on('data', (chunk) => {
        if (cut === 0 && chunk.includes('pg_catalog.pg_type')) {
          cut += 1;
          client.destroy();
          server.destroy();
          return;
        }
        server.write(chunk);
      });
      server.on('data', (chunk) => client.write(chunk));
      for (const [a, b] of [[client, server], [server, client]] as const) {
        a.on('error', () => b.destroy());
        a.on('close', () => b.destroy());
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const via = new URL(target);
    via.hostname = '127.0.0.1';
    via.port = String((proxy.address() as { port: number }).port);

    const unhandled: unknown[] = [];
    const record = (error: unknown) => unhandled.push(error);
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    const sql = postgres(via.toString(), { max: 1, onnotice: () => {} });
    try {
      void sql.reserve().then((reserved) => reserved.release(), () => {});
      await until(() => cut === 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
      // A new connection fetches the types again: arrays still parse.
      const [{ xs }] = await sql<{ xs: number[] }[]>`select array[1, 2]::int[] as xs`;
      expect(xs).toEqual([1, 2]);
    } finally {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
      await sql.end({ timeout: 1 });
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

// The database dropped under a loaded pool (test/system/process.test.ts, once in CI): a closed connection
// kept its last query as in flight, so the next connection's start-up error (3D000) went to that query,
// and the query waiting for the connection reconnected forever. Requests hung; the patch settles them all.
describe.runIf(database.kind === 'postgres')('the PostgreSQL driver when its database is dropped under load', () => {
  it('given 60 queries and transactions under way as the database is dropped, then every one settles', async () => {
    const name = `driver_dropped_${process.pid}`;
    const admin = postgres(database.url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${name}"`);
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(database.url!);
    url.pathname = `/${name}`;
    const sql = postgres(url.toString(), { max: 10, onnotice: () => {} });
    try {
      await sql`select 1`;
      const work: Promise<string>[] = [];
      for (let i = 0; i < 60; i += 1) {
        const query = i % 2 ? sql`select pg_sleep(0.05), ${i}::int` : sql.begin(async (tx) => tx`select pg_sleep(0.02), ${i}::int`);
        work.push(query.then(() => 'answered', (error: { code?: string }) => error.code ?? 'error'));
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (i === 20) void admin.unsafe(`drop database "${name}" with (force)`).catch(() => {});
      }
      const outcome = await Promise.race([Promise.all(work), new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 15_000))]);
      expect(outcome).not.toBe('pending');
      const outcomes = outcome as string[];
      expect(outcomes.filter((o) => !['answered', '3D000', '57P01', 'CONNECTION_CLOSED', 'ECONNRESET'].includes(o))).toEqual([]);
      expect(outcomes.filter((o) => o === '3D000').length).toBeGreaterThan(0);
    } finally {
      await sql.end({ timeout: 1 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  }, 30_000);
});

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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
