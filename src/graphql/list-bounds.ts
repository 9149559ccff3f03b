import { getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.js';
import { databaseColumnName } from '../db/driver-adapter.js';
import { rowsOf } from '../db/rows.js';

/**
 * How many items a plain list field (a course's paths, a module's lessons) holds, from the
 * database's own statistics rather than a guess: the static cost (limits.ts) prices such a list at
 * the average number of children per parent, and a list that returns to a type already on its path
 * (course → paths → courses) at the largest, the most common parent's count, since that is the list
 * an attacker multiplies. PostgreSQL keeps the statistics (pg_stats, refreshed by autovacuum's
 * ANALYZE); the embedded database has no autovacuum, so there the refresh analyzes the tables itself.
 */
export interface ListBound {
  average: number;
  largest: number;
}

/** The table and parent column behind each list loader, by the loader's name (`course.paths` serves Course.paths). */
const listColumns = new Map<string, { table: string; column: string }>();

/** Called by the children and link loaders (loaders.ts) as they are defined. */
export function registerListColumn(loaderName: string, table: PgTable, parentColumn: PgColumn): void {
  listColumns.set(loaderName, { table: getTableName(table), column: databaseColumnName(parentColumn) });
}

/** `course.paths` → `Course.paths`: the field a loader of that name serves. */
const fieldOf = (loaderName: string) => loaderName.charAt(0).toUpperCase() + loaderName.slice(1);

type Statistic = { tablename: string; attname: string; n_distinct: number; most_common_freqs: number[] | string | null; reltuples: number };

/** The bounds of every registered list field from the statistics' rows; a field without statistics is left out. */
export function boundsFromStatistics(rows: readonly Statistic[]): Map<string, ListBound> {
  const byColumn = new Map(rows.map((r) => [`${r.tablename}.${r.attname}`, r]));
  const bounds = new Map<string, ListBound>();
  for (const [loaderName, { table, column }] of listColumns) {
    const stat = byColumn.get(`${table}.${column}`);
    const rows = Number(stat?.reltuples);
    if (!stat || !(rows > 0)) continue;
    const distinct = Number(stat.n_distinct) >= 0 ? Number(stat.n_distinct) : -Number(stat.n_distinct) * rows;
    if (!(distinct > 0)) continue;
    const frequencies = typeof stat.most_common_freqs === 'string' ? stat.most_common_freqs.replace(/[{}]/g, '').split(',').map(Number) : (stat.most_common_freqs ?? []);
    const average = rows / distinct;
    // Statistics are estimates (12.000001 rows are 12).
    bounds.set(fieldOf(loaderName), { average: Math.round(average), largest: Math.round(Math.max(average, (frequencies[0] ?? 0) * rows)) });
  }
  return bounds;
}

/**
 * One instance's copy of the bounds, refreshed every `refreshSeconds` (the statistics change slowly;
 * every instance reads the same ones from the database). `version` changes with each refresh, so
 * costs remembered per document are priced again.
 */
export class ListBounds {
  bounds = new Map<string, ListBound>();
  version = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    private readonly log: (error: unknown) => void,
  ) {}

  get(field: string): ListBound | undefined {
    return this.bounds.get(field);
  }

  /** Reads the statistics now (the embedded database analyzes its list tables first). */
  async refresh(): Promise<void> {
    const tables = [...new Set([...listColumns.values()].map((c) => c.table))];
    const { db } = this.database;
    if (this.database.driver === 'pglite') for (const table of tables) await db.execute(sql`analyze ${sql.identifier(table)}`);
    const result = await db.execute(sql`
      select s.tablename, s.attname, s.n_distinct, s.most_common_freqs::text as most_common_freqs, c.reltuples
      from pg_stats s join pg_class c on c.relname = s.tablename and c.relnamespace = to_regnamespace(s.schemaname)
      where s.schemaname = current_schema() and s.tablename = any(${`{${tables.join(',')}}`}::text[])`);
    this.bounds = boundsFromStatistics(rowsOf<Statistic>(result));
    this.version += 1;
  }

  /** Refreshes now and then every `refreshSeconds`; a failed refresh keeps the bounds it had. */
  start(refreshSeconds: number): Promise<void> {
    const refresh = () => this.refresh().catch(this.log);
    this.timer = setInterval(refresh, refreshSeconds * 1000);
    this.timer.unref();
    return refresh();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
