import { asc, count, getTableColumns, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { expect } from 'vitest';
import type { Service } from './service.js';

/**
 * What a snapshot reads: a table (all its rows, in key order) or any read of its own (a count,
 * rows in another order).
 */
export type Part = PgTable | ((service: Service) => Promise<unknown>);

/** Every row of a table, ordered by its primary key (by every column when it has none). */
export function rowsOf(service: Service, table: PgTable): Promise<unknown[]> {
  const { columns, primaryKeys } = getTableConfig(table);
  const keyed = columns.filter((c) => c.primary);
  const key = keyed.length ? keyed : primaryKeys[0]?.columns.length ? primaryKeys[0].columns : Object.values(getTableColumns(table));
  const order: SQL[] = key.map((c) => asc(c));
  return service.db.select().from(table).orderBy(...order);
}

/** How many rows a table holds (for tables other work may change, where only "no new row" matters). */
export const countOf =
  (table: PgTable) =>
  async (service: Service): Promise<number> =>
    (await service.db.select({ n: count() }).from(table))[0].n;

/**
 * A table fingerprint: a function reading the named parts, to compare before and after a request
 * (`expect(await snapshot()).toEqual(before)`).
 */
/** What a snapshot holds for each part: a table's rows, or what the read returns. */
export type Snapshot<P extends Record<string, Part>> = {
  [K in keyof P]: P[K] extends PgTable ? P[K]['$inferSelect'][] : P[K] extends (service: Service) => Promise<infer R> ? R : never;
};

export function fingerprint<P extends Record<string, Part>>(service: () => Service, parts: P): () => Promise<Snapshot<P>> {
  return async () => {
    const out: Record<string, unknown> = {};
    for (const [name, part] of Object.entries(parts))
      out[name] = typeof part === 'function' ? await part(service()) : await rowsOf(service(), part);
    return out as Snapshot<P>;
  };
}

/** Runs `work` and checks that the fingerprint did not change (a refused request wrote nothing). */
export async function expectNoWrite<T>(snapshot: () => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await work();
  expect(await snapshot()).toEqual(before);
  return result;
}
