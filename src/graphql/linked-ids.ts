import { asc, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type FieldNode, type GraphQLResolveInfo, Kind } from 'graphql';
import { type Context, defineLoader, type LoaderDefinition } from './context.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };

/** What a linkedIdsLoader (loaders.ts) reads: the child ids of a link table for each parent row, in the link's order. */
export interface LinkSpec {
  link: PgTable & { schoolId?: PgColumn };
  parentColumn: PgColumn;
  childColumn: PgColumn;
  parent: Owned;
  orderBy?: PgColumn;
}

const links = new WeakMap<LoaderDefinition<number, number[]>, LinkSpec>();

/** Marks `loader` as a linkedIdsLoader of `spec` (a by-id read of the parent may then read its ids as a column). */
export function registerLinkedIds(loader: LoaderDefinition<number, number[]>, spec: LinkSpec): void {
  links.set(loader, spec);
}

/** The linked-ids fields of each parent table: field name → its loader, keyed by the parent's id (RelationFields registers them). */
const fieldsOf = new WeakMap<PgTable, Map<string, LoaderDefinition<number, number[]>>>();

/** Registers a field that loads `loader` by its row's id: when `loader` is a linkedIdsLoader, a by-id read of its parent asked for the field reads the ids too. */
export function registerLinkedIdsField(field: string, loader: LoaderDefinition<number, unknown>): void {
  const spec = links.get(loader as LoaderDefinition<number, number[]>);
  if (!spec) return;
  let fields = fieldsOf.get(spec.parent);
  if (!fields) fieldsOf.set(spec.parent, (fields = new Map()));
  fields.set(field, loader as LoaderDefinition<number, number[]>);
}

/**
 * The ids a linkedIdsLoader gives a row, as a column of the row's own read: the link rows of the row
 * (and of its school: another school's link rows never appear), in the loader's order.
 */
function linkedIdsColumn({ link, parentColumn, childColumn, parent, orderBy }: LinkSpec, alias: string): SQL.Aliased<number[]> {
  const order = sql.join([...(orderBy ? [asc(orderBy)] : []), asc(childColumn)], sql`, `);
  const school = link.schoolId ? sql` and ${link.schoolId} = ${parent.schoolId}` : sql``;
  return sql<number[]>`array(select ${childColumn} from ${link} where ${parentColumn} = ${parent.id}${school} order by ${order})`.as(alias);
}

/** A by-id loader that can read its whole rows with more (computed) columns (loaders.ts' byIdLoader). */
export interface Extensible {
  readonly name: string;
  readonly table: PgTable;
  selecting(name: string, extra: Record<string, SQL.Aliased>): LoaderDefinition<number, unknown>;
}

/** The key a linked field's ids take in a row read with them. */
const keyOf = (field: string) => `${field}$linked`;

/** The variants of each by-id loader, by the linked fields they read (sorted names, comma-joined). Bounded: the subsets of a table's registered fields. */
const variantsOf = new WeakMap<Extensible, Map<string, LoaderDefinition<number, unknown>>>();

/** At most this many variants a by-id loader (subsets of its linked fields); past it, the plain loader. */
const MAX_VARIANTS = 32;

/** The variant of a by-id loader that reads `fields` (sorted) with its rows (tests: a variant's reads, as the show routes take them). */
export function linkedIdsVariant<V>(byId: LoaderDefinition<number, V>, fields: readonly string[]): LoaderDefinition<number, V> {
  return variant(byId as Extensible & LoaderDefinition<number, V>, fields);
}

function variant<V>(byId: Extensible & LoaderDefinition<number, V>, fields: readonly string[]): LoaderDefinition<number, V> {
  let variants = variantsOf.get(byId);
  if (!variants) variantsOf.set(byId, (variants = new Map()));
  const key = fields.join(',');
  let found = variants.get(key);
  if (found) return found as LoaderDefinition<number, V>;
  if (variants.size >= MAX_VARIANTS) return byId;
  const registered = fieldsOf.get(byId.table)!;
  const loaders = fields.map((f) => registered.get(f)!);
  const extra = Object.fromEntries(fields.map((f, i) => [keyOf(f), linkedIdsColumn(links.get(loaders[i])!, keyOf(f))]));
  const name = `${byId.name}+${key}`;
  const inner = byId.selecting(name, extra);
  found = defineLoader(name, async (ctx: Context, ids: readonly number[]) => {
    const rows = await inner.batch(ctx, ids);
    // Each row's ids are what the field's own loader would give it: primed there, the field reads no further statement.
    for (const row of rows) {
      if (!row || row instanceof Error) continue;
      const r = row as Record<string, unknown> & { id: number };
      for (let i = 0; i < fields.length; i++) ctx.loaders.get(loaders[i]).prime(r.id, ((r[keyOf(fields[i])] as unknown[]) ?? []).map(Number));
    }
    return rows;
  });
  variants.set(key, found);
  return found as LoaderDefinition<number, V>;
}

/** The linked-ids fields a selection asks for (plain field selections, no directive), by the field's node. */
const asked = new WeakMap<FieldNode, string[]>();

function askedLinkedFields(nodes: readonly FieldNode[], registered: Map<string, unknown>): string[] {
  const names = new Set<string>();
  for (const node of nodes) {
    for (const s of node.selectionSet?.selections ?? []) {
      if (s.kind === Kind.FIELD && !s.directives?.length && registered.has(s.name.value)) names.add(s.name.value);
    }
  }
  return [...names].sort();
}

/**
 * The loader a show query reads its row by id with: `byId`, or when the selection asks for linked-ids
 * fields of the row (a course's `courseModulesIds`), its variant that reads those ids in the same
 * statement (a subquery column) and primes their loaders, so the fields read no statement of their own.
 */
export function byIdWithLinks<V>(info: GraphQLResolveInfo | undefined, byId: LoaderDefinition<number, V>): LoaderDefinition<number, V> {
  const extensible = byId as LoaderDefinition<number, V> & Partial<Extensible>;
  if (!info || !extensible.table || typeof extensible.selecting !== 'function') return byId;
  const registered = fieldsOf.get(extensible.table);
  if (!registered) return byId;
  let fields: string[] | undefined;
  if (info.fieldNodes.length === 1) {
    fields = asked.get(info.fieldNodes[0]);
    if (!fields) asked.set(info.fieldNodes[0], (fields = askedLinkedFields(info.fieldNodes, registered)));
  } else fields = askedLinkedFields(info.fieldNodes, registered);
  return fields.length ? variant(extensible as Extensible & LoaderDefinition<number, V>, fields) : byId;
}
