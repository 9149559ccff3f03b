import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, inject, it } from 'vitest';

// WEB_CONCURRENCY (http/workers.ts): several processes behind one port on PostgreSQL; one on the embedded database.
const root = join(import.meta.dirname, '..', '..');
const database = inject('testDatabase');
const dataDir = mkdtempSync(join(tmpdir(), 'lp-workers-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH!, NODE_ENV: 'test', LOG_REQUESTS: 'false', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env },
  });
  const lines: string[] = [];
  const collect = (b: Buffer) => lines.push(...b.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const until = async (test: () => boolean, what: string) => {
    for (let i = 0; i < 600 && !test(); i++) await new Promise((r) => setTimeout(r, 100));
    if (!test()) throw new Error(`${what} not seen:\n${lines.join('\n')}`);
  };
  const listening = () => lines.filter((l) => l.startsWith('Learning platform listening on'));
  return { child, lines, exit, until, listening };
}

/** The node processes whose parent is `pid` (not tsx's esbuild service; ps exits 1 when there are none). */
function childrenOf(pid: number): number[] {
  let listed: string;
  try {
    listed = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
  return listed
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([id, command]) => id && command === 'node')
    .map(([id]) => Number(id));
}

describe.runIf(database.kind === 'postgres')('WEB_CONCURRENCY on PostgreSQL', () => {
  // Built when the tests run (the body of a skipped describe is still read): a database of this file's own.
  const name = `${(database.template ?? 'lp').replace(/_tmpl_\d+$/, '')}_workers_${process.pid}`;
  let admin: postgres.Sql | undefined;
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists "${name}" with (force)`);
    await admin?.end();
  });

  it('given 2, then two workers serve one port, a worker that dies is replaced, and SIGTERM stops them all with exit 0', async () => {
    admin = postgres(database.url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${name}"`);
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(database.url!);
    url.pathname = `/${name}`;
    // An empty database: the primary migrates it once before the workers start.
    const run = start({ WEB_CONCURRENCY: '2', DATABASE_URL: url.toString() });
    await run.until(() => run.listening().length === 2, 'two workers listening');
    expect(run.lines).toContain('Starting 2 worker processes');
    const ports = new Set(run.listening().map((l) => /:(\d+) /.exec(l)![1]));
    expect(ports.size).toBe(1);
    const port = [...ports][0];
    const workers = childrenOf(run.child.pid!);
    expect(workers).toHaveLength(2);
    const ready = async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
    expect(await Promise.all(Array.from({ length: 10 }, ready))).toEqual(Array(10).fill(200));

    process.kill(workers[0]!, 'SIGKILL');
    await run.until(() => run.listening().length === 3, 'a replacement worker listening');
    expect(run.lines.some((l) => l.startsWith(`Worker ${workers[0]} exited (SIGKILL): starting another`))).toBe(true);
    const now = childrenOf(run.child.pid!);
    expect(now).toHaveLength(2);
    expect(now).not.toContain(workers[0]);
    expect(await ready()).toBe(200);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.lines.filter((l) => l === 'Stopped')).toHaveLength(2);
    for (const pid of now) expect(() => process.kill(pid, 0)).toThrow();
  }, 120_000);
});

describe.runIf(database.kind === 'pglite')('WEB_CONCURRENCY on the embedded database', () => {
  it('given 2 without DATABASE_URL, then one process serves and says why', async () => {
    const run = start({ WEB_CONCURRENCY: '2' });
    await run.until(() => run.listening().length === 1, 'the service listening');
    expect(run.lines).toContain('WEB_CONCURRENCY is for PostgreSQL (DATABASE_URL): the embedded database is served by one process');
    expect(childrenOf(run.child.pid!)).toEqual([]);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 120_000);
});
