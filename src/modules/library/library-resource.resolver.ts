import 'reflect-metadata';
import { and, eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { paginate } from '../../graphql/pagination.js';
import { existingId } from '../../graphql/references.js';
import { Checks } from '../../graphql/validation.js';
import { LibraryResourceInput, LibraryResourcesArgs } from './library.input.js';
import { libraryById, libraryResourceById } from './library.loaders.js';
import { httpUrl, optionalText } from './library.rules.js';
import { libraries, libraryResources, type LibraryResourceRow } from './library.table.js';
import { Library, LibraryResource, LibraryResourceConnection } from './library.type.js';

export const LibraryResourcePayload = Payload(LibraryResource, 'libraryResource');

/** The columns a create or an update writes, checked (title required on create, not clearable on update). */
function resourceColumns(input: LibraryResourceInput, creating: boolean) {
  const checks = new Checks();
  if (creating) checks.required('title', input.title);
  else checks.notCleared('title', input.title);
  const url = httpUrl(checks, 'url', input.url);
  checks.throwIfAny();
  const values: Partial<typeof libraryResources.$inferInsert> = {};
  if (input.title != null) values.title = input.title.trim();
  if (input.kind !== undefined) values.kind = optionalText(input.kind);
  if (url !== undefined) values.url = url;
  return values;
}

@Resolver(() => LibraryResource)
export class LibraryResourceResolver {
  @Query(() => LibraryResource)
  libraryResource(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, libraryResourceById, parseId(id, 'LibraryResource'), 'LibraryResource');
  }

  @Query(() => LibraryResourceConnection, { description: "The school's library resources, or those of one library." })
  async libraryResources(@Args(() => LibraryResourcesArgs) args: LibraryResourcesArgs, @Ctx() ctx: Context) {
    const library = args.libraryId != null ? await findOr404(ctx, libraryById, parseId(args.libraryId, 'Library'), 'Library') : null;
    return paginate(
      ctx,
      libraryResources,
      and(inSchool(ctx, libraryResources.schoolId), library ? eq(libraryResources.libraryId, library.id) : undefined),
      args,
    );
  }

  @Mutation(() => LibraryResourcePayload, { description: 'Adds a resource to a library of the school (the argument names the library).' })
  async createLibraryResource(
    @Arg('libraryId', () => ID) libraryId: string,
    @Arg('input', () => LibraryResourceInput) input: LibraryResourceInput,
    @Ctx() ctx: Context,
  ) {
    const schoolId = writeSchool(ctx);
    const library = await findOr404(ctx, libraryById, parseId(libraryId, 'Library'), 'Library');
    return mutate(ctx, 'libraryResource', async (tx) => {
      const values = resourceColumns(input, true);
      const [row] = await tx
        .insert(libraryResources)
        .values({ ...values, title: values.title!, schoolId, libraryId: library.id })
        .returning();
      return row;
    });
  }

  @Mutation(() => LibraryResourcePayload, { description: 'Updates a resource; a libraryId moves it to another library of the school.' })
  updateLibraryResource(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => LibraryResourceInput) input: LibraryResourceInput,
    @Ctx() ctx: Context,
  ) {
    const resourceId = parseId(id, 'LibraryResource');
    return mutate(ctx, 'libraryResource', async (tx) => {
      const current = await lockOwned(tx, ctx, libraryResources, resourceId, 'LibraryResource');
      const checks = new Checks().notCleared('libraryId', input.libraryId);
      const libraryId = await existingId(tx, checks, 'libraryId', libraries, input.libraryId, current.schoolId);
      checks.throwIfAny();
      const changes = { ...resourceColumns(input, false), ...(libraryId ? { libraryId } : {}) };
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx.update(libraryResources).set(changes).where(eq(libraryResources.id, resourceId)).returning();
      return row;
    });
  }

  @Mutation(() => LibraryResourcePayload, { description: 'Deletes a resource; in_use while a school product points at it.' })
  deleteLibraryResource(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const resourceId = parseId(id, 'LibraryResource');
    return mutate(ctx, 'libraryResource', (tx) => deleteOwned(tx, ctx, libraryResources, resourceId, 'LibraryResource'));
  }

  @FieldResolver(() => Library)
  async library(@Root() resource: LibraryResourceRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(libraryById).load(resource.libraryId);
  }
}
