/**
 * npm run bench — the service against a bare handler (test/bench/bare.ts: node:http + postgres.js,
 * hand-written SQL) on one PostgreSQL with the same data, over HTTP, with autocannon.
 *
 * 1. Builds the service (`npm run build`), recreates its own database (BENCH_DATABASE_URL), migrates
 *    it with the service's own migrations and seeds the data set (test/bench/seed.ts).
 * 2. Starts the service as a production process (`node dist/src/main.js`) and the bare handler as
 *    another; records the service's start-up-to-ready time and RSS (idle, and the most under each
 *    scenario).
 * 3. Counts SQL statements per request: a second instance of each, connected through a counting
 *    proxy in this process, answers each scenario a few times; the proxy counts the statements the
 *    wire carries (simple Query and extended-protocol Execute messages: BEGIN and COMMIT included),
 *    whatever code sends them. The least of 5 requests (background work of the service, e.g. the
 *    webhook worker's poll, may fall into one).
 * 4. Drives every scenario for BENCH_DURATION seconds with BENCH_CONNECTIONS connections, service
 *    and bare interleaved (the order alternates each round), BENCH_ROUNDS rounds; reports the median
 *    requests/s, and the p50/p99 latency of the median round.
 * 5. Prints the table and the machine; writes the same as JSON to .bench/results-<time>.json.
 *
 * Environment: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/lp_bench), BENCH_DURATION (10),
 * BENCH_CONNECTIONS (10), BENCH_ROUNDS (3), BENCH_WARMUP seconds per scenario and target (2),
 * BENCH_POOL registrations for createEnrollment (50000), BENCH_SCENARIOS (comma-separated keys, all),
 * BENCH_KEEP=1 keeps the database, BENCH_SKIP_BUILD=1 runs the dist/ already built,
 * BENCH_SERVICE_NODE_ARGS node flags for the service (`--cpu-prof --cpu-prof-dir=.bench/profiles`),
 * BENCH_PROCESSES processes of each target behind its port (1; the service's WEB_CONCURRENCY, and the
 * bare handler's the same way), RSS then the sum over a target's processes.
 */
import 'reflect-metadata';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, connect, type Socket } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { freePort, serviceEnv, serviceNodeArgs } from './ports.js';
import { failed, type Request, type Scenario, scenarios, type Tokens } from './scenarios.js';
import { type Fixture, seed } from './seed.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const settings = {
  databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/lp_bench',
  duration: Number(process.env.BENCH_DURATION || 10),
  connections: Number(process.env.BENCH_CONNECTIONS || 10),
  rounds: Number(process.env.BENCH_ROUNDS || 3),
  warmup: Number(process.env.BENCH_WARMUP ?? 2),
  pool: Number(process.env.BENCH_POOL || 50_000),
  only: process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : null,
  keep: process.env.BENCH_KEEP === '1',
  /** Node flags for the service's process (`npm start`'s unless given), e.g. `--max-old-space-size=512 --cpu-prof --cpu-prof-dir=.bench/profiles` to profile it. */
  serviceNodeArgs: serviceNodeArgs(process.env.BENCH_SERVICE_NODE_ARGS),
  /** Processes per target (WEB_CONCURRENCY of both): the service as deployed on a machine's cores, and the bare handler alike. */
  processes: Number(process.env.BENCH_PROCESSES || 1),
};

const log = (line: string) => process.stderr.write(line + '\n');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// ---------------------------------------------------------------------------------------------
// Build, database, seed

