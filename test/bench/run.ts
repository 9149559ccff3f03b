/**
 * npm run bench — the service against PostGraphile v5 and a bare handler (test/bench/bare.ts:
 * node:http + postgres.js, hand-written SQL) on one PostgreSQL with the same data, over HTTP, with
 * autocannon, in one run.
 *
 * 1. Builds the service as `npm start` does (src/tools/build.mjs), recreates its own database
 *    (BENCH_DATABASE_URL), migrates it with the service's own migrations and seeds the data set
 *    (test/bench/seed.ts). Fetches what it needs outside the repository, once (test/bench/peer.ts): Node 22 when this Node is another,
 *    and PostGraphile v5 (amber preset) with its server script.
 * 2. Starts the three targets on Node 22, one process each (BENCH_PROCESSES): the service as a
 *    production process (`npm start`'s: node dist/bundle/main.js) with its rate limit ON, buckets sized not to
 *    refuse (BENCH_RATE_LIMIT_*: the default bucket size, so leases are as large as a deployment's,
 *    and a refill no load reaches); PostGraphile over the same tables; the bare handler. Records the
 *    start-up-to-ready time and RSS (at ready, idle after the warm-up, the most under load) of the
 *    service and of PostGraphile. A 429 anywhere fails the run (reported, after the table).
 * 3. Counts SQL statements per request: a second instance of each, connected through a counting
 *    proxy in this process, answers each scenario a few times; the proxy counts the statements the
 *    wire carries (simple Query and extended-protocol Execute messages: BEGIN and COMMIT included),
 *    whatever code sends them. The least of 5 requests (background work of the service, e.g. the
 *    webhook worker's poll, may fall into one).
 * 4. Checks the replies: the bare handler's JSON has the service's shape; the rows PostGraphile
 *    answers (its twin of S1, S2, S3, S5: scenarios.ts) are the service's rows, value for value.
 * 5. Drives every scenario for BENCH_DURATION seconds with BENCH_CONNECTIONS connections, the
 *    targets interleaved (the order rotates each round; PostGraphile only where it has a twin),
 *    BENCH_ROUNDS rounds; reports the median requests/s, and the p50/p99 latency of the median round.
 * 6. Prints the table and the machine; writes the same as JSON to .bench/results-<time>.json.
 *
 * Environment: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/lp_bench), BENCH_DURATION (10),
 * BENCH_CONNECTIONS (10), BENCH_ROUNDS (3), BENCH_WARMUP seconds per scenario and target (2),
 * BENCH_POOL registrations for createEnrollment (50000), BENCH_SCENARIOS (comma-separated keys, all),
 * BENCH_KEEP=1 keeps the database, BENCH_SKIP_BUILD=1 runs the dist/ already built,
 * BENCH_SERVICE_NODE_ARGS node flags for the service (`--cpu-prof --cpu-prof-dir=.bench/profiles`),
 * BENCH_PROCESSES processes of each target behind its port (1; the service's WEB_CONCURRENCY, and the
 * bare handler's and PostGraphile's the same way), RSS then the sum over a target's processes,
 * BENCH_RATE_LIMIT_CAPACITY (the service's default, 300) and BENCH_RATE_LIMIT_REFILL per second
 * (1000000) of the service's buckets, BENCH_CACHE_DIR (`${XDG_CACHE_HOME:-~/.cache}/learning-platform-bench`).
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
import { freePort, serviceEnv, serviceEntry, serviceNodeArgs } from './ports.js';
import { cacheDir, node22, postgraphileServer } from './peer.js';
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
  /**
   * The service's rate limit, on: the default bucket size (a lease is a tenth of it, as deployed)
   * and a refill no load reaches, for credentials and addresses alike, so nothing is refused.
   */
  rateLimit: {
    ...(process.env.BENCH_RATE_LIMIT_CAPACITY ? { RATE_LIMIT_CAPACITY: process.env.BENCH_RATE_LIMIT_CAPACITY } : {}),
    RATE_LIMIT_REFILL_PER_SECOND: process.env.BENCH_RATE_LIMIT_REFILL || '1000000',
    ...(process.env.BENCH_RATE_LIMIT_CAPACITY ? { RATE_LIMIT_ANONYMOUS_CAPACITY: process.env.BENCH_RATE_LIMIT_CAPACITY } : {}),
    RATE_LIMIT_ANONYMOUS_REFILL_PER_SECOND: process.env.BENCH_RATE_LIMIT_REFILL || '1000000',
  } as Record<string, string>,
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
    // npm start's build (tsc -b, then the files the code reads at run time copied beside it: the mails' templates).
    const result = spawnSync(process.execPath, ['src/tools/build.mjs'], { cwd: root, encoding: 'utf8' });
    if (result.status === 0) return log(`build: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    log(`build failed (attempt ${attempt}):\n${(result.stdout + result.stderr).split('\n').slice(-15).join('\n')}`);
    if (attempt >= 3) throw new Error('the build (src/tools/build.mjs) failed');
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


type Name = 'service' | 'postgraphile' | 'bare';
const names: Name[] = ['service', 'postgraphile', 'bare'];

interface Target {
  name: Name;
  process: ChildProcess;
  url: string;
  readyMs: number;
  output: string[];
}

const children = new Set<ChildProcess>();

/** What the targets run on: Node 22 and PostGraphile's server, fetched in main(). */
const runtime = { node: process.execPath, postgraphileScript: '' };

/** Ready: the service and the bare handler answer /readyz; PostGraphile answers `{ __typename }` (its schema built). */
async function ready(name: Name, url: string): Promise<boolean> {
  const res =
    name === 'postgraphile'
      ? await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })
      : await fetch(`${url}/readyz`);
  await res.arrayBuffer();
  return res.status === 200;
}

async function start(name: Name, databaseUrl: string, secretsKey: string): Promise<Target> {
  const port = await freePort();
  const env = serviceEnv(databaseUrl, port, secretsKey, settings.processes, name === 'service' ? settings.rateLimit : undefined);
  const [args, cwd] =
    name === 'service'
      ? [[...settings.serviceNodeArgs, serviceEntry()], root]
      : name === 'bare'
        ? [['--import', 'tsx', 'test/bench/bare.ts'], root]
        : [[runtime.postgraphileScript], join(cacheDir, 'postgraphile-5')];
  const started = performance.now();
  const child = spawn(runtime.node, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
      if (await ready(name, url)) break;
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

/** The request a target is sent for a scenario: PostGraphile its twin's. */
function requestFor(target: Target, scenario: Scenario): Request {
  return target.name === 'postgraphile' ? scenario.twin!.next() : scenario.next();
}

/** The scenarios a target answers: PostGraphile those with a twin. */
function answers(target: Target | Name, scenario: Scenario): boolean {
  return (typeof target === 'string' ? target : target.name) !== 'postgraphile' || !!scenario.twin;
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
  for (const scenario of list.filter((s) => answers(target, s))) {
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = counter.statements;
      const res = await send(target, tokens, requestFor(target, scenario));
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
interface Bytes {
  service: number;
  bare: number;
  sameShape: boolean;
  /** PostGraphile's reply (its twin), and whether its rows are the service's and the bare handler's. */
  postgraphile: number | null;
  sameRows: boolean | null;
  /** The rows each reply holds (rowCount). */
  rows: number | null;
}

/** How many rows a reading of a reply holds: its arrays that start with an id, deeply (S3: the school, 10 products, 100 courses, 200 modules, 1,000 lessons). */
function rowCount(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  return (typeof value[0] === 'number' ? 1 : 0) + value.reduce((n: number, v) => n + rowCount(v), 0);
}

async function compareShapes(targets: Record<Name, Target>, tokens: Tokens, list: Scenario[]): Promise<Record<string, Bytes>> {
  const { service, bare, postgraphile } = targets;
  const result: Record<string, Bytes> = {};
  for (const scenario of list) {
    const request = scenario.next();
    const res = await send(service, tokens, request);
    const a = await res.text();
    // The limit is on: every limited reply carries its bucket's size.
    if (!res.headers.get('ratelimit-limit')) throw new Error(`${scenario.key}: the service's reply has no RateLimit-Limit header: its rate limit is off`);
    const b = await (await send(bare, tokens, scenario.fresh ? scenario.next() : request)).text();
    const parsed = [JSON.parse(a), JSON.parse(b)];
    if (scenario.graphql) for (const reply of parsed) delete reply.extensions;
    const diff = differences(shape(parsed[0]), shape(parsed[1]));
    result[scenario.key] = { service: Buffer.byteLength(a), bare: Buffer.byteLength(b), sameShape: diff.length === 0, postgraphile: null, sameRows: null, rows: null };
    if (diff.length) log(`! ${scenario.key}: the bare reply's shape differs from the service's:\n  ${diff.slice(0, 20).join('\n  ')}`);
    if (scenario.twin) {
      const pgRes = await send(postgraphile, tokens, scenario.twin.next());
      const c = await pgRes.text();
      if (failed(scenario, pgRes.status, c)) throw new Error(`postgraphile ${scenario.key}: HTTP ${pgRes.status} ${c.slice(0, 500)}`);
      const rows = [scenario.twin.rows(parsed[0]), scenario.twin.rows(parsed[1]), scenario.twin.peerRows(JSON.parse(c))].map((r) => JSON.stringify(r));
      const same = rows[0] === rows[2] && rows[1] === rows[2];
      Object.assign(result[scenario.key], { postgraphile: Buffer.byteLength(c), sameRows: same, rows: rowCount(JSON.parse(rows[2])) });
      if (!same)
        log(`! ${scenario.key}: the rows differ:\n  service      ${rows[0].slice(0, 300)}\n  bare         ${rows[1].slice(0, 300)}\n  postgraphile ${rows[2].slice(0, 300)}`);
    }
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
  /** Replies 429 (Too Many Requests): none may occur. */
  refused: number;
}

