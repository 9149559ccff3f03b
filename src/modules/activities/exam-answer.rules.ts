import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ownStudentId } from '../../auth/tenancy.js';
import type { Queryable } from '../../db/client.js';
import type { Context } from '../../graphql/context.js';
import { notFound } from '../../graphql/errors.js';

/**
 * The `mayChange` of attempts and their answers: a student credential changes only the rows it sees (`visible`, its own
 * attempts'), another's is a 404 as if it did not exist. One statement, for a student only: staff change the school's rows.
 */
export function onlyVisible(table: PgTable & { id: PgColumn }, visible: (ctx: Context) => SQL | undefined, what: string) {
  return async (ctx: Context, row: { id: number }, tx: Queryable) => {
    if (ownStudentId(ctx) === null) return;
    const [seen] = await tx
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(eq(table.id, row.id), visible(ctx)));
    if (!seen) throw notFound(what);
  };
}