function build() {
  if (process.env.BENCH_SKIP_BUILD === '1') return log('build: skipped (BENCH_SKIP_BUILD=1)');
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
    if (result.status === 0) return log(`build: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    log(`build failed (attempt ${attempt}):\n${(result.stdout + result.stderr).split('\n').slice(-15).join('\n')}`);
    if (attempt >= 3) throw new Error('npm run build failed');
    log('retrying in 60 s');
    spawnSync('sleep', ['60']);
  }
}

const databaseName = new URL(settings.databaseUrl).pathname.slice(1);
const maintenanceUrl = (() => {
  const url = new URL(settings.databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
})();

async function recreateDatabase() {
  if (!/^[a-z_][a-z0-9_]*$/.test(databaseName)) throw new Error(`BENCH_DATABASE_URL names "${databaseName}": use a plain lower-case name`);
  const admin = postgres(maintenanceUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    await admin.unsafe(`create database "${databaseName}"`);
  } finally {
    await admin.end();
  }
}

async function dropDatabase() {
  const admin = postgres(maintenanceUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
  } finally {
    await admin.end();
  }
}

async function prepareDatabase(): Promise<{ fixture: Fixture; tokens: Tokens; seedSeconds: number }> {
  await recreateDatabase();
  // The service's own migrations and token issuing (imported here, after the build checked src/).
  const { openDatabase } = await import('../../src/db/client.js');
  const { issueToken } = await import('../../src/auth/credential.js');
  const database = await openDatabase({ url: settings.databaseUrl, maxConnections: 2 });
  const sql = postgres(settings.databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await database.migrate();
    const started = performance.now();
    const fixture = await seed(sql, settings.pool);
    const seedSeconds = (performance.now() - started) / 1000;
    log(`seed: ${seedSeconds.toFixed(1)} s (${Object.entries(fixture.counts).map(([k, v]) => `${v.toLocaleString('en')} ${k}`).join(', ')})`);
    const tokens: Tokens = {
      read: await issueToken(database.db, { role: 'admin', schoolId: fixture.readSchoolId, label: 'bench read' }),
      write: await issueToken(database.db, { role: 'admin', schoolId: fixture.writeSchoolId, label: 'bench write' }),
      import: await issueToken(database.db, { role: 'admin', schoolId: fixture.importSchoolId, label: 'bench import' }),
    };
    return { fixture, tokens, seedSeconds };
  } finally {
    await sql.end();
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Processes


interface Target {
  name: 'service' | 'bare';
  process: ChildProcess;
  url: string;
  readyMs: number;
  output: string[];
}

const children = new Set<ChildProcess>();

async function start(name: Target['name'], databaseUrl: string, secretsKey: string): Promise<Target> {
  const port = await freePort();
  const env = serviceEnv(databaseUrl, port, secretsKey, settings.processes);
  const [command, args] =
    name === 'service' ? ['node', [...settings.serviceNodeArgs, 'dist/src/main.js']] : ['node', ['--import', 'tsx', 'test/bench/bare.ts']];
  const started = performance.now();
  const child = spawn(command, args as string[], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const output: string[] = [];
  child.stdout!.on('data', (chunk) => output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => output.push(String(chunk)));
  let exited: number | null = null;
  child.once('exit', (code) => {
    exited = code ?? -1;
    children.delete(child);
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited !== null) throw new Error(`${name} exited with ${exited} before ready:\n${output.join('')}`);
    if (performance.now() - started > 60_000) throw new Error(`${name} not ready after 60 s:\n${output.join('')}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  return { name, process: child, url, readyMs: performance.now() - started, output };
}

async function stop(target: Target) {
  if (target.process.exitCode !== null || !children.has(target.process)) return;
  const exited = new Promise((done) => target.process.once('exit', done));
  target.process.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (children.has(target.process)) target.process.kill('SIGKILL');
}

/** The resident memory of a process and its children (a primary and its workers). */
function rssMb(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (!Number.isFinite(kb)) return null;
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      // no children list on this kernel: the process alone
    }
    return kb / 1024 + children.reduce((sum, child) => sum + (rssMb(child) ?? 0), 0);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The statement counter: a TCP proxy in front of PostgreSQL that counts what the clients send.

interface Counter {
  url: string;
  statements: number;
  close(): Promise<void>;
}

async function countingProxy(databaseUrl: string): Promise<Counter> {
  const target = new URL(databaseUrl);
  const counter = { statements: 0 } as Counter;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buffer: Buffer = Buffer.alloc(0);
    let typed = false; // after the startup message, every message starts with its type byte
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (!typed) {
          if (buffer.length < 8) break;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) break;
          const code = buffer.readInt32BE(4);
          // SSLRequest and GSSENCRequest are followed by the startup message, also untyped.
          if (code !== 80877103 && code !== 80877104) typed = true;
          buffer = buffer.subarray(length);
        } else {
          if (buffer.length < 5) break;
          const length = buffer.readInt32BE(1);
          if (buffer.length < length + 1) break;
          const type = buffer[0];
          if (type === 0x51 /* Q */ || type === 0x45 /* E */) counter.statements += 1;
          buffer = buffer.subarray(length + 1);
        }
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  counter.url = url.toString();
  counter.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((done) => server.close(done));
  };
  return counter;
}

