import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { chooseSecretsKey } from '../../src/auth/secrets.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { apiTokens } from '../../src/auth/api-token.table.js';
import { schools } from '../../src/db/school.table.js';
import { Client, type Service, startService } from '../support/service.js';

// The token and seed commands as processes (src/tools/*.ts under tsx), as a newcomer meets them:
// --help and a flag they do not take, the database they write to named on every run, the service's
// own refusal of a missing SECRETS_KEY on PostgreSQL before anything is opened, a failed seed step
// with its cause and the ids a later run prints. Then what the compose set-up keeps (Docker itself
// does not run here: the files are checked, not the containers).
const root = join(import.meta.dirname, '..', '..');
const onPostgres = inject('testDatabase').kind === 'postgres';
const key = Buffer.alloc(32, 9).toString('base64');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lp-tools-'));
  dirs.push(dir);
  return dir;
};

let service: Service;
const others: Service[] = [];
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  for (const s of [service, ...others]) await s?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string[];
  stderr: string[];
}

/** Runs a command to its end. Not NODE_ENV=test: the tests' key fallback would hide the refusal. */
function command(script: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env: { PATH: process.env.PATH!, DATA_DIR: tempDir(), ...env } });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (b: Buffer) => (out.stdout += b));
  child.stderr.on('data', (b: Buffer) => (out.stderr += b));
  const lines = (text: string) => text.split('\n').filter(Boolean);
  return new Promise((done) => child.once('close', (code) => done({ code, stdout: lines(out.stdout), stderr: lines(out.stderr) })));
}
const token = (args: string[], env?: Record<string, string>) => command('src/tools/create-token.ts', args, env);
const seed = (env?: Record<string, string>) => command('src/tools/seed.ts', [], env);

/** PostgreSQL: this file's database; PGlite: nothing listens on port 1, so a run that opened it would say so. */
const postgresUrl = (password?: string) => {
  const url = new URL(service.databaseUrl ?? 'postgres://nobody@127.0.0.1:1/none');
  if (password) url.password = password;
  return url.toString();
};

describe('--help and flags the commands do not take', () => {
  it('given --help or -h, then a usage and exit 0; given an unknown flag, then one line and exit 2', async () => {
    const [tokenHelp, tokenH, seedHelp, seedH, tokenUnknown, seedUnknown] = await Promise.all([
      token(['--help']),
      token(['-h']),
      command('src/tools/seed.ts', ['--help']),
      command('src/tools/seed.ts', ['-h']),
      token(['--rol', 'admin']),
      command('src/tools/seed.ts', ['--fresh']),
    ]);
    for (const [ran, first] of [
      [tokenHelp, 'Usage: npm run token --'],
      [tokenH, 'Usage: npm run token --'],
      [seedHelp, 'Usage: npm run seed'],
      [seedH, 'Usage: npm run seed'],
    ] as const) {
      expect(ran.code, ran.stderr.join('\n')).toBe(0);
      expect(ran.stdout[0]).toMatch(new RegExp(`^${first.replace(/[-]/g, '\\-')}`));
      expect(ran.stderr).toEqual([]);
    }
    expect(tokenHelp.stdout.join('\n')).toMatch(/--role .*--school .*--user .*--label/s);
    expect(tokenUnknown).toEqual({ code: 2, stdout: [], stderr: ["Error: Unknown option '--rol' (--help shows the usage)"] });
    expect(seedUnknown).toEqual({ code: 2, stdout: [], stderr: ["Error: Unknown option '--fresh' (--help shows the usage)"] });
  }, 60_000);
});

describe('SECRETS_KEY on PostgreSQL', () => {
  it("given DATABASE_URL without SECRETS_KEY, then the token command, the seed and the service refuse with the service's one line, before opening the database", async () => {
    // The words of the one check (auth/secrets.ts), as the service prints a refused setting.
    let expected = '';
    try {
      chooseSecretsKey({ DATABASE_URL: 'postgres://x' });
    } catch (error) {
      expected = `Configuration error: ${(error as Error).message}`;
    }
    expect(expected).toMatch(/^Configuration error: SECRETS_KEY is required on PostgreSQL/);
    const env = { DATABASE_URL: postgresUrl() };
    const runs = await Promise.all([token(['--role', 'platform'], env), seed(env), command('src/main.ts', [], { ...env, PORT: '0' })]);
    for (const ran of runs) expect(ran).toEqual({ code: 1, stdout: [], stderr: [expected] });
    // On PGlite the URL names no server: a run that had tried it would have said it cannot be reached.
    // On PostgreSQL nothing was written, and no school id was used up: the first seed's school is 1.
    if (onPostgres) {
      expect(await service.db.select().from(apiTokens).where(ne(apiTokens.label, 'test'))).toEqual([]);
      expect(await service.db.select().from(schools)).toEqual([]);
      const seeded = await seed({ ...env, SECRETS_KEY: key });
      expect(seeded.code, seeded.stderr.join('\n')).toBe(0);
      expect(seeded.stdout).toContain('export SCHOOL=1   # the demo school');
    }
  }, 120_000);
});

