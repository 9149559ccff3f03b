/**
 * npm run bench:attack — the reproducer of issue 23, point 1, at full size, against a production
 * process on PostgreSQL: an admin makes 100 courses, each in the same 100 paths; then 19 aliases of
 * `course(id:) { paths { courses { paths { id } } } }` (within every static limit) are sent once, then
 * 4 and 8 at a time. For each wave it reports what the replies said and how long they took, the
 * slowest `/healthz` answer polled every 100 ms meanwhile, and the service's largest RSS. The process
 * must stay up, every reply must be a clear error in bounded time, and `/healthz` must answer within 1 s.
 *
 * Environment: ATTACK_DATABASE_URL (postgres://postgres@127.0.0.1:5432/lp_attack, recreated and
 * dropped), ATTACK_SIZE (100 courses and paths), ATTACK_ALIASES (19), BENCH_SKIP_BUILD=1 runs the
 * dist/ already built, ATTACK_KEEP=1 keeps the database, ATTACK_NODE_ARGS passes node flags to the
 * service. The service reads the lists' statistics before the data exists, so this measures the budget
 * while running, not the cost refused before. Any other variable of the service (GRAPHQL_MAX_OBJECTS, GRAPHQL_TIMEOUT_MS, ...)
 * passes through to it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { freePort, serviceEnv, serviceEntry, serviceNodeArgs } from './ports.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const databaseUrl = process.env.ATTACK_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/lp_attack';
const size = Number(process.env.ATTACK_SIZE || 100);
const aliases = Number(process.env.ATTACK_ALIASES || 19);
const log = (line: string) => process.stderr.write(line + '\n');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const maintenance = (() => {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
})();
const databaseName = new URL(databaseUrl).pathname.slice(1);

async function recreate(drop = false) {
  const admin = postgres(maintenance, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    if (!drop) await admin.unsafe(`create database "${databaseName}"`);
  } finally {
    await admin.end();
  }
}


function rssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return 0;
  }
}

async function startService(): Promise<{ child: ChildProcess; url: string; output: string[] }> {
  const port = await freePort();
  const env = serviceEnv(databaseUrl, port, randomBytes(32).toString('base64'));
  const nodeArgs = serviceNodeArgs(process.env.ATTACK_NODE_ARGS);
  const child = spawn('node', [...nodeArgs, serviceEntry()], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited before ready:\n${output.join('')}`);
    if (performance.now() - started > 60_000) throw new Error(`the service was not ready after 60 s:\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { child, url, output };
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
}

async function graphql(url: string, token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The school, its courses and paths, made through the API as an admin would. */
async function seed(url: string, platform: string): Promise<{ admin: string; courseId: string }> {
  const wizard = await fetch(`${url}/schools/wizard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${platform}` },
    body: JSON.stringify({ school: { name: 'Attack School', email: 'admin@attack.example', password: 'attack-password' } }),
  });
  const admin = ((await wizard.json()) as any).admin.credentials as string;
  const courseIds: string[] = [];
  for (let i = 0; i < size; i++) {
    const made = await graphql(url, admin, 'mutation ($input: CourseInput!) { createCourse(input: $input) { course { id } errors { message } } }', {
      input: { name: `Course ${i}` },
    });
    courseIds.push(made.body.data.createCourse.course.id);
  }
  for (let i = 0; i < size; i++) {
    const made = await graphql(url, admin, 'mutation ($input: CreatePathInput!) { createPath(input: $input) { errors { message } } }', {
      input: { name: `Path ${i}`, description: `Path ${i}`, courseIds },
    });
    if (made.body.data?.createPath.errors.length !== 0) throw new Error(`createPath: ${JSON.stringify(made.body)}`);
  }
  return { admin, courseId: courseIds[0] };
}

interface Wave {
  parallel: number;
  replies: string;
  slowestReplyMs: number;
  slowestHealthzMs: number;
  maxRssMb: number;
  alive: boolean;
}

async function wave(service: { child: ChildProcess; url: string }, admin: string, courseId: string, parallel: number): Promise<Wave> {
  const query = `query ($id: ID!) { ${Array.from({ length: aliases }, (_, i) => `a${i}: course(id: $id) { paths { courses { paths { id } } } }`).join(' ')} }`;
  let running = true;
  let slowestHealthzMs = 0;
  let maxRssMb = rssMb(service.child.pid);
  const watcher = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await fetch(`${service.url}/healthz`, { signal: AbortSignal.timeout(30_000) });
      } catch {
        slowestHealthzMs = Math.max(slowestHealthzMs, 30_000);
      }
      slowestHealthzMs = Math.max(slowestHealthzMs, performance.now() - started);
      maxRssMb = Math.max(maxRssMb, rssMb(service.child.pid));
      await sleep(100);
    }
  })();
  const replies = await Promise.all(
    Array.from({ length: parallel }, async () => {
      const started = performance.now();
      try {
        const { status, body } = await graphql(service.url, admin, query, { id: courseId });
        return { ms: performance.now() - started, what: `${status} ${body.errors?.[0]?.extensions?.code ?? 'data'}` };
      } catch (error) {
        return { ms: performance.now() - started, what: `failed: ${(error as Error).message}` };
      }
    }),
  );
  running = false;
  await watcher;
  const counts = new Map<string, number>();
  for (const r of replies) counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
  return {
    parallel,
    replies: [...counts].map(([what, n]) => `${n} × ${what}`).join(', '),
    slowestReplyMs: Math.max(...replies.map((r) => r.ms)),
    slowestHealthzMs,
    maxRssMb,
    alive: service.child.exitCode === null,
  };
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    const built = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
  }
  await recreate();
  const { openDatabase } = await import('../../src/db/client.js');
  const { issueToken } = await import('../../src/auth/credential.js');
  const database = await openDatabase({ url: databaseUrl, maxConnections: 1 });
  await database.migrate();
  const platform = await issueToken(database.db, { role: 'platform', schoolId: null, userId: null, label: 'attack' });
  await database.close();
  const service = await startService();
  let failed = false;
  try {
    const started = performance.now();
    const { admin, courseId } = await seed(service.url, platform);
    log(`seeded ${size} courses, each in the same ${size} paths, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const idle = rssMb(service.child.pid);
    const rows: Wave[] = [];
    for (const parallel of [1, 4, 8]) {
      const row = await wave(service, admin, courseId, parallel);
      rows.push(row);
      log(`${parallel} in parallel: ${row.replies}`);
      if (!row.alive) break;
    }
    console.log(`\n${aliases} aliases of course { paths { courses { paths { id } } } } over ${size} courses × ${size} paths; RSS at rest ${idle.toFixed(0)} MB\n`);
    console.log('| requests at once | replies | slowest reply ms | slowest /healthz ms | service RSS max MB | process up |');
    console.log('|---:|---|---:|---:|---:|---|');
    for (const r of rows)
      console.log(`| ${r.parallel} | ${r.replies} | ${r.slowestReplyMs.toFixed(0)} | ${r.slowestHealthzMs.toFixed(0)} | ${r.maxRssMb.toFixed(0)} | ${r.alive ? 'yes' : 'NO'} |`);
    failed = rows.some((r) => !r.alive || r.slowestHealthzMs > 1000 || /data|failed/.test(r.replies));
    console.log(failed ? '\nFAILED: the process died, /healthz was slow, or a reply was not a clear error' : '\nHeld: every reply a clear error, the process up, /healthz within 1 s');
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((done) => service.child.once('exit', done));
    if (process.env.ATTACK_KEEP !== '1') await recreate(true);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
