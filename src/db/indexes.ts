import { getTableName } from 'drizzle-orm';
import { index, uniqueIndex, type IndexBuilder, type PgColumn } from 'drizzle-orm/pg-core';
import { databaseColumnName } from './driver-adapter.js';

// Index names follow one convention, derived here from the table and the columns so a table lists only its
// columns: `<table>_<columns>_idx`, unique ones `<table>_<columns>_key`. Partial, expression and otherwise
// named indexes stay written out with drizzle's index() / uniqueIndex().

type Columns = [PgColumn, ...PgColumn[]];

/** `<table>_<columns>_<suffix>`, each column by its database name. */
function indexName(columns: Columns, suffix: 'idx' | 'key'): string {
  const names = columns.map(databaseColumnName);
  return [getTableName(columns[0].table), ...names, suffix].join('_');
}

/** An index on the columns: `indexOn(t.activityId, t.userId)` in exam_answers is `exam_answers_activity_id_user_id_idx`. */
export const indexOn = (...columns: Columns): IndexBuilder => index(indexName(columns, 'idx')).on(...columns);

/** A unique index on the columns: `uniqueIndexOn(t.schoolId, t.code)` in courses is `courses_school_id_code_key`. */
export const uniqueIndexOn = (...columns: Columns): IndexBuilder => uniqueIndex(indexName(columns, 'key')).on(...columns);

/**
 * An index on `key` then `orderBy`, named by the key alone: one key's rows in that order. `orderedIndex(t.schoolId, t.id)`
 * (a school's rows in id order, for keyset pages) is `<table>_school_id_idx` on (school_id, id).
 */
export const orderedIndex = (key: PgColumn, ...orderBy: Columns): IndexBuilder =>
  index(indexName([key], 'idx')).on(key, ...orderBy);

/** A school's rows in id order (keyset pages), each also found by a code unique within the school: courses, paths, classes. */
export const codedRowIndexes = (t: { id: PgColumn; schoolId: PgColumn; code: PgColumn }): IndexBuilder[] => [
  orderedIndex(t.schoolId, t.id),
  uniqueIndexOn(t.schoolId, t.code),
];

/**
 * The rows of a parent in id order (the keyset pages of its list), and the school's rows (found by the school's
 * delete and by tenancy checks): comments of a discussion, answers of a question, topics of a product.
 */
export const childRowIndexes = (t: { id: PgColumn; schoolId: PgColumn }, parent: PgColumn): IndexBuilder[] => [
  orderedIndex(parent, t.id),
  indexOn(t.schoolId),
];
