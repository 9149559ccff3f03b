import { inArray, sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, integer, type PgColumn, text, timestamp } from 'drizzle-orm/pg-core';

// Column builders shared by every table. Column names come from drizzle's snake_case casing.

/** Integer identity primary key (ids are integers in both faces). */
export const id = () => integer().primaryKey().generatedByDefaultAsIdentity();

/** A school-owned row's integer identity, unique across schools; its table's key is (id, school_id) (db/tables.ts). */
export const rowId = () => integer().notNull().generatedByDefaultAsIdentity();

/** A required reference to the row this one belongs to, deleted with it: `lessonId: belongsTo(() => lessons.id)`. */
export const belongsTo = (parent: () => AnyPgColumn) => integer().notNull().references(parent, { onDelete: 'cascade' });

/** A timestamp with time zone, as a JS Date. */
export const tstz = () => timestamp({ withTimezone: true, mode: 'date' });

/** created_at / updated_at. created_at may be given (imports keep original times). */
export const timestamps = {
  createdAt: tstz().notNull().defaultNow(),
  updatedAt: tstz()
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** The property name of a column within its table (drizzle rows are keyed by property). */
export function columnKey(table: object, column: unknown): string {
  for (const [key, value] of Object.entries(table)) if (value === column) return key;
  throw new Error('column is not a column of this table');
}

const ARRAY_TYPES: Record<string, string> = { integer: 'int4[]', serial: 'int4[]', bigint: 'int8[]', bigserial: 'int8[]', text: 'text[]', uuid: 'uuid[]' };

/**
 * `column = any($1)`: one parameter whatever the number of values, so the statement's text is the
 * same for every batch (a named prepared statement is reused). No values match no row, as `inArray`.
 */
export function inList(column: PgColumn, values: readonly unknown[]): SQL {
  const type = ARRAY_TYPES[column.getSQLType()];
  if (!type) return inArray(column, [...values]);
  return sql`${column} = any(${sql.param([...values])}::${sql.raw(type)})`;
}

/** `column = any($name)` in a statement built once (a prepared query), the values given at each execution as an array. */
export function inListPlaceholder(column: PgColumn, name: string): SQL {
  const type = ARRAY_TYPES[column.getSQLType()];
  if (!type) throw new Error(`inListPlaceholder: no array type for ${column.getSQLType()}`);
  return sql`${column} = any(${sql.placeholder(name)}::${sql.raw(type)})`;
}

/**
 * The leading columns of a course or a learning path: a name, a description and an image (the
 * fields of `NamedContent`, modules/content/content.type.ts). A function: each table builds its own columns.
 */
export const namedContentColumns = () => ({
  name: text().notNull(),
  description: text(),
  imageUrl: text(),
});
