import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The service as a process (src/main.ts under tsx): start-up errors, and a stop with a request in flight.
const root = join(import.meta.dirname, '..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lp-process-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exit: Promise<number | null>;
}

function start(env: Record<string, string>, script = 'src/main.ts', args: string[] = []): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH!, NODE_ENV: 'test', LOG_REQUESTS: 'false', DATA_DIR: tempDir(), ...env },
  });
  const run: Run = { child, stdout: [], stderr: [], exit: new Promise((done) => child.once('exit', (code) => done(code))) };
  child.stdout!.on('data', (b: Buffer) => run.stdout.push(...b.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (b: Buffer) => run.stderr.push(...b.toString().split('\n').filter(Boolean)));
  return run;
}

describe('start-up errors: one line, exit 1', () => {
  it('given a bad PORT, SHUTDOWN_TIMEOUT_MS, SECRETS_KEY, DATABASE_URL or a taken port, then each prints one line naming it', async () => {
    const taken: Server = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', () => done()));
    const takenPort = String((taken.address() as { port: number }).port);
    const key = Buffer.alloc(32, 7).toString('base64');
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /^Configuration error: PORT must be a whole number from 0 to 65535 \(got "eighty"\)$/],
      [{ SHUTDOWN_TIMEOUT_MS: '10s' }, /^Configuration error: SHUTDOWN_TIMEOUT_MS must be a whole number from 0 to 3600000 \(got "10s"\)$/],
      [{ SECRETS_KEY: 'short' }, /^Configuration error: SECRETS_KEY must be 32 bytes/],
      [{ DATABASE_URL: 'mysql://x' }, /^Configuration error: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/],
      [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', SECRETS_KEY: key }, /^Configuration error: DATABASE_URL names a database that cannot be reached \(ECONNREFUSED\)$/],
      [{ PORT: takenPort, HOST: '127.0.0.1' }, new RegExp(`^Configuration error: PORT ${takenPort} on 127.0.0.1 cannot be used \\(another process listens there\\)$`)],
    ];
    try {
      const runs = cases.map(([env]) => start(env));
      for (const [i, run] of runs.entries()) {
        expect(await run.exit, run.stderr.join('\n')).toBe(1);
        // One line for the error (the embedded database's development-key warning may precede it), no stack.
        const errors = run.stderr.filter((l) => !l.includes('development key'));
        expect(errors, `case ${i}`).toHaveLength(1);
        expect(errors[0]).toMatch(cases[i][1]);
      }
    } finally {
      taken.close();
    }
  }, 90_000);
});

describe('stopping', () => {
  it('given SIGTERM with a request in flight, then the request completes, the database closes and the exit code is 0', async () => {
    // Not NODE_ENV=test: Apollo would handle the signal itself outside tests.
    const dataDir = tempDir();
    const run = start({ PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development', DATA_DIR: dataDir });
    const ready = async () => {
      for (let i = 0; i < 600 && !run.stdout.some((l) => l.startsWith('Development platform token')); i++) await new Promise((r) => setTimeout(r, 100));
    };
    await ready();
    const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(run.stdout.join('\n'))?.[1]);
    const token = run.stdout.find((l) => l.startsWith('Development platform token'))!.split(': ')[1];
    expect(port).toBeGreaterThan(0);
    // Development on the embedded database: this machine's client without a credential pays at a credential's budget (300), not 60.
    expect((await fetch(`http://127.0.0.1:${port}/schools`)).headers.get('ratelimit-limit')).toBe('300');

    // While the service runs on the embedded database, the token and seed commands go through it
    // (its files are one process's at a time), and what they make works at once.
    const call = (bearer: string, path: string) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    const token2 = start({ DATA_DIR: dataDir }, 'src/tools/create-token.ts', ['--role', 'platform', '--label', 'ops']);
    expect(await token2.exit, token2.stderr.join('\n')).toBe(0);
    expect(token2.stdout.at(-1)).toMatch(/^lp_platform_/);
    expect((await call(token2.stdout.at(-1)!, '/schools')).status).toBe(200);
    const seeded = start({ DATA_DIR: dataDir }, 'src/tools/seed.ts');
    expect(await seeded.exit, seeded.stderr.join('\n')).toBe(0);
    expect(seeded.stdout[0]).toBe(`Database: embedded (${dataDir}), through the service running at http://127.0.0.1:${port} (pid ${run.child.pid})`);
    const student = /^export STUDENT=(\S+)/m.exec(seeded.stdout.join('\n'))![1];
    const enrollments = await call(student, '/enrollments');
    expect(enrollments.status).toBe(200);
    expect(((await enrollments.json()) as unknown[]).length).toBeGreaterThan(0);
    const refused = start({ DATA_DIR: dataDir }, 'src/tools/create-token.ts', ['--role', 'admin', '--school', '999']);
    expect(await refused.exit).toBe(1);
    expect(refused.stderr).toEqual([seeded.stdout[0], 'Error: --school has no school with id 999']);

    // Headers and half the body now; the rest after the signal.
    const body = JSON.stringify({ query: '{ schools(first: 1) { totalCount } }' });
    const socket = connect(port, '127.0.0.1');
    const reply = new Promise<string>((done) => {
      let text = '';
      socket.on('data', (b) => (text += b.toString()));
      socket.on('close', () => done(text));
    });
    await new Promise<void>((done) => socket.once('connect', () => done()));
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    socket.write(body.slice(10));
    const text = await reply;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain('"totalCount":1');
    expect(await run.exit).toBe(0);
    expect(run.stdout).toContain('Stopped');

    // Stopped: the token command opens the database itself, keeps what the service wrote (the seeded
    // school is there), and names a person that is not the role's plainly.
    const unknown = start({ DATA_DIR: dataDir }, 'src/tools/create-token.ts', ['--role', 'student', '--school', '1', '--user', '999']);
    expect(await unknown.exit).toBe(1);
    expect(unknown.stderr).toEqual([`Database: embedded (${dataDir})`, 'Error: --user has no student of school 1 with id 999']);
    const platform = start({ DATA_DIR: dataDir }, 'src/tools/create-token.ts', ['--role', 'platform']);
    expect(await platform.exit, platform.stderr.join('\n')).toBe(0);
    expect(platform.stdout.at(-1)).toMatch(/^lp_platform_/);
  }, 240_000);
});
