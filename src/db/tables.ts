import type { BuildExtraConfigColumns } from 'drizzle-orm';
import { pgTable, primaryKey, type PgColumn, type PgColumnBuilderBase, type PgTableExtraConfigValue } from 'drizzle-orm/pg-core';
import { schoolRef } from '../modules/schools/school.table.js';
import { id, timestamps } from './columns.js';
import { indexOn } from './indexes.js';

type Columns = Record<string, PgColumnBuilderBase>;

/** The columns of a school-owned row: its id and school first, its own columns, created_at / updated_at last. */
const schoolColumns = <TColumns extends Columns>(columns: TColumns) => ({ id: id(), schoolId: schoolRef(), ...columns, ...timestamps });
type SchoolColumns<TColumns extends Columns> = ReturnType<typeof schoolColumns<TColumns>>;

/** A table of rows owned by a school: `schoolTable('courses', { name: text().notNull() }, (t) => [...])`. */
export function schoolTable<TName extends string, TColumns extends Columns>(
  name: TName,
  columns: TColumns,
  extraConfig?: (self: BuildExtraConfigColumns<TName, SchoolColumns<TColumns>, 'pg'>) => PgTableExtraConfigValue[],
) {
  // Typed explicitly: inferred from extraConfig, the table's type would lack id, schoolId and the timestamps.
  return pgTable<TName, SchoolColumns<TColumns>>(name, schoolColumns(columns), extraConfig);
}

/**
 * The keys of a link table between two rows: the (parent, child) primary key, and the child's index to find the parents
 * of a child: `(t) => linkKeys(t.pathId, t.courseId)`.
 */
export const linkKeys = (parent: PgColumn, child: PgColumn): PgTableExtraConfigValue[] => [
  primaryKey({ columns: [parent, child] }),
  indexOn(child),
];
