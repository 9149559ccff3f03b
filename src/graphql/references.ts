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

/**
 * The type of a polymorphic reference (`ownerType`, `resourceType`) among `types`, however a client
 * spells it: `SchoolProduct`, `school_product`, `schoolproduct` and `school-product` all name
 * SchoolProduct. Null when it names none of them.
 */
export function polymorphicType<const T extends string>(value: string, types: readonly T[]): T | null {
  const flat = value.replace(/[_\s-]/g, '').toLowerCase();
  return types.find((t) => t.toLowerCase() === flat) ?? null;
}

/** The same, reporting a type outside the list as an `inclusion` UserError on `field` (listing the types). */
export function checkedPolymorphicType<const T extends string>(checks: Checks, field: string, value: string, types: readonly T[]): T | null {
  const type = polymorphicType(value, types);
  if (!type) checks.add(field, 'inclusion', `is not included in the list (${types.join(', ')})`);
  return type;
}
