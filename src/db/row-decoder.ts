import { Column } from 'drizzle-orm';

/** What drizzle keeps of a prepared select's columns: each result column's property path and the column (or SQL). */
interface SelectedField {
  path: string[];
  field: unknown;
}

/** The parts of a drizzle prepared query this file reads and sets (internal to drizzle, stable across its 0.x drivers). */
interface PreparedInternals {
  fields?: SelectedField[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

const identity = Column.prototype.mapFromDriverValue;

/**
 * Maps a prepared select's rows (arrays, as drizzle asks the driver for them) to objects with a
 * function generated once for its columns: one object literal per row, of one shape, and each
 * value decoded only where its column has a decoder (timestamps to Date). drizzle's own mapping
 * walks every column of every row through its entity checks and casing lookups, the largest part
 * of what a thousand-row read costs. Selects of one table's columns only: anything else (a
 * computed field, a nested object) keeps drizzle's mapping.
 */
export function decodeRowsOnce<P>(prepared: P): P {
  const internals = prepared as PreparedInternals;
  const fields = internals.fields;
  if (!fields?.length || fields.some((f) => f.path.length !== 1 || !(f.field instanceof Column))) return prepared;
  const columns = fields.map((f) => f.field as Column);
  const values = fields.map((f, i) => {
    const value = `r[${i}]`;
    const decoded = columns[i].mapFromDriverValue === identity ? value : `(${value} === null ? null : c[${i}].mapFromDriverValue(${value}))`;
    return `${JSON.stringify(f.path[0])}: ${decoded}`;
  });
  const decodeRow = new Function('c', `return (r) => ({ ${values.join(', ')} });`)(columns) as (row: unknown[]) => object;
  internals.customResultMapper = (rows) => rows.map(decodeRow);
  return prepared;
}
