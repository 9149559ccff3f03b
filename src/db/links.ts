import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';
import { columnKey } from './columns.js';

/** Replaces the children linked to a parent through a join table; `position` keeps the given order. */
export async function replaceLinks(
  tx: Queryable,
  table: PgTable,
  parentColumn: PgColumn,
  parentId: number,
  childColumn: PgColumn,
  childIds: readonly number[],
  positionColumn?: PgColumn,
): Promise<void> {
  await tx.delete(table).where(eq(parentColumn, parentId));
  if (childIds.length === 0) return;
  const parentKey = columnKey(table, parentColumn);
  const childKey = columnKey(table, childColumn);
  const positionKey = positionColumn ? columnKey(table, positionColumn) : null;
  await tx.insert(table).values(
    [...new Set(childIds)].map((childId, i) => ({
      [parentKey]: parentId,
      [childKey]: childId,
      ...(positionKey ? { [positionKey]: i } : {}),
    })),
  );
}
