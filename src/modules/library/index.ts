import { AUTHORS, CATALOGUE, MANAGERS, resource, STAFF_READ } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { CategoryResolver } from './category.resolver.js';
import { HostCredentialResolver, HostCredentialsOfLibraryResolver } from './host-credential.resolver.js';
import { ImageResolver } from './image.resolver.js';
import { LibraryResourceResolver } from './library-resource.resolver.js';
import { LibraryResolver } from './library.resolver.js';
import { libraryRoutes } from './library.routes.js';

export const libraryModule = defineModule({
  name: 'library',
  resolvers: [LibraryResolver, LibraryResourceResolver, ImageResolver, CategoryResolver, HostCredentialResolver, HostCredentialsOfLibraryResolver],
  routes: libraryRoutes,
  rules: {
    operations: {
      catalogue: { ...resource('category', 'categories', CATALOGUE, AUTHORS), ...resource('image', 'images', CATALOGUE, AUTHORS) },
      // The content library and its host credentials (write-only secrets): staff material.
      library: {
        ...resource('library', 'libraries', STAFF_READ, AUTHORS),
        ...resource('libraryResource', 'libraryResources', STAFF_READ, AUTHORS),
        ...resource('hostCredential', 'hostCredentials', MANAGERS, MANAGERS),
      },
    },
    fields: { 'Library.hostCredentials': 'secret' },
  },
  errors: { name: 'Library', nodes: ['Library', 'LibraryResource', 'Category', 'Image', 'HostCredential'], codes: ['greater_than'] },
});
