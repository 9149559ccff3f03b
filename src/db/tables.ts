import { type BuildExtraConfigColumns, getTableColumns, getTableName, type Table } from 'drizzle-orm';
import {
  type AnyPgColumn,
  foreignKey,
  integer,
  type PgColumn,
  pgTable,
  primaryKey,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { schoolRef } from './school.table.js';
import { belongsTo, rowId, timestamps } from './columns.js';
import { type ColumnReference, databaseColumnName, takeColumnReferences } from './driver-adapter.js';
import { indexOn } from './indexes.js';
import { REFERENCE_TABLES } from './sharding.js';

type Columns = Record<string, PgColumnBuilderBase>;

// Sharding by school (Citus, README): a school-owned table's keys hold school_id, and a reference from one
// school-owned row to another carries the school on both sides, so both rows live on one shard. The tables
// below declare their keys so; the columns keep `.references()` / `belongsTo()` as written, and the table
// turns each into the foreign key Citus accepts.

/** A table hash-distributed by school: school_id NOT NULL and not a reference table (src/db/sharding.ts). */
function schoolIdOf(table: Table): PgColumn | undefined {
  const schoolId = (getTableColumns(table) as Record<string, PgColumn>).schoolId;
  return schoolId?.notNull && !(getTableName(table) in REFERENCE_TABLES) ? schoolId : undefined;
}

/**
 * The foreign keys of the references taken: one to a school-owned row is (school_id, x_id) → (school_id, id),
 * named `<table>_<column>_fk`; `set null` then empties x_id alone (the migration writes `SET NULL (x_id)`, which
 * drizzle cannot say). Any other keeps its single column and drizzle's name.
 */
function referenceKeys(name: string, t: Record<string, PgColumn>, references: [string, ColumnReference][]): PgTableExtraConfigValue[] {
  return references.map(([key, { ref, actions }]) => {
    const target = ref();
    const targetSchool = key === 'schoolId' ? undefined : schoolIdOf(target.table);
    const builder = targetSchool
      ? foreignKey({ name: `${name}_${databaseColumnName(t[key])}_fk`, columns: [t.schoolId, t[key]], foreignColumns: [targetSchool, target] })
      : foreignKey({ columns: [t[key]], foreignColumns: [target] });
    if (actions.onDelete) builder.onDelete(actions.onDelete);
    if (actions.onUpdate) builder.onUpdate(actions.onUpdate);
    return builder;
  });
}

/**
 * A school-owned table that declares its keys for sharding: `primaryKey` (school_id among them) and the
 * foreign keys of its columns' references, co-located. For tables whose columns are not schoolTable's.
 */
export function shardedTable<TName extends string, TColumns extends Columns>(
  name: TName,
  columns: TColumns,
  primaryKeyOf: (t: BuildExtraConfigColumns<TName, TColumns, 'pg'>) => [AnyPgColumn, ...AnyPgColumn[]],
  extraConfig?: (self: BuildExtraConfigColumns<TName, TColumns, 'pg'>) => PgTableExtraConfigValue[],
) {
  const references = takeColumnReferences(columns);
  return pgTable<TName, TColumns>(name, columns, (t) => [
    primaryKey({ name: `${name}_pkey`, columns: primaryKeyOf(t) }),
    ...referenceKeys(name, t as unknown as Record<string, PgColumn>, references),
    ...(extraConfig?.(t) ?? []),
  ]);
}

/** The columns of a school-owned row: its id and school first, its own columns, then `last` (its timestamps). */
const schoolColumns = <TColumns extends Columns, TLast extends Columns>(columns: TColumns, last: TLast) => ({
  id: rowId(),
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
    // Keyed by (id, school_id): ids stay globally unique identities, found by id alone through the key's index.
    shardedTable<TName, SchoolColumns<TColumns, TLast>>(name, schoolColumns(columns, last), (t) => [t.id, t.schoolId], extraConfig);

/** A table of rows owned by a school, created_at / updated_at last: `schoolTable('courses', { name: text() }, (t) => [...])`. */
export const schoolTable = schoolTableOf(timestamps);

/** A table of a school's entries, written once and never updated (a log, a secret): created_at last, no updated_at. */
export const schoolEntryTable = schoolTableOf({ createdAt: timestamps.createdAt });

/** A table of a school's rows that keep no timestamps. */
export const schoolRowTable = schoolTableOf({});

type Ref = () => AnyPgColumn;

/**
 * A link table between two rows of a school, parent then child, each reference deleted with its row, then the
 * link's own columns; keyed by (parent, child, school), with the child's index to find the parents of a child:
 * `linkTable('path_courses', { pathId: () => paths.id, courseId: () => courses.id }, { position: ... })`.
 */
export function linkTable<TName extends string, TLink extends string, TColumns extends Columns = {}>(
  name: TName,
  links: Record<TLink, Ref>,
  columns: TColumns = {} as TColumns,
) {
  const references = Object.fromEntries(Object.entries<Ref>(links).map(([key, ref]) => [key, belongsTo(ref)]));
  const [parent, child] = Object.keys(links) as TLink[];
  return shardedTable<TName, { schoolId: ReturnType<typeof schoolRef> } & Record<TLink, ReturnType<typeof belongsTo>> & TColumns>(
    name,
    { schoolId: schoolRef(), ...(references as Record<TLink, ReturnType<typeof belongsTo>>), ...columns },
    (t) => [t[parent], t[child], t.schoolId],
    (t) => [indexOn(t[child])],
  );
}

/** A link table of an ordered list: the child's `position` in the parent's list (0 when not given). */
export const listTable = <TName extends string, TLink extends string>(name: TName, links: Record<TLink, Ref>) =>
  linkTable(name, links, { position: integer().notNull().default(0) });
