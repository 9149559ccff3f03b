import 'reflect-metadata';
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, type ClassType, Ctx, getMetadataStorage, ID, Info, Mutation, Query, Resolver } from 'type-graphql';
import { inSchool, writeSchool } from '../auth/tenancy.js';
import type { Queryable } from '../db/client.js';
import type { Context, LoaderDefinition } from './context.js';
import { parseId } from './ids.js';
import { byIdWithLinks } from './linked-ids.js';
import { type ByIdLoader, findOr404 } from './loaders.js';
import { mutate, Payload } from './mutation.js';
import { deleteOwned, lockOwned } from './owned.js';
import { ConnectionArgs, paginate } from './pagination.js';

type Owned = PgTable & { id: PgColumn; schoolId: PgColumn };
/** The columns to write: values, or SQL computed by the statement (a position after the last). */
type Values<T extends Owned> = { [K in keyof T['$inferInsert']]?: T['$inferInsert'][K] | SQL };
type Operation = 'show' | 'list' | 'create' | 'update' | 'delete';
/** A write queued by `columns` (`scope.afterWrite`), given the row once it is written. */
type AfterWrite<T extends Owned> = (row: T['$inferSelect']) => Promise<unknown>;

/** A type's field name (`ForumSection` → `forumSection`): the show query, the payload's field. */
export const fieldName = (typeName: string) => typeName[0].toLowerCase() + typeName.slice(1);

/** The object or input type declared under a GraphQL name (read when the schema is built, once every type is declared). */
function typeNamed(kind: 'objectTypes' | 'inputTypes', typeName: string): ClassType {
  const found = getMetadataStorage()[kind].find((t) => t.name === typeName);
  if (!found) throw new Error(`No type is named ${typeName}`);
  return found.target as ClassType;
}

/** The writes one create or update queues, run in order once its row is written. */
function writeQueue<T extends Owned>() {
  const queued: AfterWrite<T>[] = [];
  return {
    afterWrite: (write: AfterWrite<T>) => void queued.push(write),
    run: async (row: T['$inferSelect']) => {
      for (const write of queued) await write(row);
    },
  };
}

/** What a resource's `columns` knows besides the input: the school written to and, on update, the row as it is. */
export interface ColumnsScope<T extends Owned> {
  ctx: Context;
  schoolId: number;
  current?: T['$inferSelect'];
  /** On a create inside a parent named by its argument, the parent's id (none when an optional argument is left out). */
  parentId?: number;
  /** The same parent's row, as `parent.byId` read it (a question's activity and type, to check an answer against). */
  parent?: { id: number };
  /**
   * Queues a write checked here with the columns (a child list given in the input), run in the transaction once the row is
   * inserted or updated. An update that changes no column writes nothing: columns that queue one on update give one to change.
   */
  afterWrite: (write: AfterWrite<T>) => void;
}

/** A resource created inside a parent named by an argument (`createLibraryResource(libraryId:, input:)`). */
export interface ParentSpec<T extends Owned> {
  /** The argument (`libraryId`), before `input` (and before the connection arguments when `inList`). */
  arg: string;
  /** The parent's GraphQL name, for parseId and the 404 (`Library`). */
  type: string;
  byId: LoaderDefinition<number, { id: number } | null>;
  /** The column that holds the parent's id (`libraryId`). */
  column: keyof T['$inferInsert'] & string;
  /** The list query takes the parent as a required argument too (the parent's rows of the school). */
  inList?: boolean;
  /** The create's argument may be left out: `columns` then finds the parent in the input and writes its column. */
  optional?: boolean;
}

/** A resource's type, its GraphQL name, its loader by id and its table, as its resolver base holds them (`ResourceResolver.resource`). */
export interface Resource<T extends Owned> {
  type: ClassType;
  name: string;
  byId: LoaderDefinition<number, T['$inferSelect'] | null>;
  table: T;
}

/** The write `spec.written` follows. */
export interface Written<TInput> {
  op: 'create' | 'update' | 'delete';
  ctx: Context;
  input?: TInput;
}

/**
 * The table and its tenancy-scoped loader by id: a `byIdLoader` names its table, so the table is given only beside
 * another loader (one that reads more than a select by id).
 */
export type ResourceTable<T extends Owned> =
  | { table?: undefined; byId: ByIdLoader<T> }
  | { table: T; byId: LoaderDefinition<number, T['$inferSelect'] | null> };

export type ResourceSpec<T extends Owned, TInput extends object, TArgs extends ConnectionArgs> = ResourceTable<T> & ResourceFields<T, TInput, TArgs>;

