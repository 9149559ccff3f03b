import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import { categories, hostCredentials, images, libraries, libraryResources } from './library.table.js';

export const categoryById = byIdLoader('category.byId', categories);
export const libraryById = byIdLoader('library.byId', libraries);
export const libraryResourceById = byIdLoader('libraryResource.byId', libraryResources);
export const imageById = byIdLoader('image.byId', images);
/** Rows only: the roles that may read host credentials are checked by the resolvers. */
export const hostCredentialById = byIdLoader('hostCredential.byId', hostCredentials);

export const resourcesOfLibrary = childrenLoader('library.resources', libraryResources, libraryResources.libraryId);
export const hostCredentialsOfLibrary = childrenLoader('library.hostCredentials', hostCredentials, hostCredentials.libraryId);
