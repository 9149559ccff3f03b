import { asc, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';
import { columnKey } from './columns.js';

/** A link's parent row: its id and its school, which the link rows carry (db/tables.ts linkTable). */
export interface LinkParent {
  id: number;
  schoolId: number;
}

/** Replaces the children linked to a parent through a join table; `position` keeps the given order. */
export async function replaceLinks(
  tx: Queryable,
  table: PgTable,
  parentColumn: PgColumn,
  parent: LinkParent,
  childColumn: PgColumn,
  childIds: readonly number[],
  positionColumn?: PgColumn,
): Promise<void> {
  await tx.delete(table).where(eq(parentColumn, parent.id));
  if (childIds.length === 0) return;
  const parentKey = columnKey(table, parentColumn);
  const childKey = columnKey(table, childColumn);
  const positionKey = positionColumn ? columnKey(table, positionColumn) : null;
  await tx.insert(table).values(
    [...new Set(childIds)].map((childId, i) => ({
      schoolId: parent.schoolId,
      [parentKey]: parent.id,
      [childKey]: childId,
      ...(positionKey ? { [positionKey]: i } : {}),
    })),
  );
}

/** The children linked to a parent, in position order (then child id). */
export async function orderedLinks(
  tx: Queryable,
  table: PgTable,
  parentColumn: PgColumn,
  parentId: number,
  childColumn: PgColumn,
  positionColumn: PgColumn,
): Promise<number[]> {
  const rows = (await tx
    .select({ child: childColumn })
    .from(table)
    .where(eq(parentColumn, parentId))
    .orderBy(asc(positionColumn), asc(childColumn))) as { child: number }[];
  return rows.map((r) => r.child);
}

/** `ids` with `id` taken out and put back at `position` (0-based; absent or past the end: last). */
export function placedAt(ids: readonly number[], id: number, position?: number | null): number[] {
  const rest = ids.filter((x) => x !== id);
  const at = position === null || position === undefined ? rest.length : Math.min(position, rest.length);
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}
