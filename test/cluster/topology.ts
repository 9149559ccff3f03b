/**
 * A production-shaped deployment on this one machine (npm run test:cluster, npm run soak): a primary
 * PostgreSQL cluster and a streaming replica of it (pg_basebackup -R), PgBouncer in transaction mode
 * in front of the primary, three service instances behind HAProxy (health check: /readyz). Every
 * part lives under one temporary folder on ports of its own; stopNow() removes it all, synchronously,
 * so a finally block, a signal handler and process exit can all call it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { freePort, serviceEnv, serviceEntry, serviceNodeArgs } from '../bench/ports.js';

export const root = resolve(import.meta.dirname, '../..');
const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Debian's haproxy and pgbouncer, installed when missing; their own services are never left running. */
export function ensurePackages(): void {
  const missing = ['haproxy', 'pgbouncer'].filter((name) => !existsSync(`/usr/sbin/${name}`));
  if (missing.length === 0) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { env, stdio: 'ignore' });
  execFileSync('apt-get', ['install', '-y', '-q', ...missing], { env, stdio: 'ignore' });
  // The packages may start their services with the default configuration: this run uses its own.
  for (const name of missing) {
    try {
      execFileSync('service', [name, 'stop'], { stdio: 'ignore' });
      execFileSync('update-rc.d', [name, 'disable'], { stdio: 'ignore' });
    } catch {
      // no init system here: nothing was started
    }
  }
}

const postgresUser = () => ({ uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) });

export interface Instance {
  index: number;
  port: number;
  url: string;
  process: ChildProcess | null;
  log: string;
}

export interface TopologyOptions {
  instances?: number;
  /** Extra environment for every instance. */
  env?: Record<string, string>;
  /** DATABASE_READ_URL to the replica (on unless false). */
  readFromReplica?: boolean;
  /** DATABASE_URL straight to the primary instead of PgBouncer (to tell the pooler's part in a problem). */
  bypassPooler?: boolean;
}

export class Topology {
  readonly dir = mkdtempSync(join(tmpdir(), 'lp-cluster-'));
  readonly secretsKey = randomBytes(32).toString('base64');
  ports = { primary: 0, replica: 0, bouncer: 0, haproxy: 0 };
  instances: Instance[] = [];
  platformToken = '';
  private children = new Set<ChildProcess>();
  private bouncer: ChildProcess | null = null;
  private stopped = false;
  private readonly user = postgresUser();

  constructor(private readonly options: TopologyOptions = {}) {
    chownSync(this.dir, this.user.uid, this.user.gid);
  }

  get directUrl() {
    return `postgres://postgres@127.0.0.1:${this.ports.primary}/lp`;
  }
  get bouncerUrl() {
    return `postgres://postgres@127.0.0.1:${this.ports.bouncer}/lp`;
  }
  get replicaUrl() {
    return `postgres://postgres@127.0.0.1:${this.ports.replica}/lp`;
  }
  /** Where clients go: HAProxy. */
  get url() {
    return `http://127.0.0.1:${this.ports.haproxy}`;
  }