describe('the database a command writes to, named on every run', () => {
  it('given no DATABASE_URL, then the token command names the embedded directory on stderr and prints the token alone on stdout', async () => {
    const dataDir = tempDir();
    const ran = await token(['--role', 'platform'], { DATA_DIR: dataDir });
    expect(ran.code, ran.stderr.join('\n')).toBe(0);
    expect(ran.stderr).toEqual([`Database: embedded (${dataDir})`]);
    expect(ran.stdout).toHaveLength(1);
    expect(ran.stdout[0]).toMatch(/^lp_platform_/);
    // Inside the working directory it is shown relative to it, as the README's ./.data.
    mkdirSync(join(root, '.test-cache'), { recursive: true });
    const inside = mkdtempSync(join(root, '.test-cache', 'tools-'));
    dirs.push(inside);
    const relativeRun = await token(['--role', 'platform'], { DATA_DIR: inside });
    expect(relativeRun.stderr).toEqual([`Database: embedded (./${relative(root, inside)})`]);
  }, 60_000);

  it('given DATABASE_URL with a password, then the URL is named without it, and the token is made there', async () => {
    const password = 'never-shown-9f3';
    const ran = await token(['--role', 'platform', '--label', 'named'], { DATABASE_URL: postgresUrl(password), SECRETS_KEY: key });
    const shown = new URL(postgresUrl());
    expect(ran.stderr[0]).toBe(`Database: PostgreSQL postgres://${shown.username}@${shown.host}${shown.pathname} (password hidden)`);
    expect([...ran.stdout, ...ran.stderr].join('\n')).not.toContain(password);
    if (!onPostgres) {
      // The service's own words for an unreachable database.
      expect(ran).toEqual({ code: 1, stdout: [], stderr: [ran.stderr[0], 'Configuration error: DATABASE_URL names a database that cannot be reached (ECONNREFUSED)'] });
      return;
    }
    expect(ran.code, ran.stderr.join('\n')).toBe(0);
    const reply = await service.client(ran.stdout[0]).graphql('{ schools(first: 1) { totalCount } }');
    expect(reply.errors).toBeUndefined();
  }, 60_000);
});

/** A database whose integrations table refuses every insert: the seed's "integration" step fails inside the service. */
async function refuseIntegrations(database: Database) {
  await database.db.execute(sql.raw(`create function refuse_integration() returns trigger language plpgsql as $$ begin raise exception 'integrations are refused here'; end $$`));
  await database.db.execute(sql.raw('create trigger refuse_integration before insert on integrations for each row execute function refuse_integration()'));
}
const allowIntegrations = (database: Database) => database.db.execute(sql.raw('drop trigger refuse_integration on integrations'));

/** A migrated embedded database in a directory of its own (from the suite's migrated dump), refusing integrations. */
async function embeddedDirectory(): Promise<string> {
  const dataDir = tempDir();
  const database = await openDatabase({ dataDir, loadDataDir: new Blob([readFileSync(inject('testDatabase').dumpFile!)]) });
  await refuseIntegrations(database);
  await database.close();
  return dataDir;
}

