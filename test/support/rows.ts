import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Service } from './service.js';

let seq = 0;
/** A value no other fixture made (a name, a code, an e-mail): a counter and a random tail. */
export const unique = (prefix: string) => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 7)}`;

/** How many rows of the table match `where` (all of them when omitted). */
export async function countRows(service: Service, table: PgTable, where?: SQL): Promise<number> {
  const [r] = await service.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return Number(r.n);
}