  private asPostgres(command: string, args: string[]) {
    return execFileSync(join(PG_BIN, command), args, { uid: this.user.uid, gid: this.user.gid, cwd: this.dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  }

  async start(): Promise<void> {
    ensurePackages();
    this.ports = { primary: await freePort(), replica: await freePort(), bouncer: await freePort(), haproxy: await freePort() };
    await this.startPrimary();
    await this.startReplica(true);
    await this.startBouncer();
    await this.migrateAndIssueToken();
    const count = this.options.instances ?? 3;
    for (let index = 0; index < count; index++) this.instances.push({ index, port: await freePort(), url: '', process: null, log: join(this.dir, `instance-${index}.log`) });
    for (const instance of this.instances) instance.url = `http://127.0.0.1:${instance.port}`;
    await Promise.all(this.instances.map((instance) => this.startInstance(instance.index)));
    await this.startHaproxy();
  }

  private async startPrimary() {
    const data = join(this.dir, 'primary');
    this.asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        `port = ${this.ports.primary}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${this.dir}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'max_replication_slots = 5',
        'max_connections = 200',
        'shared_buffers = 64MB',
        '',
      ].join('\n'),
    );
    this.asPostgres('pg_ctl', ['-D', data, '-l', join(this.dir, 'primary.log'), '-w', 'start']);
    const sql = postgres(`postgres://postgres@127.0.0.1:${this.ports.primary}/postgres`, { max: 1, onnotice: () => {} });
    try {
      await sql`create role replicator with replication login`;
      await sql`select pg_create_physical_replication_slot('replica1')`;
      await sql`create database lp`;
    } finally {
      await sql.end();
    }
  }

  /** The first time from a base backup of the primary (pg_basebackup -R: standby.signal and primary_conninfo); later, the same data directory again. */
  async startReplica(first = false) {
    const data = join(this.dir, 'replica');
    if (first) {
      this.asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(this.ports.primary), '-U', 'replicator', '-D', data, '-R', '-S', 'replica1', '-X', 'stream', '-c', 'fast']);
      appendFileSync(join(data, 'postgresql.conf'), `port = ${this.ports.replica}\nhot_standby = on\nhot_standby_feedback = on\n`);
    }
    this.asPostgres('pg_ctl', ['-D', data, '-l', join(this.dir, 'replica.log'), '-w', 'start']);
  }

  stopReplica() {
    this.asPostgres('pg_ctl', ['-D', join(this.dir, 'replica'), '-m', 'fast', '-w', 'stop']);
  }

