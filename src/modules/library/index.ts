import type { Route } from '../../rest/route-table.js';
import { CategoryResolver } from './category.resolver.js';
import { HostCredentialResolver, HostCredentialsOfLibraryResolver } from './host-credential.resolver.js';
import { ImageResolver } from './image.resolver.js';
import { LibraryResourceResolver } from './library-resource.resolver.js';
import { LibraryResolver } from './library.resolver.js';
import { libraryRoutes } from './library.routes.js';

export const libraryModule = {
  resolvers: [LibraryResolver, LibraryResourceResolver, ImageResolver, CategoryResolver, HostCredentialResolver, HostCredentialsOfLibraryResolver] as Function[],
  routes: libraryRoutes as Route[],
};