describe('a failed seed step', () => {
  it('in process: prints the cause the service logged, not INTERNAL_SERVER_ERROR; the next run prints the ids it made, and they work', async () => {
    // A database of its own that refuses integrations (a test above seeded this file's): on PostgreSQL a second service's, on PGlite a directory.
    const own = onPostgres ? await startService() : undefined;
    if (own) others.push(own);
    const dataDir = own ? '' : await embeddedDirectory();
    const env: Record<string, string> = own ? { DATABASE_URL: own.databaseUrl!, SECRETS_KEY: key } : { DATA_DIR: dataDir };
    /** Work on that database between the runs (PGlite's files are one process's at a time: opened only then). */
    const onDatabase = async <T>(work: (database: Database) => Promise<T>): Promise<T> => {
      if (own) return work(own.database);
      const database = await openDatabase({ dataDir });
      return work(database).finally(() => database.close());
    };
    if (own) await refuseIntegrations(own.database);

    const failed = await seed(env);
    expect(failed.code).toBe(1);
    expect(failed.stdout[0]).toMatch(/^Database: (PostgreSQL|embedded) /);
    expect(failed.stderr).toHaveLength(1);
    expect(failed.stderr[0]).toMatch(/^Error: seed failed at "integration": .*integrations are refused here.* \(the partial school \d+ was removed\)$/);
    expect(failed.stderr[0]).not.toContain('INTERNAL_SERVER_ERROR');
    await onDatabase(async (database) => {
      expect(await database.db.select().from(schools)).toEqual([]);
      await allowIntegrations(database);
    });

    // The failed run used up ids (sequences do not roll back): the seed prints the ones it made.
    const seeded = await seed(env);
    expect(seeded.code, seeded.stderr.join('\n')).toBe(0);
    const printed = Object.fromEntries([...seeded.stdout.join('\n').matchAll(/^export (\w+)=(\S+)/gm)].map((m) => [m[1], m[2]]));
    expect(Number(printed.SCHOOL)).toBeGreaterThan(1);
    const admin = await token(['--role', 'admin', '--school', printed.SCHOOL, '--user', printed.ADMIN_ID], env);
    expect(admin.code, admin.stderr.join('\n')).toBe(0);
    expect(admin.stdout[0]).toMatch(/^lp_admin_/);
    // The README's example with the printed enrollment: the student's lessons.
    await onDatabase(async (database) => {
      const app = await createApp({ database, rateLimit: { enabled: false } });
      try {
        const lessons = await new Client(app, printed.STUDENT).get(`/enrollments/${printed.ENROLLMENT}/lessons`);
        expect(lessons.status, lessons.text).toBe(200);
        expect(lessons.body.length).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
    });
  }, 240_000);

  // The embedded database's path only (a tool goes through a service that holds its files): the same on either run, so run once.
  it.skipIf(onPostgres)('through the service on the embedded database: names the request under which the service logged the cause', async () => {
    const dataDir = await embeddedDirectory();
    const service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { PATH: process.env.PATH!, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' },
    });
    let log = '';
    service.stdout.on('data', (b: Buffer) => (log += b));
    const exited = new Promise((done) => service.once('exit', done));
    try {
      for (let i = 0; i < 1200 && !log.includes('Development platform token'); i++) await new Promise((r) => setTimeout(r, 100));
      const url = /listening on (http:\/\/[^ "]+)/.exec(log)![1];
      const through = `Database: embedded (${dataDir}), through the service running at ${url} (pid ${service.pid})`;

      const made = await token(['--role', 'platform'], { DATA_DIR: dataDir });
      expect(made.code, made.stderr.join('\n')).toBe(0);
      expect(made.stderr).toEqual([through]);

      const failed = await seed({ DATA_DIR: dataDir });
      expect(failed.code).toBe(1);
      expect(failed.stdout[0]).toBe(through);
      const [, requestId] = /^Error: seed failed at "integration": INTERNAL_SERVER_ERROR: Internal server error \(the service logged the cause under request ([0-9a-f-]{36})\) \(the partial school \d+ was removed\)$/.exec(failed.stderr[0]) ?? [];
      expect(failed.stderr).toHaveLength(1);
      expect(requestId, failed.stderr[0]).toBeDefined();
      const logged = log.split('\n').filter((line) => line.includes(requestId) && line.includes('"level":50'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain('integrations are refused here');
    } finally {
      service.kill('SIGTERM');
      const killer = setTimeout(() => service.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    }
  }, 240_000);
});

describe('docker compose', () => {
  // Docker does not run in the test environment: the files that make the key last are checked.
  it('keeps SECRETS_KEY in a git-ignored .env that the service requires, and the README shows the token command under compose', () => {
    const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
    // Compose reads .env itself; `:?` stops `up` with the message when it is missing.
    expect(compose).toMatch(/^\s+SECRETS_KEY: \$\{SECRETS_KEY:\?[^}]*\.env[^}]*\}$/m);
    expect(spawnSync('git', ['check-ignore', '-q', '.env'], { cwd: root }).status).toBe(0);

    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain('echo "SECRETS_KEY=$(openssl rand -base64 32)" > .env');
    // The token command under compose: the compose file's service, and the built file of src/tools/create-token.ts.
    const [, serviceName, built] = /docker compose exec (\w+) node (\S+) --role platform/.exec(readme) ?? [];
    expect(compose).toMatch(new RegExp(`^  ${serviceName}:$`, 'm'));
    const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { outDir: string; rootDir: string } };
    expect(built).toBe(join(tsconfig.compilerOptions.outDir, relative(tsconfig.compilerOptions.rootDir, 'src/tools/create-token.ts')).replace(/\.ts$/, '.js'));
    // npm start runs the same built tree, bundled (src/tools/build.mjs: dist/src/main.js into dist/bundle/service.js, which dist/bundle/main.js imports), with its heap bounded (README, Export benchmark).
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start).toMatch(new RegExp(`^node (--[\\w-]+(=\\d+)? )*${join(tsconfig.compilerOptions.outDir, 'bundle/main.js')}$`));
    expect(readFileSync(join(root, 'src/tools/build.mjs'), 'utf8')).toContain(`entryPoints: { service: '${join(tsconfig.compilerOptions.outDir, 'src/main.js')}' }`);
  });
});