  async startBouncer() {
    const config = join(this.dir, 'pgbouncer.ini');
    if (!existsSync(config)) {
      writeFileSync(join(this.dir, 'userlist.txt'), '"postgres" ""\n');
      writeFileSync(
        config,
        [
          '[databases]',
          `lp = host=127.0.0.1 port=${this.ports.primary} dbname=lp`,
          // Any other database by its own name: the suite's per-file databases (run.ts, the suite through the pooler).
          `* = host=127.0.0.1 port=${this.ports.primary}`,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${this.ports.bouncer}`,
          `unix_socket_dir =`,
          'auth_type = trust',
          `auth_file = ${join(this.dir, 'userlist.txt')}`,
          'pool_mode = transaction',
          'max_client_conn = 1000',
          'default_pool_size = 20',
          'ignore_startup_parameters = extra_float_digits',
          'admin_users = postgres',
          `logfile = ${join(this.dir, 'pgbouncer.log')}`,
          '',
        ].join('\n'),
      );
      chownSync(config, this.user.uid, this.user.gid);
    }
    const child = spawn('/usr/sbin/pgbouncer', [config], { uid: this.user.uid, gid: this.user.gid, stdio: 'ignore' });
    this.track(child);
    this.bouncer = child;
    await waitFor('PgBouncer', async () => {
      const sql = postgres(this.bouncerUrl, { max: 1, onnotice: () => {}, connect_timeout: 1 });
      try {
        await sql`select 1`;
        return true;
      } finally {
        await sql.end({ timeout: 1 });
      }
    });
  }

  /** A restart as an operator's would be: the process stops at once (SIGTERM: immediate shutdown), a new one starts on the same port. */
  async restartBouncer() {
    const old = this.bouncer;
    if (old && old.exitCode === null) {
      const exited = new Promise((done) => old.once('exit', done));
      old.kill('SIGTERM');
      await exited;
    }
    await this.startBouncer();
  }

  private async migrateAndIssueToken() {
    process.env.SECRETS_KEY = this.secretsKey;
    const { openDatabase } = await import('../../src/db/client.js');
    const { issueToken } = await import('../../src/auth/credential.js');
    const database = await openDatabase({ url: this.directUrl, maxConnections: 2 });
    try {
      await database.migrate();
      this.platformToken = await issueToken(database.db, { role: 'platform', label: 'cluster' });
    } finally {
      await database.close();
    }
  }

  instanceEnv(instance: Instance): NodeJS.ProcessEnv {
    return {
      ...serviceEnv(this.options.bypassPooler ? this.directUrl : this.bouncerUrl, instance.port, this.secretsKey),
      DATABASE_PREPARE: 'false',
      DATABASE_LISTEN_URL: this.directUrl,
      ...(this.options.readFromReplica === false ? {} : { DATABASE_READ_URL: this.replicaUrl }),
      DATABASE_POOL_SIZE: '5',
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
      TRUST_PROXY: '127.0.0.1',
      SHUTDOWN_TIMEOUT_MS: '3000',
      ...this.options.env,
    };
  }

  async startInstance(index: number) {
    const instance = this.instances[index];
    const out = openSync(instance.log, 'a');
    // With npm start's node flags (its bounded heap): the process a deployment runs; CLUSTER_NODE_ARGS replaces them.
    const child = spawn(process.execPath, [...serviceNodeArgs(process.env.CLUSTER_NODE_ARGS), serviceEntry()], { cwd: root, env: this.instanceEnv(instance), stdio: ['ignore', out, out] });
    closeSync(out);
    this.track(child);
    instance.process = child;
    await waitFor(`instance ${index}`, async () => {
      if (child.exitCode !== null) throw new Error(`instance ${index} exited with ${child.exitCode}:\n${readFileSync(instance.log, 'utf8').slice(-2000)}`);
      return (await fetch(`${instance.url}/readyz`)).status === 200;
    }, 60_000);
  }

  /** kill -9: requests in flight on it fail, nothing else may. */
  killInstance(index: number) {
    const child = this.instances[index].process;
    if (child?.pid && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  }

  private async startHaproxy() {
    const config = join(this.dir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 4000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  timeout tunnel 1h',
        // A connection refused by a dead instance is tried again on another (never a request that reached one).
        '  retries 3',
        '  option redispatch',
        'frontend web',
        `  bind 127.0.0.1:${this.ports.haproxy}`,
        '  default_backend service',
        'backend service',
        '  balance roundrobin',
        '  option httpchk GET /readyz',
        '  http-check expect status 200',
        '  default-server inter 250ms fall 2 rise 2',
        ...this.instances.map((i) => `  server s${i.index} 127.0.0.1:${i.port} check`),
        '',
      ].join('\n'),
    );
    const child = spawn('/usr/sbin/haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.track(child);
    await waitFor('HAProxy', async () => (await fetch(`${this.url}/readyz`)).status === 200);
  }

  private track(child: ChildProcess) {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
  }

  /** Everything stopped and the folder removed; synchronous, safe to call twice and from any handler. */
  stopNow(keepLogs = false) {
    if (this.stopped) return;
    this.stopped = true;
    for (const child of this.children) {
      try {
        if (child.pid) process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const cluster of ['replica', 'primary']) {
      const data = join(this.dir, cluster);
      if (!existsSync(join(data, 'postmaster.pid'))) continue;
      try {
        this.asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // not running
      }
    }
    if (keepLogs) {
      execFileSync('sh', ['-c', `mkdir -p ${root}/.test-cache/cluster-logs && cp ${this.dir}/*.log ${root}/.test-cache/cluster-logs/ 2>/dev/null || true`]);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000, everyMs = 100): Promise<number> {
  const started = performance.now();
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return performance.now() - started;
    } catch (error) {
      if (String((error as Error).message).includes('exited with')) throw error;
      last = error;
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${what} not ready after ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(everyMs);
  }
}

/** Stops the topology however the run ends: normally, by an exception, or by a signal. */
export function stopOnExit(topology: Topology) {
  const stop = () => topology.stopNow(true);
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  }
}
