import 'reflect-metadata';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type ClassType, Ctx, Extensions, FieldResolver, Info, Resolver, Root } from 'type-graphql';
import { askedColumns } from './asked-columns.js';
import type { Context, LoaderDefinition } from './context.js';
import { loadMany, narrowedTo } from './loaders.js';
import { registerLinkedIdsField } from './linked-ids.js';
import { joinedRowKey, joinedRowOf } from './pagination.js';

/** A type function as `@FieldResolver` takes it. */
type ReturnTypeFunc = NonNullable<Parameters<typeof FieldResolver>[0]>;

/** A field of a type that only loads related rows through a batch loader, keyed by a column of the parent row. */
export interface Relation<TRow> {
  /** The field's type function, as `@FieldResolver` takes it (`() => Activity`, `() => [ExamQuestion]`). */
  type: ReturnTypeFunc;
  loader: LoaderDefinition<number, unknown>;
  /** The parent row's column that holds the loader's key (`activityId`; `id` for its children). */
  key: keyof TRow & string;
  /**
   * Rows linked through a list of ids (a product's categories): `through` loads the ids for the key,
   * `loader` (a by-id loader) the rows, those not visible left out.
   */
  through?: LoaderDefinition<number, number[]>;
  /** A nullable field: a null key is null, with no load. */
  nullable?: boolean;
  description?: string;
  /** REST shows the related rows inside the parent's replies (`@Extensions({ rest: 'embed' })`, rest/compile.ts). */
  embed?: boolean;
}

/** A by-id loader that reads only the columns asked for (loaders.ts' byIdLoader, narrowed). */
type Narrowable = LoaderDefinition<number, unknown> & { table: PgTable; narrowed(columns: readonly string[]): LoaderDefinition<number, unknown> };

const narrowable = (loader: LoaderDefinition<number, unknown>): loader is Narrowable =>
  typeof (loader as Partial<Narrowable>).narrowed === 'function' && !!(loader as Partial<Narrowable>).table;

/** Whether the relation's field reads its row through a loader narrowed to the columns the selection asks for (it then takes the info). */
const readsAskedColumns = <TRow>({ loader, through }: Relation<TRow>) => !through && narrowable(loader);

function resolveRelation<TRow>(field: string, relation: Relation<TRow>) {
  const { loader, key, through, nullable } = relation;
  if (through) {
    return async (row: TRow, ctx: Context) =>
      loadMany(ctx, loader as LoaderDefinition<number, unknown>, await ctx.loaders.get(through).load(row[key] as number));
  }
  if (readsAskedColumns(relation) && narrowable(loader)) {
    // Only the columns the selection asks for (plain column fields; every column otherwise, or called without the info), with the id and school.
    // A page row whose statement read the related row into that very loader (pagination.ts' joinedRowOf) hands it over at once.
    // The narrowed loader by the field's one node (askedColumns gives the same columns for it every time).
    const byNode = new WeakMap<FieldNode, LoaderDefinition<number, unknown>>();
    const narrowedFor = (info: GraphQLResolveInfo | undefined) => {
      if (!info) return loader;
      const node = info.fieldNodes.length === 1 ? info.fieldNodes[0] : undefined;
      let narrowed = node && byNode.get(node);
      if (!narrowed) {
        narrowed = narrowedTo<LoaderDefinition<number, unknown>>(loader, askedColumns(info, loader.table, []));
        if (node) byNode.set(node, narrowed);
      }
      return narrowed;
    };
    const joinedKey = joinedRowKey(field);
    return (row: TRow, ctx: Context, info?: GraphQLResolveInfo) => {
      const id = row[key] as number | null;
      if (nullable && id === null) return null;
      const narrowed = narrowedFor(info);
      const joined = joinedRowOf(row as object, joinedKey, narrowed);
      return joined !== undefined ? joined : ctx.loaders.get(narrowed).load(id as number);
    };
  }
  return (row: TRow, ctx: Context) => {
    const id = row[key] as number | null;
    return nullable && id === null ? null : ctx.loaders.get(loader).load(id as number);
  };
}

/**
 * A class decorator for a resolver (under its `@Resolver(() => Type)`): adds one field resolver per relation,
 * each `ctx.loaders.get(loader).load(row[key])`, so a field that only loads its related rows is a line of a table
 * rather than a method. Fields that compute anything stay methods of the class.
 */
export function RelationFields<TRow>(relations: Record<string, Relation<TRow>>) {
  return (target: abstract new (...args: never[]) => object) => {
    const proto = target.prototype as Record<string, unknown>;
    for (const [field, relation] of Object.entries(relations)) {
      const { type, nullable, description, embed } = relation;
      proto[field] = resolveRelation(field, relation);
      // A by-id read of the parent asked for this field may read the linked ids in its own statement (linked-ids.ts).
      if (relation.key === 'id' && !relation.through) registerLinkedIdsField(field, relation.loader);
      const options = { ...(nullable ? { nullable } : {}), ...(description ? { description } : {}) };
      const descriptor = Object.getOwnPropertyDescriptor(proto, field)!;
      FieldResolver(type, options)(proto, field, descriptor);
      if (embed) Extensions({ rest: 'embed' })(proto, field, descriptor);
      Root()(proto, field, 0);
      Ctx()(proto, field, 1);
      if (readsAskedColumns(relation)) Info()(proto, field, 2);
    }
  };
}

/** A resolver of `Type` that holds only relation fields (`RelationFields`), for a type whose other resolver is long enough. */
export function relationsResolver<TRow>(Type: ClassType, relations: Record<string, Relation<TRow>>): ClassType {
  @Resolver(() => Type)
  @RelationFields<TRow>(relations)
  class TypeRelationsResolver {}
  Object.defineProperty(TypeRelationsResolver, 'name', { value: `${Type.name}RelationsResolver` });
  return TypeRelationsResolver;
}
