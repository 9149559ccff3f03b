import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { rowMatch } from '../../graphql/filters.js';
import { existingId } from '../../graphql/references.js';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { LibraryResourceInput, LibraryResourcesArgs } from './library.input.js';
import { libraryById, libraryResourceById } from './library.loaders.js';
import { httpUrl, optionalText } from './library.rules.js';
import { libraries, libraryResources, type LibraryResourceRow } from './library.table.js';
import { Library, LibraryResource } from './library.type.js';

/** The columns a create or an update writes, checked (title required on create, not clearable on update). */
function resourceColumns(input: LibraryResourceInput, creating: boolean) {
  const checks = new Checks().present(creating, 'title', input.title);
  const url = httpUrl(checks, 'url', input.url);
  checks.throwIfAny();
  const values: Partial<typeof libraryResources.$inferInsert> = {};
  if (input.title != null) values.title = input.title.trim();
  if (input.kind !== undefined) values.kind = optionalText(input.kind);
  if (url !== undefined) values.url = url;
  return values;
}

@Resolver(() => LibraryResource)
@RelationFields<LibraryResourceRow>({
  library: { type: () => Library, loader: libraryById, key: 'libraryId' },
})
export class LibraryResourceResolver extends resourceResolver({
  type: LibraryResource,
  byId: libraryResourceById,
  parent: { arg: 'libraryId', type: 'Library', byId: libraryById, column: 'libraryId' },
  columns: async (tx, input: LibraryResourceInput, { current }) => {
    if (!current) return resourceColumns(input, true);
    const checks = new Checks().notCleared('libraryId', input.libraryId);
    const libraryId = await existingId(tx, checks, 'libraryId', libraries, input.libraryId, current.schoolId);
    checks.throwIfAny();
    return { ...resourceColumns(input, false), ...(libraryId ? { libraryId } : {}) };
  },
  listArgs: LibraryResourcesArgs,
  listWhere: (ctx, args: LibraryResourcesArgs) => rowMatch(ctx, libraryResources.libraryId, libraryById, args.libraryId, 'Library'),
  descriptions: {
    list: "The school's library resources, or those of one library.",
    create: 'Adds a resource to a library of the school (the argument names the library).',
    update: 'Updates a resource; a libraryId moves it to another library of the school.',
    delete: 'Deletes a resource; in_use while a school product points at it.',
  },
}) {
}
