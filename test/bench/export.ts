/**
 * npm run bench:export — a school of 1,000,000 enrollments exported through the HTTP route
 * (GET /exports/enrollments.csv), measuring how much the service's process grows while it streams.
 *
 * 1. Recreates its own database (BENCH_EXPORT_DATABASE_URL), starts the service on it as a process of
 *    its own (`node --import tsx src/main.ts`, which migrates it), seeds one school with BENCH_EXPORT_ROWS
 *    students, registrations and enrollments (one INSERT ... SELECT generate_series each) and issues
 *    the school's admin a token.
 * 2. Warms the route up (a small export: its code loaded and compiled), lets the process settle, then
 *    samples its resident memory (VmRSS of /proc/<pid>/status: what its process.memoryUsage().rss reads)
 *    every 50 ms while one client downloads the whole file, counting bytes and lines as they come.
 * 3. Prints the rows, the bytes, the time and the RSS before and at most during the download; exits 1
 *    when the growth reaches BENCH_EXPORT_LIMIT_MB (50) or the file lacks rows.
 *
 * Environment: BENCH_EXPORT_DATABASE_URL (postgres://postgres@127.0.0.1:5432/lp_bench_export),
 * BENCH_EXPORT_ROWS (1000000), BENCH_EXPORT_LIMIT_MB (50), BENCH_EXPORT_NODE_ARGS node flags for the service
 * (by default `npm start`'s; ' ' for none: V8's defaults),
 * BENCH_KEEP=1 keeps the database, and a later run with BENCH_KEEP=1 exports from it again without seeding
 * (the same rows: comparing node flags or code changes takes a minute, not three).
 */
import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { issueToken } from '../../src/auth/credential.js';
import { openDatabase } from '../../src/db/client.js';
import { freePort, serviceEnv, serviceNodeArgs } from './ports.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const settings = {
  databaseUrl: process.env.BENCH_EXPORT_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/lp_bench_export',
  rows: Number(process.env.BENCH_EXPORT_ROWS || 1_000_000),
  limitMb: Number(process.env.BENCH_EXPORT_LIMIT_MB || 50),
  keep: process.env.BENCH_KEEP === '1',
  /** Node flags for the service's process: `npm start`'s unless BENCH_EXPORT_NODE_ARGS names others (`--max-old-space-size=N`: how far V8 lets garbage pile up before a full collection). */
  serviceNodeArgs: serviceNodeArgs(process.env.BENCH_EXPORT_NODE_ARGS),
};
const log = (line: string) => process.stderr.write(line + '\n');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const databaseName = new URL(settings.databaseUrl).pathname.slice(1);
const adminUrl = () => {
  const url = new URL(settings.databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
};

async function onAdmin(statement: string) {
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

/** The process's resident memory in MB (what its process.memoryUsage().rss reads). */
function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

async function startService(port: number): Promise<ChildProcess> {
  const env = serviceEnv(settings.databaseUrl, port, randomBytes(32).toString('base64'));
  const child = spawn(process.execPath, [...settings.serviceNodeArgs, '--import', 'tsx', 'src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  const started = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output.join('')}`);
    if (performance.now() - started > 180_000) throw new Error(`the service is not ready after 180 s:\n${output.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}

/** One school, a product, and `rows` students each enrolled in it: three INSERT ... SELECT. */
async function seed(): Promise<{ schoolId: number; productId: number }> {
  const sql = postgres(settings.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [school] = await sql`insert into schools (name, subdomain, status, email) values ('Export Bench School', 'export-bench', 'active', 'bench@example.com') returning id`;
    const [product] = await sql`insert into school_products (school_id, title) values (${school.id}, 'A course, "quoted", with ação') returning id`;
    const started = performance.now();
    await sql`insert into users (school_id, type, full_name, email)
      select ${school.id}, 'Student', 'Estudante ' || n || ', da Silva', 'student' || n || '@bench.example' from generate_series(1, ${settings.rows}) n`;
    await sql`insert into registrations (school_id, student_id) select school_id, id from users where school_id = ${school.id} and type = 'Student'`;
    await sql`insert into enrollments (school_id, registration_id, student_id, school_product_id, max_attendance_type, status, unlimited)
      select school_id, id, student_id, ${product.id}, 'indeterminate', 'active', true from registrations where school_id = ${school.id}`;
    await sql`analyze users, registrations, enrollments`;
    log(`seeded ${settings.rows.toLocaleString('en')} enrollments in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { schoolId: Number(school.id), productId: Number(product.id) };
  } finally {
    await sql.end();
  }
}

/** Downloads the path whole, counting bytes and line ends (a quoted line break inside a field counts too: none in this data). */
function download(url: string, token: string): Promise<{ status: number; bytes: number; lines: number }> {
  return new Promise((done, fail) => {
    get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, bytes, lines }));
      res.on('error', fail);
    }).on('error', fail);
  });
}

/** The school a kept database holds with every row seeded, or null (then the database is made anew). */
async function seededSchool(): Promise<number | null> {
  if (!settings.keep) return null;
  const sql = postgres(settings.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const [found] = await sql`select s.id, (select count(*) from enrollments e where e.school_id = s.id)::int as rows from schools s where s.subdomain = 'export-bench'`;
    return found && found.rows === settings.rows ? Number(found.id) : null;
  } catch {
    return null;
  } finally {
    await sql.end();
  }
}

async function main() {
  const kept = await seededSchool();
  if (kept === null) {
    await onAdmin(`drop database if exists "${databaseName}" with (force)`);
    await onAdmin(`create database "${databaseName}"`);
  } else log(`exporting again the ${settings.rows.toLocaleString('en')} enrollments the kept database holds`);
  const port = await freePort();
  log('starting the service (it migrates the database)');
  const service = await startService(port);
  try {
    const schoolId = kept ?? (await seed()).schoolId;
    const database = await openDatabase({ url: settings.databaseUrl, maxConnections: 1 });
    const token = await issueToken(database.db, { role: 'admin', schoolId, label: 'export bench' });
    await database.close();
    const base = `http://127.0.0.1:${port}`;

    // Warm-up: the route's code loaded and compiled, then a pause for the collector.
    const warm = await download(`${base}/exports/enrollments.csv?status=canceled`, token);
    if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}`);
    await sleep(2_000);
    const pid = service.pid!;
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
    const started = performance.now();
    const file = await download(`${base}/exports/enrollments.csv`, token);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    const growth = peak - before;
    const rows = file.lines - 1;
    console.log(
      JSON.stringify(
        {
          rows,
          megabytes: Number((file.bytes / 1024 / 1024).toFixed(1)),
          seconds: Number(seconds.toFixed(1)),
          rowsPerSecond: Math.round(rows / seconds),
          rssBeforeMb: Number(before.toFixed(1)),
          rssPeakMb: Number(peak.toFixed(1)),
          rssGrowthMb: Number(growth.toFixed(1)),
          limitMb: settings.limitMb,
          serviceNodeArgs: settings.serviceNodeArgs.join(' '),
        },
        null,
        2,
      ),
    );
    if (file.status !== 200 || rows !== settings.rows) throw new Error(`expected ${settings.rows} rows, got ${rows} (status ${file.status})`);
    if (growth >= settings.limitMb) throw new Error(`RSS grew ${growth.toFixed(1)} MB: the limit is ${settings.limitMb} MB`);
  } finally {
    service.kill('SIGTERM');
    await new Promise((done) => service.once('exit', done));
    if (!settings.keep) await onAdmin(`drop database if exists "${databaseName}" with (force)`).catch((error) => log(`drop database: ${(error as Error).message}`));
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
