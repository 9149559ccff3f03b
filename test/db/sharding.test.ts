import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { REFERENCE_TABLES } from '../../src/db/sharding.js';
import { type Service, startService } from '../support/service.js';

// Ready to shard by school (issue 32): Citus hash-distributes the school-owned tables on school_id, co-located,
// and copies the reference tables to every node. It cannot run here, so this reads the migrated catalog for
// what Citus would refuse: a key without the distribution column, a foreign key across shards, a reference
// table pointing into a distributed one.

const DISTRIBUTION_COLUMN = 'school_id';

interface Table {
  name: string;
  /** school_id, NOT NULL: the row's shard is known (unless the table is a listed reference table). */
  schoolId: boolean;
}
interface Key {
  table: string;
  name: string;
  columns: string[];
}
interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  /** ON DELETE SET NULL with no column list: it would empty every column of the key, school_id too. */
  setsAllNull: boolean;
}

/** The tables of the service's schema (drizzle's bookkeeping lives in its own schema, `drizzle`, and is not sharded). */
async function tables(service: Service): Promise<Table[]> {
  const result = await service.db.execute(sql`
    select c.relname as name,
           exists (select from pg_attribute a where a.attrelid = c.oid and a.attname = ${DISTRIBUTION_COLUMN}
                     and a.attnotnull and not a.attisdropped) as school_id
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
     order by 1`);
  return rowsOf<{ name: string; school_id: boolean }>(result).map((r) => ({ name: r.name, schoolId: r.school_id }));
}

/** Every primary key, unique constraint and unique index (a column of an expression index counts when the expression names it). */
async function uniqueKeys(service: Service): Promise<Key[]> {
  const result = await service.db.execute(sql`
    select c.relname as table, i.relname as name,
           array(select a.attname::text from pg_attribute a
                  where a.attrelid = c.oid and a.attnum > 0
                    and (a.attnum = any(x.indkey::int2[])
                         or pg_get_expr(x.indexprs, c.oid) ~ ('\\m' || a.attname || '\\M'))
                  order by a.attnum) as columns
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class c on c.oid = x.indrelid
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and x.indisunique
     order by 1, 2`);
  return rowsOf<Key>(result);
}

async function foreignKeys(service: Service): Promise<ForeignKey[]> {
  const result = await service.db.execute(sql`
    select c.relname as table, k.conname as name, f.relname as "references",
           array(select a.attname::text from unnest(k.conkey) with ordinality u(n, i)
                   join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.i) as columns,
           array(select a.attname::text from unnest(k.confkey) with ordinality u(n, i)
                   join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.i) as "referencedColumns",
           k.confdeltype = 'n' and k.confdelsetcols is null as "setsAllNull"
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class f on f.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and k.contype = 'f'
     order by 1, 2`);
  return rowsOf<ForeignKey>(result);
}

/** What Citus would refuse in the catalog as it is, one line each (none: ready). */
async function shardingViolations(service: Service, reference: readonly string[] = Object.keys(REFERENCE_TABLES)): Promise<string[]> {
  const all = await tables(service);
  const referenceSet = new Set(reference);
  const owned = new Set(all.filter((t) => t.schoolId && !referenceSet.has(t.name)).map((t) => t.name));
  const violations: string[] = [];
  for (const t of all) {
    if (!owned.has(t.name) && !referenceSet.has(t.name)) {
      violations.push(`${t.name}: neither school-owned (${DISTRIBUTION_COLUMN} NOT NULL) nor a reference table (src/db/sharding.ts)`);
    }
  }
  for (const name of referenceSet) if (!all.some((t) => t.name === name)) violations.push(`${name}: listed as a reference table, no such table`);
  for (const key of await uniqueKeys(service)) {
    if (owned.has(key.table) && !key.columns.includes(DISTRIBUTION_COLUMN)) {
      violations.push(`${key.table}: unique ${key.name} (${key.columns.join(', ')}) lacks ${DISTRIBUTION_COLUMN}`);
    }
  }
  for (const fk of await foreignKeys(service)) {
    if (owned.has(fk.table) && owned.has(fk.references)) {
      const i = fk.columns.indexOf(DISTRIBUTION_COLUMN);
      if (i === -1 || fk.referencedColumns[i] !== DISTRIBUTION_COLUMN) {
        violations.push(`${fk.table}: foreign key ${fk.name} (${fk.columns.join(', ')}) → ${fk.references} (${fk.referencedColumns.join(', ')}) does not match ${DISTRIBUTION_COLUMN} on both sides`);
      } else if (fk.setsAllNull) {
        violations.push(`${fk.table}: foreign key ${fk.name} is ON DELETE SET NULL of every column, ${DISTRIBUTION_COLUMN} too (write SET NULL (x_id))`);
      }
    }
    if (!owned.has(fk.table) && owned.has(fk.references)) {
      violations.push(`${fk.table}: reference table's foreign key ${fk.name} → ${fk.references}, a school-owned table`);
    }
  }
  return violations;
}

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

