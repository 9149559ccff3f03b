import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inSchool } from '../auth/tenancy.js';
import type { Queryable } from '../db/client.js';
import type { Context } from './context.js';
import { notFound } from './errors.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/** A row of the caller's school, locked for the rest of the transaction; another school's row is a 404. */
export async function lockOwned<T extends Owned>(tx: Queryable, ctx: Context, table: T, id: number, what: string): Promise<T['$inferSelect']> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), inSchool(ctx, table.schoolId)))
    .for('update');
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}

/** Deletes a row of the caller's school and returns it; another school's row is a 404. */
export async function deleteOwned<T extends Owned>(tx: Queryable, ctx: Context, table: T, id: number, what: string): Promise<T['$inferSelect']> {
  const [row] = await tx
    .delete(table as PgTable)
    .where(and(eq(table.id, id), inSchool(ctx, table.schoolId)))
    .returning();
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}