interface ResourceFields<T extends Owned, TInput extends object, TArgs extends ConnectionArgs> {
  /** The GraphQL object type, its connection (a resource with a list) and its input: `<Name>Connection` and `<Name>Input` unless given. */
  type: ClassType;
  connection?: ClassType;
  input?: ClassType<TInput>;
  /** The update's input type when it is not the create's (a create that takes more). */
  updateInput?: ClassType<NoInfer<TInput>>;
  /** The type's GraphQL name (parseId, 404s); the class name unless given. */
  name?: string;
  /**
   * The show query and the payload's field (`forum`), and the list query (`forums`), if any: the name with a lower-case
   * first letter, and that with an `s`, unless given (`plural: 'categories'`).
   */
  key?: string;
  plural?: string;
  /** Checks the input (as the row will be) and maps it to the columns to write; `scope.current` on update. */
  columns: (tx: Queryable, input: TInput, scope: ColumnsScope<T>) => Values<T> | Promise<Values<T>>;
  /** Throws when the caller may not change the row (an author's own posts): checked on the locked row before an update or a delete. */
  mayChange?: (ctx: Context, current: T['$inferSelect'], tx: Queryable) => void | Promise<void>;
  parent?: ParentSpec<T>;
  /** The list's arguments and its own filters (default: the connection arguments, no filter); the base always keeps to the school's rows. */
  listArgs?: ClassType<TArgs>;
  listWhere?: (ctx: Context, args: TArgs) => SQL | undefined | Promise<SQL | undefined>;
  /** What a create returns, from the new row (a secret shown once); the row itself unless given. */
  created?: (tx: Queryable, row: T['$inferSelect'], ctx: Context) => Promise<object>;
  /**
   * What goes with a written row in the same transaction (links, events): after the insert, the
   * update (not when an update changes nothing) or the delete; `input` on create and update.
   */
  written?: (tx: Queryable, row: T['$inferSelect'], change: Written<TInput>) => Promise<unknown>;
  /** The payload type when another file declares it (`PathPayload`); `<Name>Payload` unless given. */
  payload?: ClassType;
  descriptions?: Partial<Record<Operation, string>>;
  /** Operations the resource does not have (its resolver writes them itself, or they do not exist). */
  omit?: Operation[];
}

/** A resolver class to extend: abstract, with any constructor. */
type AbstractClass = abstract new (...args: any[]) => object;

/**
 * The usual resource's root fields, `<key>(id)`, `<plural>(...)`, `create<Name>`, `update<Name>`
 * and `delete<Name>`, as an abstract resolver to extend (type-graphql's resolver inheritance):
 * reads through the tenancy-scoped loader and `inSchool`, lists as connections, writes in one
 * transaction on a row of the written school (`lockOwned`, `deleteOwned`) with the `{ <key>, errors }`
 * payload. The names are those of the role matrix's rows. Each operation is a small abstract class
 * with its decorators in place; the base chains those the resource has (all but `spec.omit`). The
 * concrete resolver adds what is particular to the resource: its field resolvers and special actions;
 * `spec.columns` holds its checks and column mapping.
 */
