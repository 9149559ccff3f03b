import 'reflect-metadata';
import { Resolver } from 'type-graphql';
import { RelationFields } from '../../graphql/relations.js';
import { resourceResolver } from '../../graphql/resource-resolver.js';
import { Checks } from '../../graphql/validation.js';
import { LibraryInput } from './library.input.js';
import { libraryById, resourcesOfLibrary } from './library.loaders.js';
import type { LibraryRow } from './library.table.js';
import { Library, LibraryResource } from './library.type.js';

const LibraryBase = resourceResolver({
  type: Library,
  plural: 'libraries',
  byId: libraryById,
  columns: (_tx, input: LibraryInput, { current }) => {
    new Checks().present(!current, 'name', input.name).throwIfAny();
    return input.name === undefined ? {} : { name: input.name!.trim() };
  },
  descriptions: {
    list: "The school's libraries (the wizard creates the first one).",
    delete: 'Deletes a library with its resources and host credentials; in_use while a published product still uses one of its resources.',
  },
});

@Resolver(() => Library)
@RelationFields<LibraryRow>({
  resources: { type: () => [LibraryResource], loader: resourcesOfLibrary, key: 'id', description: 'The resources of the library, in id order.' },
})
export class LibraryResolver extends LibraryBase {}
