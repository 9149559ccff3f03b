import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.js';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  /** PGlite: a migrated data directory dump that every test file starts from. */
  dumpFile?: string;
  /** PostgreSQL: the server URL and a migrated template database copied per test file. */
  url?: string;
  template?: string;
  /**
   * PostgreSQL through a pooler in transaction mode (TEST_DATABASE_POOLER_URL, PgBouncer's address; `npm
   * run test:cluster` sets it): each file's service reaches its database there, without named statements,
   * with LISTEN and the migration's lock on `url` (DATABASE_LISTEN_URL).
   */
  poolerUrl?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabase;
  }
}

/** Migrates once for the whole run; each test file then gets a database of its own from the result. */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const base = new URL(url);
    const template = `${base.pathname.slice(1) || 'postgres'}_tmpl_${process.pid}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${template}"`);
    await admin.unsafe(`create database "${template}"`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const database = await openDatabase({ url: templateUrl.toString(), maxConnections: 1 });
    await database.migrate();
    await database.close();
    project.provide('testDatabase', { kind: 'postgres', url, template, poolerUrl: process.env.TEST_DATABASE_POOLER_URL || undefined });
    return async () => {
      // The workers' databases (test/support/service.ts: one a worker, emptied for each file) and any a file left, then the template.
      const workers = await admin.unsafe<{ name: string }[]>(`select datname as name from pg_database where starts_with(datname, $1)`, [`${template}_`]);
      for (const { name } of workers) await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.unsafe(`drop database if exists "${template}" with (force)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lp-test-'));
  const database = await openDatabase({ dataDir: 'memory://' });
  await database.migrate();
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const dumpFile = join(dir, 'migrated.tar');
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('testDatabase', { kind: 'pglite', dumpFile });
  return () => rmSync(dir, { recursive: true, force: true });
}
