import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type FieldNode, getNamedType, type GraphQLField, type GraphQLResolveInfo, type GraphQLSchema, isObjectType, Kind } from 'graphql';

/**
 * Fields that read their row's property of the same name and nothing else: type-graphql's simple
 * fields, which the built schema leaves without a resolver. Marked once, on the built schema, before
 * the role matrix and the budget wrap some of them (they still read only that property, and the
 * row's id).
 */
const plainFields = new WeakSet<GraphQLField<unknown, unknown>>();

export function markPlainFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) if (!field.resolve) plainFields.add(field);
  }
  return schema;
}

/**
 * Asked columns by the field's node (the same AST node for every request of a document), then by
 * table. A field merged from several nodes (fragments) is worked out each time: the same node may
 * be merged with others elsewhere.
 */
const asked = new WeakMap<FieldNode, Map<PgTable, string[] | null>>();

/**
 * The columns of `table` (their keys, sorted) a list field of `table`'s rows needs: those its selection
 * asks for, with `keep` (the keys and what the read's own checks use). Null, for every column, unless
 * every selection is a plain field (markPlainFields) named as a column, or `__typename`, with no
 * fragment and no directive: a field that computes anything may read any column.
 */
export function askedColumns(info: GraphQLResolveInfo, table: PgTable, keep: readonly string[], needs: ColumnNeeds = {}): string[] | null {
  return rememberedByNode(asked, columnsOf, info, table, keep, needs);
}

/** `work`'s columns, remembered by the field's one node and the table (worked out each time for a field merged from several nodes). */
function rememberedByNode(
  memory: WeakMap<FieldNode, Map<PgTable, string[] | null>>,
  work: (info: GraphQLResolveInfo, table: PgTable, keep: readonly string[], needs: ColumnNeeds) => string[] | null,
  info: GraphQLResolveInfo,
  table: PgTable,
  keep: readonly string[],
  needs: ColumnNeeds,
): string[] | null {
  if (info.fieldNodes.length !== 1) return work(info, table, keep, needs);
  const node = info.fieldNodes[0];
  let byTable = memory.get(node);
  if (!byTable) memory.set(node, (byTable = new Map()));
  let columns = byTable.get(table);
  if (columns === undefined) byTable.set(table, (columns = work(info, table, keep, needs)));
  return columns;
}

/** `needs`: the columns a computed field reads (`lessons: ['id']`), as askedNodeColumns takes them. */
function columnsOf(info: GraphQLResolveInfo, table: PgTable, keep: readonly string[], needs: ColumnNeeds): string[] | null {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return null;
  const fields = type.getFields();
  const tableColumns = getTableColumns(table);
  const names = new Set(keep);
  for (const node of info.fieldNodes) {
    if (node.directives?.length || !plainColumns(node.selectionSet, fields, tableColumns, needs, names)) return null;
  }
  for (const name of names) if (!(name in tableColumns)) return null;
  return [...names].sort();
}

/**
 * Adds to `names` the columns a selection set asks for (plain column fields, `needs` of computed
 * ones); false when it asks for anything else (a fragment, a directive, another field).
 */
function plainColumns(
  selectionSet: FieldNode['selectionSet'],
  fields: Record<string, unknown>,
  tableColumns: Record<string, unknown>,
  needs: ColumnNeeds,
  names: Set<string>,
): boolean {
  if (!selectionSet) return false;
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return false;
    const name = selection.name.value;
    if (name === '__typename') continue;
    const needed = Object.hasOwn(needs, name) ? needs[name] : undefined;
    if (needed) {
      for (const column of needed) names.add(column);
      continue;
    }
    const field = fields[name];
    if (!field || !plainFields.has(field as never) || !(name in tableColumns)) return false;
    names.add(name);
  }
  return true;
}

/** The columns a computed field of a node reads (`status: ['status', 'unlimited', 'availableUntil']`), by field name. */
export type ColumnNeeds = Readonly<Record<string, readonly string[]>>;

/** Asked node columns by the connection field's node, then by table (as `asked`). */
const askedOfNodes = new WeakMap<FieldNode, Map<PgTable, string[] | null>>();

/**
 * The columns of `table` (their keys, sorted) a connection field's nodes need: the plain column fields
 * its `nodes { … }` and `edges { node { … } }` ask for, the columns `needs` gives a computed field, and
 * `keep`. Beside them the connection may ask only for `pageInfo`, `totalCount`, `__typename` and an
 * edge's `cursor`. Null, for every column, on anything else: a fragment, a directive, another field.
 */
