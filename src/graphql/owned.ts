import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { inWriteSchool } from '../auth/tenancy.js';
import type { Queryable } from '../db/client.js';
import type { Context } from './context.js';
import { notFound } from './errors.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/**
 * Write steps on a row of the school the write goes to (`writeSchool`: a platform credential names
 * it), so every update and delete keeps the same rule. Another school's row is a 404.
 */

/** The row, locked for the rest of the transaction. */
export async function lockOwned<T extends Owned>(tx: Queryable, ctx: Context, table: T, id: number, what: string): Promise<T['$inferSelect']> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), inWriteSchool(ctx, table.schoolId)))
    .for('update');
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}

/** Deletes the row and returns it. */
export async function deleteOwned<T extends Owned>(tx: Queryable, ctx: Context, table: T, id: number, what: string): Promise<T['$inferSelect']> {
  const [row] = await tx
    .delete(table as PgTable)
    .where(and(eq(table.id, id), inWriteSchool(ctx, table.schoolId)))
    .returning();
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}
