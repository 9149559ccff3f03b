import { Column, getTableName } from 'drizzle-orm';

/** What drizzle keeps of a select's columns: each result column's property path and the column (or SQL). */
export interface SelectedField {
  path: string[];
  field: unknown;
}

type Decoder = (rows: unknown[][]) => object[];

const identity = Column.prototype.mapFromDriverValue;
/** Decoders by the first column of their select, then by the whole list's signature (the columns are the table's own objects). */
const decoders = new WeakMap<Column, Map<string, Decoder>>();

function generate(fields: SelectedField[]): Decoder {
  const columns = fields.map((f) => f.field as Column);
  const values = fields.map((f, i) => {
    const value = `r[${i}]`;
    const decoded = columns[i].mapFromDriverValue === identity ? value : `(${value} === null ? null : c[${i}].mapFromDriverValue(${value}))`;
    return `${JSON.stringify(f.path[0])}: ${decoded}`;
  });
  const decodeRow = new Function('c', `return (r) => ({ ${values.join(', ')} });`)(columns) as (row: unknown[]) => object;
  return (rows) => rows.map(decodeRow);
}

/**
 * Maps a select's rows (arrays, as drizzle asks the driver for them) to objects with a function
 * generated once for its columns: one object literal per row, of one shape, and each value decoded
 * only where its column has a decoder (timestamps to Date). drizzle's own mapping (mapResultRow)
 * walks every column of every row through its entity checks and casing lookups, the largest part of
 * what a read of many rows costs; the result is the same for a select of plain columns, each at the
 * top level. Anything else (a computed field, a nested object) gets null: drizzle's mapping stays.
 */
export function decoderFor(fields: SelectedField[] | undefined): Decoder | null {
  if (!fields?.length) return null;
  let signature = '';
  for (const f of fields) {
    if (f.path.length !== 1 || !(f.field instanceof Column)) return null;
    signature += `${f.path[0]}=${getTableName(f.field.table)}.${f.field.name},`;
  }
  const first = fields[0].field as Column;
  let known = decoders.get(first);
  if (!known) decoders.set(first, (known = new Map()));
  let decoder = known.get(signature);
  if (!decoder) known.set(signature, (decoder = generate(fields)));
  return decoder;
}

/** A drizzle session class (each driver has its own) whose prepareQuery gets the decoders above. */
interface SessionClass {
  prototype: { prepareQuery(query: unknown, fields: SelectedField[] | undefined, name: unknown, arrayMode: unknown, customResultMapper?: unknown, ...rest: unknown[]): unknown };
}

const patched = new WeakSet<SessionClass>();

/**
 * Every select, insert … returning and prepared statement of a driver's sessions (transactions
 * included) maps its rows with `decoderFor`, where it applies; a query with its own mapper (drizzle's
 * relational queries) keeps it. Done once per driver, when the database is opened.
 */
export function decodeRowsOfSessions(Session: SessionClass): void {
  if (patched.has(Session)) return;
  patched.add(Session);
  const prepareQuery = Session.prototype.prepareQuery;
  Session.prototype.prepareQuery = function (query, fields, name, arrayMode, customResultMapper, ...rest) {
    return prepareQuery.call(this, query, fields, name, arrayMode, customResultMapper ?? decoderFor(fields) ?? undefined, ...rest);
  };
}
