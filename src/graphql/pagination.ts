import 'reflect-metadata';
import { and, asc, count, eq, getTableColumns, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import { ArgsType, type ClassType, Field, Int, ObjectType } from 'type-graphql';
import type { Queryable } from '../db/client.js';
import { type Decoder, groupedDecoder, type RowDecoderKind, type SelectedField, selectDecoding } from '../db/driver-adapter.js';
import { columnKey, inListPlaceholder } from '../db/columns.js';
import { AppError } from './errors.js';
import { inSchool, inSchoolPrepared, inSchoolScope, schoolScope } from '../auth/tenancy.js';
import { type Context, defineLoader, type LoaderDefinition } from './context.js';
import { builtOnce, narrowedVariants, schoolScopedRead } from './loaders.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
/** REST's per_page default when a page is given. */
export const DEFAULT_PER_PAGE = 10;

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Page size for cursor paging (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}).` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'The endCursor of the previous page.' })
  after?: string | null;

  @Field(() => Int, { nullable: true, description: 'Page number (from 1) for numbered paging; takes precedence over first/after.' })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: `Page size with page (default ${DEFAULT_PER_PAGE}, at most ${MAX_PAGE_SIZE}); ignored without page.` })
  perPage?: number | null;
}

@ObjectType()
export class PageInfo {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Boolean) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
}

/** What a list resolver returns; the generic Connection type renders it. */
export interface ConnectionData<T> {
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: () => Promise<number>;
}

/** `XConnection` for a node type: nodes, edges, pageInfo and totalCount (counted only when asked). */
/** `typeName` is the node's GraphQL name when it differs from its class name. */
export function Connection<T extends { id: number }>(Node: ClassType<T>, typeName = Node.name) {
  @ObjectType(`${typeName}Edge`)
  class Edge {
    @Field(() => String) cursor!: string;
    @Field(() => Node) node!: T;
  }

  // type-graphql 2 emits only the types the schema reaches, so the base needs no name of its own.
  @ObjectType()
  abstract class ConnectionClass {
    @Field(() => [Node]) nodes!: T[];
    @Field(() => PageInfo) pageInfo!: PageInfo;

    @Field(() => [Edge])
    edges(this: ConnectionData<T>): Edge[] {
      return this.nodes.map((node) => ({ cursor: encodeCursor(node.id), node }));
    }

    @Field(() => Int)
    totalCount(this: ConnectionData<T>): Promise<number> {
      return this.totalCount();
    }
  }
  return ConnectionClass;
}

/** The `XConnection` object type of a node type, named after it: `export const CourseConnection = connectionType(Course)`. */
export function connectionType<T extends { id: number }>(Node: ClassType<T>, typeName = Node.name) {
  @ObjectType(`${typeName}Connection`)
  class NamedConnection extends Connection(Node, typeName) {}
  return NamedConnection;
}

export const encodeCursor = (id: number) => Buffer.from(`id:${id}`).toString('base64url');

/** The largest id a row can have (PostgreSQL integer). */
const MAX_ID = 2_147_483_647;

function decodeCursor(cursor: string): number {
  const match = /^id:(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString());
  // A forged cursor past the id range would reach the database as an out-of-range integer.
  if (!match || Number(match[1]) > MAX_ID) throw new AppError('bad_request', 'after is not a cursor this service gave', ['after']);
  return Number(match[1]);
}

/** A page request, checked once: keyset (first/after) or numbered (page/perPage). */
export interface Window {
  limit: number;
  offset: number;
  afterId: number | null;
}

/** The largest page number: GraphQL's page is an Int, so the offset stays a safe integer. */
export const MAX_PAGE = 2_147_483_647;

/**
 * A numbered page request (page, perPage), decided here for GraphQL and REST alike: page from 1 to
 * MAX_PAGE, perPage DEFAULT_PER_PAGE when not given, else from 1 to MAX_PAGE_SIZE. Returns the page,
 * or the problem (the argument at fault, as GraphQL names it), for each face to report its own way.
 */
export function numberedPage(
  page: number,
  perPage: number | null | undefined,
): { page: number; perPage: number } | { field: 'page' | 'perPage'; message: string } {
  if (page < 1 || page > MAX_PAGE) return { field: 'page', message: `page must be between 1 and ${MAX_PAGE}` };
  const size = perPage ?? DEFAULT_PER_PAGE;
  if (size < 1 || size > MAX_PAGE_SIZE) return { field: 'perPage', message: `per_page must be between 1 and ${MAX_PAGE_SIZE}` };
  return { page, perPage: size };
}

export function windowOf(args: ConnectionArgs): Window {
  if (args.page !== undefined && args.page !== null) {
    const asked = numberedPage(args.page, args.perPage);
    if ('field' in asked) throw new AppError('bad_request', asked.message, [asked.field]);
    // Past the end a page is empty.
    return { limit: asked.perPage, offset: (asked.page - 1) * asked.perPage, afterId: null };
  }
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (first < 0 || first > MAX_PAGE_SIZE)
    throw new AppError('bad_request', `first must be between 0 and ${MAX_PAGE_SIZE}`, ['first']);
  return { limit: first, offset: 0, afterId: args.after ? decodeCursor(args.after) : null };
}

/** A page of `rows` (fetched with one row more than the window's limit, to tell whether a next page exists) as a connection. */
export function toConnection<T extends { id: number }>(
  rows: T[],
  window: Window,
  totalCount: () => Promise<number>,
): ConnectionData<T> {
  const nodes = rows.slice(0, window.limit);
  return {
    nodes,
    totalCount,
    pageInfo: {
      hasNextPage: rows.length > window.limit,
      hasPreviousPage: window.offset > 0 || window.afterId !== null,
      startCursor: nodes.length ? encodeCursor(nodes[0].id) : null,
      endCursor: nodes.length ? encodeCursor(nodes[nodes.length - 1].id) : null,
    },
  };
}

type TableWithId = PgTable & { id: PgColumn };

/** Whether the field being resolved asks for `name` among its own selections (through fragments too). */
export function asksFor(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const inSet = (set: SelectionSetNode | undefined): boolean =>
    !!set?.selections.some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return inSet(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return inSet(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => inSet(node.selectionSet));
}

/**
 * A to-one relation of a page's rows that the page statement can read too (`Enrollment.student`): the
 * related row of the same school (a left join on (school_id, id), and `where`), with only the columns the
 * relation's selection asks for, then primed into the by-id loader its field reads through, narrowed to
 * those columns (relations.ts), for the field to find without a statement of its own.
 */
export interface PageJoin {
  /** The related table, school-owned. */
  table: TableWithId & { schoolId: PgColumn };
  /** The page table's column that holds the related row's id. */
  key: PgColumn;
  /**
   * The by-id loader the relation's field reads through: its narrowed variant's rows for the page's
   * readers (staff, of one school or of every school) are exactly the joined ones.
   */
  loader: { narrowed(columns: readonly string[]): LoaderDefinition<number, unknown> };
  /** The loader's own condition beyond id and school (a student is a user of type Student). */
  where?: SQL;
}

/**
 * The page statements of one table's rows of the request's school (or every school's, for the
 * platform across schools), with no other condition: built once per shape (a cursor or not, counted
 * or not, the columns read, the relations read with it), the school, cursor, limit and offset their
 * placeholders. Null when the request reads no school's rows (paginate's general statement answers).
 * `joined` gives relations of `joins` (schoolPage's) the columns their selection asks for (keys of the
 * related table): read in the same statement, primed into their loaders and not left on the rows.
 */
export type SchoolPage = (
  ctx: Context,
  window: Window,
  counting: boolean,
  columns?: readonly string[] | null,
  joined?: Readonly<Record<string, readonly string[]>>,
) => Promise<Record<string, unknown>[]> | null;

/** The table's columns under their keys, or only `keys` of them (PageOptions.columns). */
function selectedColumns(table: PgTable, keys: readonly string[] | null | undefined): Record<string, any> {
  const all = getTableColumns(table) as Record<string, any>;
  return keys ? Object.fromEntries(keys.map((k) => [k, all[k]])) : { ...all };
}

/** A joined relation's column as the page statement names it. */
const joinedKey = (relation: string, key: string) => `${relation}.${key}`;

/**
 * A page row's related row that its statement read (schoolPage's joins), under a key of the relation's
 * name; beside them, under JOINED_BY, the narrowed loader each was primed into (one record per shape).
 * The relation's field (relations.ts' resolveRelation) answers it at once when it would read through
 * that very loader, which would answer it from its cache: no promise, no loader call per row.
 */
const joinedKeys = new Map<string, JoinedKey>();
/** The key a relation's joined row is kept under on a page row (joinedRowOf takes it). */
export interface JoinedKey {
  relation: string;
  symbol: symbol;
}
export const joinedRowKey = (relation: string): JoinedKey => {
  let key = joinedKeys.get(relation);
  if (!key) joinedKeys.set(relation, (key = { relation, symbol: Symbol(`joined ${relation}`) }));
  return key;
};
const JOINED_BY = Symbol('joined by');

/**
 * The related row of a page row (under `key`, joinedRowKey's for the relation) that its statement read
 * and primed into `loader` (the loader the relation's field reads through), or undefined: then the loader answers.
 */
export function joinedRowOf(row: object, key: JoinedKey, loader: LoaderDefinition<number, unknown>): unknown {
  const by = (row as { [JOINED_BY]?: Readonly<Record<string, LoaderDefinition<number, unknown>>> })[JOINED_BY];
  if (by === undefined || by[key.relation] !== loader) return undefined;
  return (row as Record<symbol, unknown>)[key.symbol];
}

/** Page statements one schoolPage keeps (its shapes: columns and joins asked, cursor, count); past it, a new column list reads every column. */
const MAX_PAGE_SHAPES = 64;

export function schoolPage<TTable extends TableWithId & { schoolId: PgColumn }>(name: string, table: TTable, joins: Readonly<Record<string, PageJoin>> = {}): SchoolPage {
  type Shape = { execute(ctx: Context, values: Record<string, unknown>): Promise<Record<string, unknown>[]> };
  const shapes = new Map<string, Shape>();
  const shape = (inSchool: boolean, after: boolean, counting: boolean, keys: readonly string[] | null | undefined, joined: readonly [string, readonly string[]][]): Shape => {
    const key =
      `${inSchool ? 'school' : 'all'}${after ? '.after' : ''}${counting ? '.count' : ''}${keys ? `(${keys.join(',')})` : ''}` +
      joined.map(([relation, columns]) => `.${relation}(${columns.join(',')})`).join('');
    let built = shapes.get(key);
    // Each shape is a statement prepared on every connection: past MAX_PAGE_SHAPES, a new column list
    // (an attacker's documents) reads every column and leaves its relations to their loaders.
    if (!built && shapes.size >= MAX_PAGE_SHAPES && (keys || joined.length)) return shape(inSchool, after, counting, null, []);
    if (!built) {
      const columns = selectedColumns(table as PgTable, keys);
      const own = Object.keys(columns);
      if (counting) columns[TOTAL] = sql<number>`count(*) over ()`.as(TOTAL);
      // The related rows' columns, the id and school first: a missing row reads as a null id.
      const related = joined.map(([relation, asked]) => {
        const keysOf = ['id', 'schoolId', ...asked.filter((k) => k !== 'id' && k !== 'schoolId')];
        const relatedColumns = getTableColumns(joins[relation].table as PgTable) as Record<string, PgColumn>;
        for (const k of keysOf) columns[joinedKey(relation, k)] = relatedColumns[k];
        return {
          relation,
          keys: keysOf,
          names: keysOf.map((k) => joinedKey(relation, k)),
          loader: joins[relation].loader.narrowed(asked),
          symbol: joinedRowKey(relation).symbol,
        };
      });
      const joinedBy = Object.freeze(Object.fromEntries(related.map((j) => [j.relation, j.loader])));
      const where = and(inSchool ? inSchoolPrepared(table.schoolId) : undefined, after ? gt(table.id, sql.placeholder('afterId')) : undefined);
      type Statement = { execute(values: Record<string, unknown>): Promise<Record<string, unknown>[]> };
      // With joins, the rows are decoded straight into page rows where the driver adapter decodes rows
      // (pageDecoder: `decoded`); otherwise each decoded row is copied into one below.
      const prepared = builtOnce((db): { statement: Statement; decoded: boolean } => {
        let query: any = db.select(columns).from(table as PgTable);
        for (const { relation } of related) {
          const { table: other, key: column, where: condition } = joins[relation];
          query = query.leftJoin(other, and(eq(other.schoolId, table.schoolId), eq(other.id, column), condition));
        }
        query = query.where(where).orderBy(asc(table.id)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset'));
        const prepare = () => query.prepare(`${name}.${key}`) as Statement;
        if (related.length === 0) return { statement: prepare(), decoded: false };
        const { prepared: statement, decoded } = selectDecoding(
          (fields, kind) => pageDecoder(fields, kind, own, counting, related, joinedBy),
          prepare,
        );
        return { statement, decoded };
      });
      const execute = (ctx: Context, values: Record<string, unknown>) => prepared(ctx.db).statement.execute(values);
      built =
        related.length === 0
          ? { execute }
          : {
              // Each row without the joined columns (a new object: the rows keep one shape), its related rows
              // primed and kept on it (joinedRowOf) for the relation's field.
              execute: async (ctx, values) => {
                const { statement, decoded } = prepared(ctx.db);
                const rows = await statement.execute(values);
                if (decoded) return primeDecoded(ctx, related, rows);
                return rows.map((row) => {
                  const page: Record<string | symbol, unknown> = {};
                  for (let i = 0; i < own.length; i++) page[own[i]] = row[own[i]];
                  if (counting) page[TOTAL] = row[TOTAL];
                  for (let i = 0; i < related.length; i++) {
                    const j = related[i];
                    page[j.symbol] = primeJoined(ctx, j.loader, j.keys, j.names, row);
                  }
                  page[JOINED_BY] = joinedBy;
                  return page;
                });
              },
            };
      shapes.set(key, built);
    }
    return built;
  };
  // The shapes found for a column list and a record of joined relations, by their identity (askedNodeColumns and
  // the resolver's joined record give the same objects for every request of a document), then by their flags.
  const NONE = {};
  const byIdentity = new WeakMap<object, WeakMap<object, (Shape | undefined)[]>>();
  return (ctx, window, counting, keys, asked) => {
    const scope = schoolScope(ctx);
    if (scope === 'none') return null;
    const after = window.afterId !== null;
    const inSchool = scope !== 'all';
    let byAsked = byIdentity.get(keys ?? NONE);
    if (!byAsked) byIdentity.set(keys ?? NONE, (byAsked = new WeakMap()));
    let shapesOf = byAsked.get(asked ?? NONE);
    if (!shapesOf) byAsked.set(asked ?? NONE, (shapesOf = []));
    const flags = (inSchool ? 4 : 0) | (after ? 2 : 0) | (counting ? 1 : 0);
    let found = shapesOf[flags];
    if (!found) {
      const joined = asked ? Object.keys(joins).filter((j) => asked[j]).map((j) => [j, asked[j]] as [string, readonly string[]]) : [];
      found = shapesOf[flags] = shape(inSchool, after, counting, keys, joined);
    }
    const values: Record<string, unknown> = { limit: window.limit + 1, offset: window.offset };
    if (after) values.afterId = window.afterId;
    if (inSchool) values.schoolId = scope;
    return found.execute(ctx, values);
  };
}

/** A relation a page statement reads (schoolPage's `related`). */
interface JoinedRelation {
  relation: string;
  keys: readonly string[];
  names: readonly string[];
  loader: LoaderDefinition<number, unknown>;
  symbol: symbol;
}

/**
 * The page rows of a statement with joins, made by the driver adapter from its rows (groupedDecoder): each
 * row's own columns (then the count), and under each relation's key its joined row (`keys`, the id and
 * school first), or undefined without one (a null id); primeDecoded then primes them. Null (the copy after
 * decoding stays) when the adapter cannot make them.
 */
function pageDecoder(
  fields: SelectedField[],
  kind: RowDecoderKind,
  own: readonly string[],
  counting: boolean,
  related: readonly JoinedRelation[],
  joinedBy: object,
): Decoder | null {
  return groupedDecoder(fields, kind, {
    keys: counting ? [...own, TOTAL] : own,
    groups: related.map((j) => ({ key: j.symbol, keys: j.keys, names: j.names })),
    constants: [[JOINED_BY, joinedBy]],
  });
}

/**
 * Primes each relation's loader with the joined rows pageDecoder left on the page rows, as primeJoined
 * does: a row the request may not see (another school's) is taken off its page row and not primed.
 */
function primeDecoded(ctx: Context, related: readonly JoinedRelation[], rows: Record<string | symbol, unknown>[]): Record<string, unknown>[] {
  for (const j of related) {
    let loader: ReturnType<Context['loaders']['get']> | undefined;
    for (const row of rows) {
      const found = row[j.symbol] as { id: number; schoolId: unknown } | undefined;
      if (found === undefined) continue;
      if (typeof found.schoolId === 'number' && !inSchoolScope(ctx, found.schoolId)) {
        row[j.symbol] = undefined;
        continue;
      }
      (loader ??= ctx.loaders.get(j.loader)).prime(found.id, found);
    }
  }
  return rows as Record<string, unknown>[];
}

/**
 * Primes `loader` with a page row's joined row (its `keys`, read under `names`). A missing one (a null id)
 * is not primed: the loader answers it as it would have. Nor is a row the request may not see (another
 * school's): the loader reads it, and withholds it, itself. Returns the primed row (undefined: none).
 */
function primeJoined(
  ctx: Context,
  loader: LoaderDefinition<number, unknown>,
  keys: readonly string[],
  names: readonly string[],
  row: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const id = row[names[0]];
  const schoolId = row[names[1]];
  if (typeof id !== 'number' || (typeof schoolId === 'number' && !inSchoolScope(ctx, schoolId))) return undefined;
  const found: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) found[keys[i]] = row[names[i]];
  ctx.loaders.get(loader).prime(id, found);
  return found;
}

export interface PageOptions {
  /**
   * The page statements built once (schoolPage) of the table's rows of the request's school: given
   * only when `where` is exactly that (inSchool on the table's school), and with no parent.
   */
  schoolRows?: SchoolPage;
  /** The query asks for totalCount (asksFor(info, 'totalCount')): a page without a cursor counts in its own statement. */
  count?: boolean;
  /**
   * Only these columns of the rows (keys of the table, with the id and school: asked-columns.ts'
   * askedNodeColumns); every column when absent or null.
   */
  columns?: readonly string[] | null;
  /** The to-one relations of schoolRows' joins to read in its statement, with the columns their selections ask for (nodeRelationColumns). */
  joined?: Readonly<Record<string, readonly string[]>>;
  /**
   * The parent the list belongs to (the product of /school_products/:id/enrollments): `exists` is true
   * when the caller may see it. Checked in the page statement; `missing` is thrown when it is false.
   */
  parent?: { exists: SQL; missing: () => Error };
}

const TOTAL = '__total';

/**
 * One page of a table's rows matching `where`, in id order. Asked to, the page statement also counts
 * the matching rows (`count(*) over ()`, before limit and offset) and checks the parent: one row of the
 * parent's check, left-joined laterally to the page, so an empty page still tells a missing parent
 * (its error) from an empty list. Only a page past the end counts again, in a statement of its own.
 */
export async function paginate<TTable extends TableWithId>(
  ctx: Context,
  table: TTable,
  /** The rows' condition; a function of it when only a statement not built once reads it (schoolRows'). */
  condition: SQL | undefined | (() => SQL | undefined),
  args: ConnectionArgs,
  options: PageOptions = {},
): Promise<ConnectionData<TTable['$inferSelect'] & { id: number }>> {
  type Row = TTable['$inferSelect'] & { id: number };
  let window: Window;
  try {
    window = windowOf(args);
  } catch (error) {
    // A missing parent answers before a bad page, as when the parent was looked up first.
    if (options.parent) {
      const [{ found }] = await ctx.db.select({ found: sql<boolean>`${options.parent.exists}` }).from(sql`(select 1) as one`);
      if (!found) throw options.parent.missing();
    }
    throw error;
  }
  let made: SQL | undefined;
  let whereMade = false;
  const where = () => {
    if (!whereMade) [made, whereMade] = [typeof condition === 'function' ? condition() : condition, true];
    return made;
  };
  const conditions = () => and(where(), window.afterId !== null ? gt(table.id, window.afterId) : undefined);
  // With a cursor the page's rows are not all the matching rows: the count is a statement of its own.
  const counting = !!options.count && window.afterId === null;
  // The columns of a statement built here (schoolRows' are built once).
  const selected = () => {
    const columns = selectedColumns(table as PgTable, options.columns);
    if (counting) columns[TOTAL] = sql<number>`count(*) over ()`.as(TOTAL);
    return columns;
  };
  let rows: Row[];
  let total: number | undefined;
  if (options.parent) {
    const columns = selected();
    const parent = sql`(select ${options.parent.exists} as found) as parent`;
    const page = ctx.db
      .select(columns)
      .from(table as PgTable)
      .where(and(sql`parent.found`, conditions()))
      .orderBy(asc(table.id))
      .limit(window.limit + 1)
      .offset(window.offset)
      .as('page');
    const fields = Object.fromEntries(Object.keys(columns).map((k) => [k, (page as any)[k]]));
    const joined = await ctx.db
      .select({ found: sql<boolean>`parent.found`, row: fields })
      .from(parent)
      .leftJoinLateral(page, sql`true`)
      .orderBy(asc((page as any).id));
    if (!joined.length || !joined[0].found) throw options.parent.missing();
    rows = joined.flatMap((j) => (j.row && j.row.id !== null ? [j.row as Row] : []));
  } else {
    const prepared = options.schoolRows?.(ctx, window, counting, options.columns, options.joined);
    rows = (await (prepared ?? ctx.db
      .select(selected())
      .from(table as PgTable)
      .where(conditions())
      .orderBy(asc(table.id))
      .limit(window.limit + 1)
      .offset(window.offset))) as Row[];
  }
  if (counting) {
    if (rows.length) total = Number((rows[0] as any)[TOTAL]);
    else if (window.offset === 0) total = 0;
    for (const row of rows) delete (row as any)[TOTAL];
  }
  let counted: Promise<number> | undefined;
  const totalCount = () =>
    (counted ??=
      total !== undefined
        ? Promise.resolve(total)
        : ctx.db
            .select({ n: count() })
            .from(table as PgTable)
            .where(where())
            .then(([r]) => Number(r.n)));
  return toConnection(rows, window, totalCount);
}

/**
 * Loaders for a connection field of a parent (`School.schoolProducts`): one statement for the pages
 * of every parent in the batch (a window function numbers each parent's rows), one for the counts.
 * `scope` is the rows' condition beyond the parent; `'school'` is exactly the tenancy of `inSchool` on
 * the table's school, for which the page statements are built once (schoolScopedRead: the parents,
 * the cursor and the window their placeholders) rather than at every request.
 */
export function childConnectionLoaders<TTable extends TableWithId>(
  name: string,
  table: TTable,
  parentColumn: PgColumn,
  scopeOf: ((ctx: Context) => SQL | undefined) | 'school',
) {
  type Row = TTable['$inferSelect'] & { id: number };
  type Key = { parentId: number; window: Window };
  const parentKey = columnKey(table, parentColumn);
  const schoolColumn = (table as unknown as { schoolId?: PgColumn }).schoolId;
  if (scopeOf === 'school' && !schoolColumn) throw new Error(`${name}: a table without a school has no school scope`);
  const scope = scopeOf === 'school' ? (ctx: Context) => inSchool(ctx, schoolColumn!) : scopeOf;
  const pagesOf = (loaderName: string, selected?: Record<string, PgColumn>): LoaderDefinition<Key, Row[]> => {
    /** The pages of `parents` (rows after `afterId`), `rank > lo and rank <= hi` of each parent's rows, in id order. */
    const select = (db: Queryable, parents: SQL, afterId: number | SQL | null, where: SQL | undefined, lo: number | SQL, hi: number | SQL) => {
      const ranked = db
        .select({
          ...(selected ?? getTableColumns(table as PgTable)),
          rank: sql<number>`row_number() over (partition by ${parentColumn} order by ${table.id})`.as('rank'),
        })
        .from(table as PgTable)
        .where(and(parents, afterId !== null ? gt(table.id, afterId) : undefined, where))
        .as('ranked');
      return db
        .select()
        .from(ranked)
        .where(sql`${ranked.rank} > ${lo} and ${ranked.rank} <= ${hi}`)
        .orderBy(asc((ranked as any).id));
    };
    // Built once, without and with a cursor, for the tenancy of inSchool ('school').
    const placeholders = (after: boolean) =>
      schoolScopedRead<Row>(
        table as unknown as PgTable & { id: PgColumn; schoolId: PgColumn },
        `${loaderName}${after ? '.after' : ''}`,
        (db, where) => select(db, where!, null, undefined, sql`${sql.placeholder('lo')}`, sql`${sql.placeholder('hi')}`),
        and(inListPlaceholder(parentColumn, 'parentIds'), after ? gt(table.id, sql.placeholder('afterId')) : undefined),
      );
    const prepared = scopeOf === 'school' ? { first: placeholders(false), after: placeholders(true) } : null;
    return defineLoader(
      loaderName,
      async (ctx, keys) => {
        const byWindow = new Map<string, Key[]>();
        for (const key of keys) {
          const k = JSON.stringify(key.window);
          const group = byWindow.get(k);
          if (group) group.push(key);
          else byWindow.set(k, [key]);
        }
        const found = new Map<string, Row[]>();
        for (const [wkey, group] of byWindow) {
          const { limit, offset, afterId } = group[0].window;
          const parentIds = [...new Set(group.map((g) => g.parentId))];
          const values = { parentIds, lo: offset, hi: offset + limit + 1, ...(afterId !== null ? { afterId } : {}) };
          const rows =
            (await (afterId !== null ? prepared?.after : prepared?.first)?.(ctx, values)) ??
            (await select(ctx.db, inArray(parentColumn, parentIds), afterId, scope(ctx), offset, offset + limit + 1));
          for (const row of rows as any[]) {
            const key = `${wkey}|${row[parentKey]}`;
            const list = found.get(key);
            if (list) list.push(row as Row);
            else found.set(key, [row as Row]);
          }
        }
        return keys.map((k) => found.get(`${JSON.stringify(k.window)}|${k.parentId}`) ?? []);
      },
      (key) => `${key.parentId}|${JSON.stringify(key.window)}`,
    );
  };
  const counts: LoaderDefinition<number, number> = defineLoader(`${name}.count`, async (ctx, parentIds) => {
    const rows = await ctx.db
      .select({ parentId: parentColumn, n: count() })
      .from(table as PgTable)
      .where(and(inArray(parentColumn, [...parentIds]), scope(ctx)))
      .groupBy(parentColumn);
    const byParent = new Map(rows.map((r) => [Number(r.parentId), Number(r.n)]));
    return parentIds.map((id) => byParent.get(id) ?? 0);
  });

  const pages = pagesOf(`${name}.page`);
  // The pages of only some columns (askedNodeColumns), with the id, the parent's key and the school.
  const keep = ['id', parentKey, ...('schoolId' in getTableColumns(table as PgTable) ? ['schoolId'] : [])];
  const narrowedPages = narrowedVariants(`${name}.page`, table as PgTable, keep, pagesOf);

  /** The connection of one parent's children; of only `columns` of them (keys of the table) when given. */
  return async function connectionOf(ctx: Context, parentId: number, args: ConnectionArgs, columns?: readonly string[] | null): Promise<ConnectionData<Row>> {
    const window = windowOf(args);
    const rows = await ctx.loaders.get(columns ? narrowedPages(columns) : pages).load({ parentId, window });
    return toConnection(rows, window, () => ctx.loaders.get(counts).load(parentId));
  };
}
