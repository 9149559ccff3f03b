import { integer, timestamp } from 'drizzle-orm/pg-core';

// Column builders shared by every table. Column names come from drizzle's snake_case casing.

/** Integer identity primary key (ids are integers in both faces). */
export const id = () => integer().primaryKey().generatedByDefaultAsIdentity();

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