async function drive(target: Target, tokens: Tokens, scenario: Scenario, seconds: number): Promise<Run> {
  const first = requestFor(target, scenario);
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
    // verifyBody sees every reply: a GraphQL reply that is not 2xx (a 429 among them) carries errors, so it is a mismatch too.
    const bad2xx = Math.max(0, (result.mismatches || 0) - (scenario.graphql ? result.non2xx : 0));
    return {
      rps: (result['2xx'] - bad2xx) / result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors + result.timeouts + bad2xx,
      rssMaxMb: rssMax,
      refused: result.statusCodeStats?.['429']?.count ?? 0,
    };
  } finally {
    clearInterval(sampler);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  statements: number | null;
  rssMaxMb: number | null;
  failures: number;
  refused: number;
  rounds: number[];
}

interface Row {
  key: string;
  title: string;
  service: Figures;
  /** Null where PostGraphile has no twin (REST, writes). */
  postgraphile: Figures | null;
  bare: Figures;
  /** service / bare */
  ratio: number;
  /** service / PostGraphile */
  ratioPostgraphile: number | null;
  bytes: Bytes | null;
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
    refused: runs.reduce((n, r) => n + r.refused, 0),
    rounds: rps.map((v) => Math.round(v)),
  };
}

function table(rows: Row[]): string {
  const n = (v: number) => Math.round(v).toLocaleString('en');
  const lines = [
    '| scenario | service req/s | PostGraphile req/s | bare req/s | service/PostGraphile | service/bare | p50 / p99 ms: service, PostGraphile, bare | statements/request: service, PostGraphile, bare | service RSS max MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const pg = r.postgraphile;
    const failures =
      r.service.failures || r.bare.failures || pg?.failures ? ` ⚠ failures: service ${r.service.failures}, PostGraphile ${pg?.failures ?? '—'}, bare ${r.bare.failures}` : '';
    const refused = r.service.refused ? ` ⚠ ${r.service.refused} refused (429)` : '';
    lines.push(
      `| ${r.title}${failures}${refused} | ${n(r.service.rps)} | ${pg ? n(pg.rps) : '—'} | ${n(r.bare.rps)} | ${r.ratioPostgraphile?.toFixed(2) ?? '—'} | ${r.ratio.toFixed(2)} | ` +
        `${r.service.p50} / ${r.service.p99}, ${pg ? `${pg.p50} / ${pg.p99}` : '—'}, ${r.bare.p50} / ${r.bare.p99} | ` +
        `${r.service.statements ?? 'n/a'}, ${pg ? (pg.statements ?? 'n/a') : '—'}, ${r.bare.statements ?? 'n/a'} | ${r.service.rssMaxMb?.toFixed(0) ?? 'n/a'} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const startedAt = new Date();
  build();
  // What the targets run on, fetched outside the repository (test/bench/peer.ts) before the database is made.
  const node = node22();
  runtime.node = node.path;
  log(`targets on Node ${node.version} (${node.path === process.execPath ? 'this process’s' : node.path})`);
  let postgraphileVersions: Record<string, string>;
  try {
    const installed = postgraphileServer();
    runtime.postgraphileScript = installed.script;
    postgraphileVersions = installed.versions;
  } catch (error) {
    throw new Error(`PostGraphile v5 could not be installed into ${join(cacheDir, 'postgraphile-5')}: ${(error as Error).message}`);
  }
  log(`postgraphile: ${Object.entries(postgraphileVersions).map(([k, v]) => `${k} ${v}`).join(', ')}`);
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

  // Statements per request: an instance of each behind the counting proxy.
  const counter = await countingProxy(settings.databaseUrl);
  const counted: Record<Name, Record<string, number>> = { service: {}, postgraphile: {}, bare: {} };
  for (const name of names) {
    if (!list.some((s) => answers(name, s))) continue;
    const target = await start(name, counter.url, secretsKey);
    try {
      counted[name] = await countStatements(target, counter, tokens, list);
    } finally {
      await stop(target);
    }
  }
  await counter.close();
  log(`statements per request (service, PostGraphile, bare): ${list.map((s) => `${s.key} ${counted.service[s.key]}, ${counted.postgraphile[s.key] ?? '—'}, ${counted.bare[s.key]}`).join('; ')}`);

  // The measured targets, one after another so that each start-up is timed alone.
  const targets = {} as Record<Name, Target>;
  const rssReadyMb = {} as Record<Name, number | null>;
  for (const name of names) {
    targets[name] = await start(name, settings.databaseUrl, secretsKey);
    rssReadyMb[name] = rssMb(targets[name].process.pid);
  }
  log(names.map((n) => `${n} ready in ${targets[n].readyMs.toFixed(0)} ms (RSS ${rssReadyMb[n]?.toFixed(0)} MB)`).join('; '));
  const bytes = await compareShapes(targets, tokens, list);
  for (const [key, b] of Object.entries(bytes))
    if (b.sameRows !== null) log(`${key}: ${b.rows} rows; reply bytes service ${b.service}, PostGraphile ${b.postgraphile}, bare ${b.bare}; rows ${b.sameRows ? 'equal' : 'DIFFER'}`);

  const runs: Record<string, Record<Name, Run[]>> = Object.fromEntries(list.map((s) => [s.key, { service: [], postgraphile: [], bare: [] }]));
  const rssIdleMb = {} as Record<Name, number | null>;
  try {
    if (settings.warmup > 0) {
      log(`warm-up: ${settings.warmup} s per scenario and target`);
      for (const scenario of list) for (const name of names) if (answers(name, scenario)) await drive(targets[name], tokens, scenario, settings.warmup);
      await sleep(1000);
    }
    for (const name of names) rssIdleMb[name] = rssMb(targets[name].process.pid);
    for (let round = 1; round <= settings.rounds; round++) {
      for (const scenario of list) {
        // The order rotates each round: each target goes first, second and third in turn.
        const order = names.map((_, i) => names[(i + round - 1) % names.length]).filter((name) => answers(name, scenario));
        for (const name of order) {
          const run = await drive(targets[name], tokens, scenario, settings.duration);
          runs[scenario.key][name].push(run);
          log(
            `round ${round} ${scenario.key.padEnd(8)} ${name.padEnd(12)} ${Math.round(run.rps).toString().padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms${run.failures ? `  FAILURES ${run.failures}` : ''}${run.refused ? `  REFUSED (429) ${run.refused}` : ''}`,
          );
        }
      }
    }
  } finally {
    for (const name of names) await stop(targets[name]);
  }

  const rows: Row[] = list.map((scenario) => {
    const figures = (name: Name): Figures => ({ ...summarise(runs[scenario.key][name]), statements: counted[name][scenario.key] ?? null });
    const s = figures('service');
    const p = scenario.twin ? figures('postgraphile') : null;
    const b = figures('bare');
    return {
      key: scenario.key,
      title: scenario.title,
      service: s,
      postgraphile: p,
      bare: b,
      ratio: b.rps ? s.rps / b.rps : 0,
      ratioPostgraphile: p?.rps ? s.rps / p.rps : null,
      bytes: bytes[scenario.key] ?? null,
    };
  });
  const memory = (name: Name) => {
    const loaded = Math.max(...rows.map((r) => (name === 'service' ? r.service : r.postgraphile)?.rssMaxMb ?? 0));
    return {
      startupToReadyMs: Math.round(targets[name].readyMs),
      rssReadyMb: rssReadyMb[name] && Math.round(rssReadyMb[name]),
      rssIdleMb: rssIdleMb[name] && Math.round(rssIdleMb[name]),
      rssUnderLoadMaxMb: loaded ? Math.round(loaded) : null,
    };
  };
  const machine = {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: node.version,
    postgres: postgresVersion,
    loadAverageAtStart: loadavg().map((v) => Number(v.toFixed(2))),
  };
  const refused = rows.reduce((n, r) => n + r.service.refused + r.bare.refused + (r.postgraphile?.refused ?? 0), 0);
  const report = {
    startedAt: startedAt.toISOString(),
    settings: {
      processes: settings.processes,
      duration: settings.duration,
      connections: settings.connections,
      rounds: settings.rounds,
      warmup: settings.warmup,
      database: databaseName,
      serviceRateLimit: { enabled: true, ...settings.rateLimit },
    },
    machine,
    seedSeconds: Number(seedSeconds.toFixed(1)),
    dataSet: fixture.counts,
    service: memory('service'),
    postgraphile: { ...memory('postgraphile'), versions: postgraphileVersions, preset: 'postgraphile/presets/amber + @graphile/simplify-inflection, PgIndexBehaviorsPlugin disabled' },
    refused,
    statementsMethod: 'PostgreSQL wire messages (Query + Execute, BEGIN/COMMIT included) through a counting proxy; least of 5 requests',
    scenarios: rows,
  };

  const line = (label: string, m: ReturnType<typeof memory>) =>
    `${label}: start-up to ready ${m.startupToReadyMs} ms; RSS ${m.rssReadyMb} MB at ready, ${m.rssIdleMb} MB idle after warm-up, ${m.rssUnderLoadMaxMb ?? 'n/a'} MB max under load.`;
  console.log(`\n${table(rows)}\n`);
  console.log(line('Service', report.service) + ` Rate limit on (${settings.rateLimit.RATE_LIMIT_CAPACITY ? '' : 'buckets of the default size, '}${Object.entries(settings.rateLimit).map(([k, v]) => `${k}=${v}`).join(', ')}); ${refused} refused (429).`);
  console.log(line(`PostGraphile ${postgraphileVersions.postgraphile}`, report.postgraphile) + ' Amber preset, simplified inflection, no authentication.');
  console.log(
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB; targets on Node ${machine.node}; PostgreSQL ${machine.postgres}; load average at start ${machine.loadAverageAtStart.join(' ')}.`,
  );
  console.log(
    `Settings: ${settings.processes} process(es) per target, ${settings.duration} s × ${settings.connections} connections, ${settings.rounds} round(s) interleaved, median requests/s (p50/p99 of the median round); seeded in ${report.seedSeconds} s.`,
  );
  mkdirSync(join(root, '.bench'), { recursive: true });
  const file = join(root, '.bench', `results-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(`Results: ${file}`);
  const differing = Object.entries(bytes).filter(([, b]) => b.sameRows === false);
  if (differing.length) throw new Error(`PostGraphile's rows are not the service's: ${differing.map(([k]) => k).join(', ')} (see above)`);
  if (refused) throw new Error(`${refused} requests were refused (429): the rate limit's buckets were too small for this load (BENCH_RATE_LIMIT_REFILL)`);
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
