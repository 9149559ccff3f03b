import 'reflect-metadata';
import { eq } from 'drizzle-orm';
import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { inSchool, writeSchool } from '../../auth/tenancy.js';
import type { Context } from '../../graphql/context.js';
import { parseId } from '../../graphql/ids.js';
import { findOr404 } from '../../graphql/loaders.js';
import { mutate, Payload } from '../../graphql/mutation.js';
import { deleteOwned, lockOwned } from '../../graphql/owned.js';
import { ConnectionArgs, paginate } from '../../graphql/pagination.js';
import { Checks } from '../../graphql/validation.js';
import { LibraryInput } from './library.input.js';
import { libraryById, resourcesOfLibrary } from './library.loaders.js';
import { libraries, type LibraryRow } from './library.table.js';
import { Library, LibraryConnection, LibraryResource } from './library.type.js';

export const LibraryPayload = Payload(Library, 'library');

@Resolver(() => Library)
export class LibraryResolver {
  @Query(() => Library)
  library(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    return findOr404(ctx, libraryById, parseId(id, 'Library'), 'Library');
  }

  @Query(() => LibraryConnection, { description: "The school's libraries (the wizard creates the first one)." })
  libraries(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() ctx: Context) {
    return paginate(ctx, libraries, inSchool(ctx, libraries.schoolId), args);
  }

  @Mutation(() => LibraryPayload)
  createLibrary(@Arg('input', () => LibraryInput) input: LibraryInput, @Ctx() ctx: Context) {
    const schoolId = writeSchool(ctx);
    return mutate(ctx, 'library', async (tx) => {
      new Checks().required('name', input.name).throwIfAny();
      const [row] = await tx.insert(libraries).values({ schoolId, name: input.name!.trim() }).returning();
      return row;
    });
  }

  @Mutation(() => LibraryPayload)
  updateLibrary(@Arg('id', () => ID) id: string, @Arg('input', () => LibraryInput) input: LibraryInput, @Ctx() ctx: Context) {
    const libraryId = parseId(id, 'Library');
    return mutate(ctx, 'library', async (tx) => {
      const current = await lockOwned(tx, ctx, libraries, libraryId, 'Library');
      new Checks().notCleared('name', input.name).throwIfAny();
      if (input.name === undefined) return current;
      const [row] = await tx.update(libraries).set({ name: input.name!.trim() }).where(eq(libraries.id, libraryId)).returning();
      return row;
    });
  }

  @Mutation(() => LibraryPayload, {
    description: 'Deletes a library with its resources and host credentials; in_use while a published product still uses one of its resources.',
  })
  deleteLibrary(@Arg('id', () => ID) id: string, @Ctx() ctx: Context) {
    const libraryId = parseId(id, 'Library');
    return mutate(ctx, 'library', (tx) => deleteOwned(tx, ctx, libraries, libraryId, 'Library'));
  }

  @FieldResolver(() => [LibraryResource], { description: 'The resources of the library, in id order.' })
  resources(@Root() library: LibraryRow, @Ctx() ctx: Context) {
    return ctx.loaders.get(resourcesOfLibrary).load(library.id);
  }
}