export function askedNodeColumns(info: GraphQLResolveInfo, table: PgTable, keep: readonly string[], needs: ColumnNeeds = {}): string[] | null {
  return rememberedByNode(askedOfNodes, nodeColumnsOf, info, table, keep, needs);
}

function nodeColumnsOf(info: GraphQLResolveInfo, table: PgTable, keep: readonly string[], needs: ColumnNeeds): string[] | null {
  const connection = getNamedType(info.returnType);
  if (!isObjectType(connection)) return null;
  const nodesField = connection.getFields().nodes;
  const nodeType = nodesField && getNamedType(nodesField.type);
  if (!nodeType || !isObjectType(nodeType)) return null;
  const fields = nodeType.getFields();
  const tableColumns = getTableColumns(table);
  const names = new Set(keep);
  const plain = (selectionSet: FieldNode['selectionSet']): boolean => plainColumns(selectionSet, fields, tableColumns, needs, names);
  for (const node of info.fieldNodes) {
    if (!node.selectionSet || node.directives?.length) return null;
    for (const selection of node.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
      const name = selection.name.value;
      if (name === 'nodes') {
        if (!plain(selection.selectionSet)) return null;
      } else if (name === 'edges') {
        for (const inEdge of selection.selectionSet?.selections ?? []) {
          if (inEdge.kind !== Kind.FIELD || inEdge.directives?.length) return null;
          if (inEdge.name.value === 'node') {
            if (!plain(inEdge.selectionSet)) return null;
          } else if (inEdge.name.value !== 'cursor' && inEdge.name.value !== '__typename') return null;
        }
      } else if (name !== 'pageInfo' && name !== 'totalCount' && name !== '__typename') return null;
    }
  }
  for (const name of names) if (!(name in tableColumns)) return null;
  return [...names].sort();
}

/** nodeRelationColumns' answers by the connection field's node (as `asked`), then by relation name and table. */
const relationColumns = new WeakMap<FieldNode, Map<string, Map<PgTable, string[] | null>>>();

/**
 * The columns of `table` a to-one relation of a connection's nodes (`student` of enrollments) asks for,
 * as askedColumns gives them to the relation's field when it resolves (the same list, cached by the
 * same node): null unless the relation is asked for exactly once, through `nodes` or an edge's `node`,
 * and its selection is plain column fields.
 */
export function nodeRelationColumns(info: GraphQLResolveInfo, relation: string, table: PgTable): string[] | null {
  if (info.fieldNodes.length !== 1) return null;
  const connection = info.fieldNodes[0];
  let byRelation = relationColumns.get(connection);
  if (!byRelation) relationColumns.set(connection, (byRelation = new Map()));
  let byTable = byRelation.get(relation);
  if (!byTable) byRelation.set(relation, (byTable = new Map()));
  let columns = byTable.get(table);
  if (columns === undefined) byTable.set(table, (columns = relationColumnsOf(info, connection, relation, table)));
  return columns;
}

function relationColumnsOf(info: GraphQLResolveInfo, connection: FieldNode, relation: string, table: PgTable): string[] | null {
  const node = relationNode(connection, relation);
  if (!node) return null;
  const connectionType = getNamedType(info.returnType);
  const nodeType = isObjectType(connectionType) ? connectionType.getFields().nodes?.type : undefined;
  const named = nodeType && getNamedType(nodeType);
  const field = named && isObjectType(named) ? named.getFields()[relation] : undefined;
  if (!field) return null;
  return askedColumns({ ...info, fieldNodes: [node], returnType: field.type } as GraphQLResolveInfo, table, []);
}

/** The one field node of `relation` among a connection's nodes (nodes, edges' node), or null. */
function relationNode(connection: FieldNode, relation: string): FieldNode | null {
  const found: FieldNode[] = [];
  const inNode = (set: FieldNode['selectionSet']) => {
    for (const s of set?.selections ?? []) if (s.kind === Kind.FIELD && s.name.value === relation) found.push(s);
  };
  for (const s of connection.selectionSet?.selections ?? []) {
    if (s.kind !== Kind.FIELD) continue;
    if (s.name.value === 'nodes') inNode(s.selectionSet);
    else if (s.name.value === 'edges') for (const e of s.selectionSet?.selections ?? []) if (e.kind === Kind.FIELD && e.name.value === 'node') inNode(e.selectionSet);
  }
  return found.length === 1 && !found[0].alias && !found[0].directives?.length ? found[0] : null;
}