export function resourceResolver<T extends Owned, TInput extends object, TArgs extends ConnectionArgs = ConnectionArgs>(
  spec: ResourceSpec<T, TInput, TArgs>,
) {
  const name = spec.name ?? spec.type.name;
  const key = spec.key ?? fieldName(name);
  const plural = spec.plural ?? `${key}s`;
  const { parent } = spec;
  const table = spec.table ?? (spec.byId as ByIdLoader<T>).table;
  const input = () => spec.input ?? typeNamed('inputTypes', `${name}Input`);
  const connection = () => spec.connection ?? typeNamed('objectTypes', `${name}Connection`);
  const listArgs = () => spec.listArgs ?? ConnectionArgs;
  const ResourcePayload = spec.payload ?? Payload(spec.type, key, `${name}Payload`);
  const description = (op: Operation) => (spec.descriptions?.[op] ? { description: spec.descriptions[op] } : {});

  async function parentOf(ctx: Context, id: string) {
    return findOr404(ctx, parent!.byId, parseId(id, parent!.type), parent!.type);
  }

  async function list(parentId: string | null, args: TArgs, ctx: Context) {
    const owner = parentId !== null ? await parentOf(ctx, parentId) : null;
    const where = and(
      owner ? eq(table[parent!.column as 'id'], owner.id) : undefined,
      inSchool(ctx, table.schoolId),
      spec.listWhere ? await spec.listWhere(ctx, args) : undefined,
    );
    return paginate(ctx, table, where, args);
  }

  async function create(parentId: string | null | undefined, input: TInput, ctx: Context) {
    const schoolId = writeSchool(ctx);
    const owner = parentId !== null && parentId !== undefined ? await parentOf(ctx, parentId) : null;
    return mutate(ctx, key, async (tx) => {
      const { afterWrite, run } = writeQueue<T>();
      const parentScope = owner ? { parentId: owner.id, parent: owner } : {};
      const values = await spec.columns(tx, input, { ctx, schoolId, afterWrite, ...parentScope });
      const [row] = await tx
        .insert(table)
        .values({ ...values, schoolId, ...(owner ? { [parent!.column]: owner.id } : {}) } as T['$inferInsert'])
        .returning();
      await run(row as T['$inferSelect']);
      await spec.written?.(tx, row as T['$inferSelect'], { op: 'create', ctx, input });
      return spec.created ? spec.created(tx, row as T['$inferSelect'], ctx) : row;
    });
  }

  function update(id: string, input: TInput, ctx: Context) {
    const rowId = parseId(id, name);
    return mutate(ctx, key, async (tx) => {
      const current = await lockOwned(tx, ctx, table, rowId, name);
      await spec.mayChange?.(ctx, current, tx);
      const { afterWrite, run } = writeQueue<T>();
      const schoolId = (current as { schoolId: number }).schoolId;
      const values = await spec.columns(tx, input, { ctx, schoolId, current, afterWrite });
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx.update(table as PgTable).set(values).where(eq(table.id, rowId)).returning();
      await run(row as T['$inferSelect']);
      await spec.written?.(tx, row as T['$inferSelect'], { op: 'update', ctx, input });
      return row;
    });
  }

  function remove(id: string, ctx: Context) {
    const rowId = parseId(id, name);
    return mutate(ctx, key, async (tx) => {
      if (spec.mayChange) await spec.mayChange(ctx, await lockOwned(tx, ctx, table, rowId, name), tx);
      const row = await deleteOwned(tx, ctx, table, rowId, name);
      await spec.written?.(tx, row, { op: 'delete', ctx });
      return row;
    });
  }

  @Resolver()
  abstract class ResourceResolver {
    static readonly Payload = ResourcePayload;
    /** What the resource reads (its type, GraphQL name, loader by id and table), for a base that adds to it (`withScopedShow`). */
    static readonly resource: Resource<T> = { type: spec.type, name, byId: spec.byId, table };
  }

  // The operations, each an abstract class over the one before (the root fields keep the order show, list, create, update, delete).
  const operations: Record<Operation, (Base: AbstractClass) => AbstractClass> = {
    show: (Base) => {
      @Resolver()
      abstract class Show extends Base {
        @Query(() => spec.type, { name: key, ...description('show') })
        showOne(@Arg('id', () => ID) id: string, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
          // The row's linked ids asked beside it (a product's categoryIds) are read in the same statement.
          return findOr404(ctx, byIdWithLinks(info, spec.byId), parseId(id, name), name);
        }
      }
      return Show;
    },
    list: (Base) => {
      if (parent?.inList) {
        @Resolver()
        abstract class ListOfParent extends Base {
          @Query(() => connection(), { name: plural, ...description('list') })
          listAll(@Arg(parent!.arg, () => ID) parentId: string, @Args(() => listArgs()) args: TArgs, @Ctx() ctx: Context) {
            return list(parentId, args, ctx);
          }
        }
        return ListOfParent;
      }
      @Resolver()
      abstract class List extends Base {
        @Query(() => connection(), { name: plural, ...description('list') })
        listAll(@Args(() => listArgs()) args: TArgs, @Ctx() ctx: Context) {
          return list(null, args, ctx);
        }
      }
      return List;
    },
    create: (Base) => {
      if (parent) {
        @Resolver()
        abstract class CreateInParent extends Base {
          @Mutation(() => ResourcePayload, { name: `create${name}`, ...description('create') })
          createOne(
            @Arg(parent!.arg, () => ID, { nullable: parent!.optional }) parentId: string | null | undefined,
            @Arg('input', () => input()) values: TInput,
            @Ctx() ctx: Context,
          ) {
            return create(parentId, values, ctx);
          }
        }
        return CreateInParent;
      }
      @Resolver()
      abstract class Create extends Base {
        @Mutation(() => ResourcePayload, { name: `create${name}`, ...description('create') })
        createOne(@Arg('input', () => input()) values: TInput, @Ctx() ctx: Context) {
          return create(null, values, ctx);
        }
      }
      return Create;
    },
    update: (Base) => {
      @Resolver()
      abstract class Update extends Base {
        @Mutation(() => ResourcePayload, { name: `update${name}`, ...description('update') })
        updateOne(@Arg('id', () => ID) id: string, @Arg('input', () => spec.updateInput ?? input()) values: TInput, @Ctx() ctx: Context) {
          return update(id, values, ctx);
        }
      }
      return Update;
    },
    delete: (Base) => {
      @Resolver()
      abstract class Delete extends Base {
        @Mutation(() => ResourcePayload, { name: `delete${name}`, ...description('delete') })
        deleteOne(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
          return remove(id, ctx);
        }
      }
      return Delete;
    },
  };
  /** The operations the base gives, typed as the resolver's callers see them (a parent's id first where the resource lives in one). */
  interface Operations {
    showOne(id: string, ctx: Context): ReturnType<typeof findOr404<T>>;
    listAll(...params: [args: TArgs, ctx: Context] | [parentId: string, args: TArgs, ctx: Context]): ReturnType<typeof list>;
    createOne(...params: [values: TInput, ctx: Context] | [parentId: string | null | undefined, values: TInput, ctx: Context]): ReturnType<typeof create>;
    updateOne(id: string, values: TInput, ctx: Context): ReturnType<typeof update>;
    deleteOne(id: string, ctx: Context): ReturnType<typeof remove>;
  }
  const kept = (Object.keys(operations) as Operation[]).filter((op) => !spec.omit?.includes(op));
  return kept.reduce<AbstractClass>((Base, op) => operations[op](Base), ResourceResolver) as Pick<typeof ResourceResolver, 'Payload' | 'resource'> &
    (abstract new () => Operations);
}