function send(target: Target, tokens: Tokens, request: Request) {
  return fetch(target.url + request.path, {
    method: request.method,
    headers: { authorization: `Bearer ${tokens[request.token]}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body,
  });
}

/** Statements per request of each scenario: the least of 5, after 3 to warm up. */
async function countStatements(target: Target, counter: Counter, tokens: Tokens, list: Scenario[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const scenario of list) {
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = counter.statements;
      const res = await send(target, tokens, scenario.next());
      const body = await res.text();
      if (failed(scenario, res.status, body)) throw new Error(`${target.name} ${scenario.key}: HTTP ${res.status} ${body.slice(0, 500)}\n${target.output.join('').slice(-2000)}`);
      await sleep(20); // anything sent after the reply (none expected) still counts
      if (i >= 3) seen.push(counter.statements - before);
    }
    counts[scenario.key] = Math.min(...seen);
  }
  return counts;
}

/** The shape of a JSON value: its keys (deeply) and array lengths; the bare handler must give the same. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return { length: value.length, first: value.length ? shape(value[0]) : null };
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    );
  return value === null ? 'null' : typeof value;
}

/** Where two shapes differ, as paths. */
function differences(a: unknown, b: unknown, path = '$'): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return [`${path}: service ${JSON.stringify(a)}, bare ${JSON.stringify(b)}`];
}

/**
 * The same request to both (the writes: a fresh one each); the JSON shapes (keys deeply, array
 * lengths, value types) must match. A GraphQL reply's top-level `extensions` (the service's cost
 * report) is left out of the comparison: the bare handler has no such feature.
 */
async function compareShapes(service: Target, bare: Target, tokens: Tokens, list: Scenario[]): Promise<Record<string, { service: number; bare: number; sameShape: boolean }>> {
  const result: Record<string, { service: number; bare: number; sameShape: boolean }> = {};
  for (const scenario of list) {
    const request = scenario.next();
    const a = await (await send(service, tokens, request)).text();
    const b = await (await send(bare, tokens, scenario.fresh ? scenario.next() : request)).text();
    const parsed = [JSON.parse(a), JSON.parse(b)];
    if (scenario.graphql) for (const reply of parsed) delete reply.extensions;
    const diff = differences(shape(parsed[0]), shape(parsed[1]));
    result[scenario.key] = { service: Buffer.byteLength(a), bare: Buffer.byteLength(b), sameShape: diff.length === 0 };
    if (diff.length) log(`! ${scenario.key}: the bare reply's shape differs from the service's:\n  ${diff.slice(0, 20).join('\n  ')}`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Load

interface Run {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  rssMaxMb: number | null;
}

async function drive(target: Target, tokens: Tokens, scenario: Scenario, seconds: number): Promise<Run> {
  const first = scenario.next();
  const headers = { authorization: `Bearer ${tokens[first.token]}`, 'content-type': 'application/json' };
  let rssMax: number | null = null;
  const sample = () => {
    const mb = rssMb(target.process.pid);
    if (mb !== null) rssMax = Math.max(rssMax ?? 0, mb);
  };
  const sampler = setInterval(sample, 100);
  try {
    const result = await autocannon({
      url: target.url,
      connections: settings.connections,
      duration: seconds,
      requests: [
        {
          method: first.method,
          path: first.path,
          headers,
          body: first.body,
          // A write: every request its own input (the reads send one request, built once).
          ...(scenario.fresh ? { setupRequest: (request: { method?: string; path?: string; body?: string }) => ({ ...request, body: scenario.next().body }) } : {}),
        },
      ],
      verifyBody: scenario.graphql ? (body) => !failed(scenario, scenario.status, body) : undefined,
    });
    sample();
    return {
      rps: result['2xx'] / result.duration - (result.mismatches || 0) / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors + result.timeouts + (result.mismatches || 0),
      rssMaxMb: rssMax,
    };
  } finally {
    clearInterval(sampler);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  key: string;
  title: string;
  service: { rps: number; p50: number; p99: number; statements: number | null; rssMaxMb: number | null; failures: number; rounds: number[] };
  bare: { rps: number; p50: number; p99: number; statements: number | null; rssMaxMb: number | null; failures: number; rounds: number[] };
  ratio: number;
  bytes: { service: number; bare: number; sameShape: boolean } | null;
}

function summarise(runs: Run[]) {
  const rps = runs.map((r) => r.rps);
  const mid = runs.find((r) => r.rps === median(rps)) ?? [...runs].sort((a, b) => a.rps - b.rps)[runs.length >> 1];
  return {
    rps: median(rps),
    p50: mid.p50,
    p99: mid.p99,
    rssMaxMb: Math.max(...runs.map((r) => r.rssMaxMb ?? 0)) || null,
    failures: runs.reduce((n, r) => n + r.failures, 0),
    rounds: rps.map((v) => Math.round(v)),
  };
}

function table(rows: Row[]): string {
  const n = (v: number) => Math.round(v).toLocaleString('en');
  const lines = [
    '| scenario | service req/s | bare req/s | service/bare | service p50 / p99 ms | bare p50 / p99 ms | statements/request service (bare) | service RSS max MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const failures = r.service.failures || r.bare.failures ? ` ⚠ failures: service ${r.service.failures}, bare ${r.bare.failures}` : '';
    lines.push(
      `| ${r.title}${failures} | ${n(r.service.rps)} | ${n(r.bare.rps)} | ${r.ratio.toFixed(2)} | ${r.service.p50} / ${r.service.p99} | ${r.bare.p50} / ${r.bare.p99} | ${r.service.statements ?? 'n/a'} (${r.bare.statements ?? 'n/a'}) | ${r.service.rssMaxMb?.toFixed(0) ?? 'n/a'} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const startedAt = new Date();
  build();
  const { fixture, tokens, seedSeconds } = await prepareDatabase();
  const secretsKey = randomBytes(32).toString('base64');
  const [postgresVersion] = await (async () => {
    const sql = postgres(settings.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`select current_setting('server_version') as v`;
      return [row.v as string];
    } finally {
      await sql.end();
    }
  })();

  let list = scenarios(fixture);
  if (settings.only) list = list.filter((s) => settings.only!.has(s.key));

  // Statements per request: instances of both behind the counting proxy.
  const counter = await countingProxy(settings.databaseUrl);
  const counted: Record<'service' | 'bare', Record<string, number>> = { service: {}, bare: {} };
  for (const name of ['service', 'bare'] as const) {
    const target = await start(name, counter.url, secretsKey);
    try {
      counted[name] = await countStatements(target, counter, tokens, list);
    } finally {
      await stop(target);
    }
  }
  await counter.close();
  log(`statements per request: ${list.map((s) => `${s.key} ${counted.service[s.key]} (${counted.bare[s.key]})`).join(', ')}`);

  const service = await start('service', settings.databaseUrl, secretsKey);
  const startupMs = service.readyMs;
  const rssReadyMb = rssMb(service.process.pid);
  const bare = await start('bare', settings.databaseUrl, secretsKey);
  log(`service ready in ${startupMs.toFixed(0)} ms (RSS ${rssReadyMb?.toFixed(0)} MB); bare ready in ${bare.readyMs.toFixed(0)} ms`);
  const bytes = await compareShapes(service, bare, tokens, list);

  const runs: Record<string, { service: Run[]; bare: Run[] }> = Object.fromEntries(list.map((s) => [s.key, { service: [], bare: [] }]));
  let rssIdleMb: number | null = null;
  try {
    if (settings.warmup > 0) {
      log(`warm-up: ${settings.warmup} s per scenario and target`);
      for (const scenario of list) for (const target of [service, bare]) await drive(target, tokens, scenario, settings.warmup);
      await sleep(1000);
    }
    rssIdleMb = rssMb(service.process.pid);
    for (let round = 1; round <= settings.rounds; round++) {
      for (const scenario of list) {
        const order = round % 2 ? [service, bare] : [bare, service];
        for (const target of order) {
          const run = await drive(target, tokens, scenario, settings.duration);
          runs[scenario.key][target.name].push(run);
          log(`round ${round} ${scenario.key.padEnd(8)} ${target.name.padEnd(7)} ${Math.round(run.rps).toString().padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms${run.failures ? `  FAILURES ${run.failures}` : ''}`);
        }
      }
    }
  } finally {
    await stop(service);
    await stop(bare);
  }

  const rows: Row[] = list.map((scenario) => {
    const s = summarise(runs[scenario.key].service);
    const b = summarise(runs[scenario.key].bare);
    return {
      key: scenario.key,
      title: scenario.title,
      service: { ...s, statements: counted.service[scenario.key] ?? null },
      bare: { ...b, statements: counted.bare[scenario.key] ?? null },
      ratio: b.rps ? s.rps / b.rps : 0,
      bytes: bytes[scenario.key] ?? null,
    };
  });
  const rssLoadMb = Math.max(...rows.map((r) => r.service.rssMaxMb ?? 0));
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres: postgresVersion,
    loadAverageAtStart: loadavg().map((v) => Number(v.toFixed(2))),
  };
  const report = {
    startedAt: startedAt.toISOString(),
    settings: { processes: settings.processes, duration: settings.duration, connections: settings.connections, rounds: settings.rounds, warmup: settings.warmup, database: databaseName },
    machine,
    seedSeconds: Number(seedSeconds.toFixed(1)),
    dataSet: fixture.counts,
    service: { startupToReadyMs: Math.round(startupMs), rssReadyMb: rssReadyMb && Math.round(rssReadyMb), rssIdleMb: rssIdleMb && Math.round(rssIdleMb), rssUnderLoadMaxMb: Math.round(rssLoadMb) },
    statementsMethod: 'PostgreSQL wire messages (Query + Execute, BEGIN/COMMIT included) through a counting proxy; least of 5 requests',
    scenarios: rows,
  };

  console.log(`\n${table(rows)}\n`);
  console.log(
    `Service: start-up to ready ${report.service.startupToReadyMs} ms; RSS ${report.service.rssReadyMb} MB at ready, ${report.service.rssIdleMb} MB idle after warm-up, ${report.service.rssUnderLoadMaxMb} MB max under load.`,
  );
  console.log(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB; Node ${machine.node}; PostgreSQL ${machine.postgres}; load average at start ${machine.loadAverageAtStart.join(' ')}.`,
  );
  console.log(
    `Settings: ${settings.processes} process(es) per target, ${settings.duration} s × ${settings.connections} connections, ${settings.rounds} round(s), median requests/s (p50/p99 of the median round); seeded in ${report.seedSeconds} s.`,
  );
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', `results-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(`Results: ${file}`);
}

let code = 0;
try {
  await main();
} catch (error) {
  console.error(error);
  code = 1;
} finally {
  for (const child of children) child.kill('SIGKILL');
  if (!settings.keep) await dropDatabase().catch((error) => console.error(`drop database: ${(error as Error).message}`));
  else log(`database ${databaseName} kept (BENCH_KEEP=1)`);
}
process.exit(code);
