import type { BuildExtraConfigColumns } from 'drizzle-orm';
import {
  type AnyPgColumn,
  integer,
  pgTable,
  primaryKey,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { schoolRef } from './school.table.js';
import { belongsTo, id, timestamps } from './columns.js';
import { indexOn } from './indexes.js';

type Columns = Record<string, PgColumnBuilderBase>;

/** The columns of a school-owned row: its id and school first, its own columns, then `last` (its timestamps). */
const schoolColumns = <TColumns extends Columns, TLast extends Columns>(columns: TColumns, last: TLast) => ({
  id: id(),
  schoolId: schoolRef(),
  ...columns,
  ...last,
});
type SchoolColumns<TColumns extends Columns, TLast extends Columns> = ReturnType<typeof schoolColumns<TColumns, TLast>>;

/** A builder of tables of rows owned by a school, whose rows end with the columns `last`. */
const schoolTableOf =
  <TLast extends Columns>(last: TLast) =>
  <TName extends string, TColumns extends Columns>(
    name: TName,
    columns: TColumns,
    extraConfig?: (self: BuildExtraConfigColumns<TName, SchoolColumns<TColumns, TLast>, 'pg'>) => PgTableExtraConfigValue[],
  ) =>
    // Typed explicitly: inferred from extraConfig, the table's type would lack id, schoolId and the timestamps.
    pgTable<TName, SchoolColumns<TColumns, TLast>>(name, schoolColumns(columns, last), extraConfig);

/** A table of rows owned by a school, created_at / updated_at last: `schoolTable('courses', { name: text() }, (t) => [...])`. */
export const schoolTable = schoolTableOf(timestamps);

/** A table of a school's entries, written once and never updated (a log, a secret): created_at last, no updated_at. */
export const schoolEntryTable = schoolTableOf({ createdAt: timestamps.createdAt });

/** A table of a school's rows that keep no timestamps. */
export const schoolRowTable = schoolTableOf({});

type Ref = () => AnyPgColumn;

/**
 * A link table between two rows, parent then child, each reference deleted with its row, then the link's own
 * columns; keyed by (parent, child), with the child's index to find the parents of a child:
 * `linkTable('path_courses', { pathId: () => paths.id, courseId: () => courses.id }, { position: ... })`.
 */
export function linkTable<TName extends string, TLink extends string, TColumns extends Columns = {}>(
  name: TName,
  links: Record<TLink, Ref>,
  columns: TColumns = {} as TColumns,
) {
  const references = Object.fromEntries(Object.entries<Ref>(links).map(([key, ref]) => [key, belongsTo(ref)]));
  const [parent, child] = Object.keys(links) as TLink[];
  return pgTable<TName, Record<TLink, ReturnType<typeof belongsTo>> & TColumns>(
    name,
    { ...(references as Record<TLink, ReturnType<typeof belongsTo>>), ...columns },
    (t) => [primaryKey({ columns: [t[parent], t[child]] }), indexOn(t[child])],
  );
}

/** A link table of an ordered list: the child's `position` in the parent's list (0 when not given). */
export const listTable = <TName extends string, TLink extends string>(name: TName, links: Record<TLink, Ref>) =>
  linkTable(name, links, { position: integer().notNull().default(0) });