describe('the schema, ready to shard by school (Citus)', () => {
  it('given the README, then its sharding section names every reference table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('\n### Sharding by school (Citus)\n');
    expect(start).toBeGreaterThan(0);
    const rest = readme.slice(start + 1);
    const section = rest.slice(0, rest.slice(4).search(/\n#{2,3} /) + 4);
    for (const name of Object.keys(REFERENCE_TABLES)) expect(section).toContain(`\`${name}\``);
  });

  it('given the migrated catalog, then every table is school-owned or a listed reference table, every key of a school-owned table holds school_id, and every foreign key stays within one school', async () => {
    expect(await shardingViolations(service)).toEqual([]);
  });

  it('given a row whose optional reference is deleted, then only that reference is emptied (SET NULL (x_id)), its school kept', async () => {
    const school = await service.school('Sharded');
    const [module] = rowsOf<{ id: number }>(await service.db.execute(sql`insert into course_modules (school_id, name) values (${school.id}, 'M') returning id`));
    const [medium] = rowsOf<{ id: number }>(await service.db.execute(sql`insert into media (school_id, title) values (${school.id}, 'T') returning id`));
    const [lesson] = rowsOf<{ id: number }>(
      await service.db.execute(sql`insert into lessons (school_id, course_module_id, title, type, media_id) values (${school.id}, ${module.id}, 'L', 'Video', ${medium.id}) returning id`),
    );
    await service.db.execute(sql`delete from media where id = ${medium.id}`);
    const [row] = rowsOf<{ school_id: number; media_id: number | null }>(await service.db.execute(sql`select school_id, media_id from lessons where id = ${lesson.id}`));
    expect(row).toEqual({ school_id: school.id, media_id: null });
  });

  it('given new tables of each kind Citus would refuse, then the check names each', async () => {
    // One statement each: the PostgreSQL driver prepares what it sends.
    for (const statement of [
      'create table shard_probe_unclassified (id int primary key)',
      'create table shard_probe_parent (id int, school_id int not null references schools(id), code text unique, primary key (id, school_id))',
      'create table shard_probe_child (id int, school_id int not null, parent_code text references shard_probe_parent(code), primary key (id, school_id))',
      'create table shard_probe_reference (id int primary key, parent_id int, school_id int, foreign key (parent_id, school_id) references shard_probe_parent(id, school_id))',
      'create table shard_probe_nulled (id int, school_id int not null, parent_id int, primary key (id, school_id), foreign key (school_id, parent_id) references shard_probe_parent(school_id, id) on delete set null)',
    ]) {
      await service.db.execute(sql.raw(statement));
    }
    try {
      const violations = await shardingViolations(service, [...Object.keys(REFERENCE_TABLES), 'shard_probe_reference']);
      expect(violations.filter((v) => v.startsWith('shard_probe'))).toEqual([
        'shard_probe_unclassified: neither school-owned (school_id NOT NULL) nor a reference table (src/db/sharding.ts)',
        'shard_probe_parent: unique shard_probe_parent_code_key (code) lacks school_id',
        'shard_probe_child: foreign key shard_probe_child_parent_code_fkey (parent_code) → shard_probe_parent (code) does not match school_id on both sides',
        'shard_probe_nulled: foreign key shard_probe_nulled_school_id_parent_id_fkey is ON DELETE SET NULL of every column, school_id too (write SET NULL (x_id))',
        "shard_probe_reference: reference table's foreign key shard_probe_reference_parent_id_school_id_fkey → shard_probe_parent, a school-owned table",
      ]);
    } finally {
      await service.db.execute(sql.raw('drop table shard_probe_nulled, shard_probe_reference, shard_probe_child, shard_probe_parent, shard_probe_unclassified'));
    }
  });
});
