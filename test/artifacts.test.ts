import 'reflect-metadata';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/client.js';
import { artifactPath, artifacts } from '../src/tools/artifacts.js';

// Every table module, as drizzle.config.ts names them for drizzle-kit.
const tableModules = import.meta.glob<Record<string, unknown>>(
  ['../src/db/*.table.ts', '../src/auth/*.table.ts', '../src/modules/**/*.table.ts', '../src/http/*.table.ts'],
  { eager: true },
);

describe('generated artifacts', () => {
  for (const [name, { file, render }] of Object.entries(artifacts)) {
    it(`${file} is what the code generates (${name})`, async () => {
      const committed = existsSync(artifactPath(file)) ? readFileSync(artifactPath(file), 'utf8') : '';
      const current = await render();
      expect(committed, `${file} is stale: run \`npm run schema:write\` and commit it`).toBe(current);
    });
  }

  it('the committed migrations create the tables the code defines', async () => {
    const snapshot = newestSnapshot();
    // Keyed by module and export name, so two modules' exports of one name both count.
    const exports: Record<string, unknown> = {};
    for (const [path, module] of Object.entries(tableModules))
      for (const [key, value] of Object.entries(module)) exports[`${path}#${key}`] = value;
    const current = generateDrizzleJson(exports, snapshot.id, undefined, 'snake_case');
    const ambiguous = renameCandidates(snapshot, current);
    // drizzle-kit would ask whether these were renamed: there is no answering that here.
    expect(ambiguous, `the tables changed since the last migration (${ambiguous.join('; ')}): run \`npm run db:generate\``).toEqual([]);
    const statements = await generateMigration(snapshot, current);
    expect(statements, 'the tables changed since the last migration: run `npm run db:generate` and commit schema/migrations').toEqual([]);
  });

  // Families land one issue at a time: a family (`schools.*`) is either absent or has every route.
  // test/spec-routes.tsv is a copy of the interface specification's route list, kept here so a clone alone runs every test.
  it('the OpenAPI document names every route of each family of the spec it serves', async () => {
    const specFile = artifactPath('test/spec-routes.tsv');
    // `/v1/x/:id/`, `/x/{id}?find_by=code` → `/x/{}`: any parameter name, the /v1 every path answers under.
    const norm = (path: string) =>
      path.split('?')[0].replace(/^\/v1(?=\/)/, '').replace(/:[A-Za-z_]\w*|\{[^}]+\}/g, '{}').replace(/\/+$/, '') || '/';
    const document = JSON.parse(await artifacts.openapi.render()) as { paths: Record<string, Record<string, unknown>> };
    const named = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${norm(path)}`)),
    );
    const rows = readFileSync(specFile, 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
    const served = (method: string, path: string) => named.has(`${method} ${norm(path)}`);
    const family = (operation: string) => operation.split('.')[0];
    const started = new Set(rows.filter(([method, path]) => served(method, path)).map(([, , operation]) => family(operation)));
    expect(started.size, 'no family of the spec is served').toBeGreaterThan(0);
    const missing = [
      ...new Set(rows.filter(([method, path, operation]) => started.has(family(operation)) && !served(method, path)).map(([method, path]) => `${method} ${path}`)),
    ];
    expect(missing, `routes of the families ${[...started].join(', ')} missing from the OpenAPI document`).toEqual([]);
  });
});

type Snapshot = Parameters<typeof generateMigration>[0];

/** The snapshot of the newest migration in the journal (drizzle-kit names them `<idx>_snapshot.json`). */
function newestSnapshot(): Snapshot {
  const meta = join(migrationsFolder, 'meta');
  const journal = JSON.parse(readFileSync(join(meta, '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
  const idx = Math.max(...journal.entries.map((e) => e.idx));
  const file = readdirSync(meta).find((f) => f === `${String(idx).padStart(4, '0')}_snapshot.json`);
  if (!file) throw new Error(`schema/migrations/meta has no snapshot for migration ${idx}`);
  return JSON.parse(readFileSync(join(meta, file), 'utf8')) as Snapshot;
}

/**
 * Where drizzle-kit's diff would stop to ask "created or renamed?": a collection that both lost
 * and gained names (tables, enums, columns of one table, ...). Named here instead of prompting.
 */
function renameCandidates(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  const compare = (what: string, a: Record<string, unknown> = {}, b: Record<string, unknown> = {}) => {
    const gone = Object.keys(a).filter((k) => !(k in b));
    const added = Object.keys(b).filter((k) => !(k in a));
    if (gone.length && added.length) out.push(`${what}: ${gone.join(', ')} gone, ${added.join(', ')} added`);
  };
  const collections = ['tables', 'enums', 'schemas', 'sequences', 'roles', 'policies', 'views'] as const;
  const record = (s: Snapshot, k: string) => (s as unknown as Record<string, Record<string, any>>)[k];
  for (const c of collections) compare(c, record(before, c), record(after, c));
  for (const [name, table] of Object.entries(record(after, 'tables') ?? {})) {
    const old = record(before, 'tables')?.[name];
    if (!old) continue;
    compare(`columns of ${name}`, old.columns, table.columns);
    compare(`policies of ${name}`, old.policies, table.policies);
  }
  return out;
}
