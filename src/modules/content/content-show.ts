import 'reflect-metadata';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, ID, Info, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { byIdWithLinks } from '../../graphql/linked-ids.js';
import { fieldName, type Resource } from '../../graphql/resource-resolver.js';
import { scopedRow } from './content-read.js';
import type { ContentScope } from '../../content/scope.js';
import { contentScope } from './content-scope.js';

/** The show of a resource read through a scope; its type, loader by id and table are the resource's (`Base.resource`). */
export interface ScopedShowSpec {
  description: string;
  /**
   * The condition on the resource table's rows that a product or enrollment scope shows (src/content/scope.ts' conditions),
   * given the table's id column (`courseCondition` takes it).
   */
  inScope: (ctx: Context, scope: ContentScope, id: PgColumn) => SQL | undefined;
  /** Throws when the caller may not read in this scope (students need an enrollment: requireEnrollmentForStudent). */
  guard?: (ctx: Context, scope: ContentScope) => void;
  /** What the row read in the scope shows (a lesson through an enrollment: marked released or locked). */
  shown?: (ctx: Context, scope: ContentScope, row: object) => Promise<object>;
}

/** A resolver base that names its resource (a `resourceResolver`). */
type ResourceBase = (abstract new (...args: any[]) => object) & { resource: Resource<PgTable & { id: PgColumn; schoolId: PgColumn }> };

/**
 * Adds to a resolver base (a `resourceResolver` without its own show) the show query of content read
 * through a scope: `<key>(id, schoolProductId, enrollmentId)`, the school's row, or only a row of that
 * product's or enrollment's content (404 otherwise), carrying the scope to the fields under it.
 */
export function withScopedShow<TBase extends ResourceBase>(Base: TBase, spec: ScopedShowSpec) {
  const { type, name, byId, table } = Base.resource;

  @Resolver()
  abstract class ScopedShowResolver extends Base {
    async showInScope(id: string, schoolProductId: string | null | undefined, enrollmentId: string | null | undefined, ctx: Context, info?: GraphQLResolveInfo) {
      const rowId = parseId(id, name);
      const scope = await contentScope(ctx, { schoolProductId, enrollmentId });
      spec.guard?.(ctx, scope);
      // The row's linked ids asked beside it (a course's courseModulesIds) are read in the same statement.
      const row = await scopedRow(ctx, scope, byIdWithLinks(info, byId), table, rowId, spec.inScope(ctx, scope, table.id), name);
      return spec.shown ? spec.shown(ctx, scope, row) : row;
    }
  }

  const proto = ScopedShowResolver.prototype;
  Query(() => type, { name: fieldName(name), description: spec.description })(
    proto,
    'showInScope',
    Object.getOwnPropertyDescriptor(proto, 'showInScope')!,
  );
  Arg('id', () => ID)(proto, 'showInScope', 0);
  Arg('schoolProductId', () => ID, { nullable: true })(proto, 'showInScope', 1);
  Arg('enrollmentId', () => ID, { nullable: true })(proto, 'showInScope', 2);
  Ctx()(proto, 'showInScope', 3);
  Info()(proto, 'showInScope', 4);
  return ScopedShowResolver;
}
