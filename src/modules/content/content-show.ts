import 'reflect-metadata';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { Arg, type ClassType, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { Context, LoaderDefinition } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { fieldName } from '../../graphql/resource-resolver.js';
import { scopedRow } from './content-read.js';
import { type ContentScope, contentScope } from './content-scope.js';

export interface ScopedShowSpec<V extends object> {
  /** The GraphQL object type; its class name names the query (`CourseModule` → `courseModule`), parseId and the 404. */
  type: ClassType;
  description: string;
  byId: LoaderDefinition<number, V | null>;
  table: PgTable & { id: PgColumn };
  /** The condition on `table`'s rows that a product or enrollment scope shows (content-scope.ts' conditions). */
  inScope: (ctx: Context, scope: ContentScope) => SQL | undefined;
  /** Throws when the caller may not read in this scope (students need an enrollment: requireEnrollmentForStudent). */
  guard?: (ctx: Context, scope: ContentScope) => void;
}

type AbstractClass = abstract new (...args: any[]) => object;

/**
 * Adds to a resolver base (a `resourceResolver` without its own show) the show query of content read
 * through a scope: `<key>(id, schoolProductId, enrollmentId)`, the school's row, or only a row of that
 * product's or enrollment's content (404 otherwise), carrying the scope to the fields under it.
 */
export function withScopedShow<TBase extends AbstractClass, V extends object>(Base: TBase, spec: ScopedShowSpec<V>) {
  const name = spec.type.name;

  @Resolver()
  abstract class ScopedShowResolver extends Base {
    async showInScope(id: string, schoolProductId: string | null | undefined, enrollmentId: string | null | undefined, ctx: Context) {
      const rowId = parseId(id, name);
      const scope = await contentScope(ctx, { schoolProductId, enrollmentId });
      spec.guard?.(ctx, scope);
      return scopedRow(ctx, scope, spec.byId, spec.table, rowId, spec.inScope(ctx, scope), name);
    }
  }

  const proto = ScopedShowResolver.prototype;
  Query(() => spec.type, { name: fieldName(name), description: spec.description })(
    proto,
    'showInScope',
    Object.getOwnPropertyDescriptor(proto, 'showInScope')!,
  );
  Arg('id', () => ID)(proto, 'showInScope', 0);
  Arg('schoolProductId', () => ID, { nullable: true })(proto, 'showInScope', 1);
  Arg('enrollmentId', () => ID, { nullable: true })(proto, 'showInScope', 2);
  Ctx()(proto, 'showInScope', 3);
  return ScopedShowResolver;
}
