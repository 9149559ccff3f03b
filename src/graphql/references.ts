import { and, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/client.js';
import { idOrNull } from './ids.js';
import type { Checks } from './validation.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/**
 * Checks that every id names a row of `table` in the school (one statement for the whole list)
 * and returns them as integers. A missing or foreign id is a `not_found` UserError on `field`.
 */
export async function existingIds(
  tx: Queryable,
  checks: Checks,
  field: string,
  table: Owned,
  ids: readonly (string | number)[] | null | undefined,
  schoolId: number,
  where?: SQL,
): Promise<number[]> {
  if (!ids || ids.length === 0) return [];
  const parsed = ids.map(idOrNull);
  const valid = parsed.filter((id): id is number => id !== null);
  const found = valid.length
    ? new Set(
        (
          (await tx
            .select({ id: table.id })
            .from(table as PgTable)
            .where(and(inArray(table.id, valid), inArray(table.schoolId, [schoolId]), where))) as { id: number }[]
        ).map((r) => r.id),
      )
    : new Set<number>();
  const missing = ids.filter((_, i) => parsed[i] === null || !found.has(parsed[i]!));
  if (missing.length) checks.add(field, 'not_found', `has no record of this school with id ${missing.join(', ')}`);
  return valid;
}

/** The same for a single reference; returns the id, null when not given. */
export async function existingId(
  tx: Queryable,
  checks: Checks,
  field: string,
  table: Owned,
  id: string | number | null | undefined,
  schoolId: number,
  where?: SQL,
): Promise<number | null> {
  if (id === null || id === undefined) return null;
  const before = checks.errors.length;
  const [found] = await existingIds(tx, checks, field, table, [id], schoolId, where);
  if (checks.errors.length > before) {
    checks.errors[checks.errors.length - 1].message = 'must exist in this school';
    return null;
  }
  return found ?? null;
}
