import { byIdLoader } from '../../graphql/loaders.js';
import { categories, libraries, libraryResources } from './library.table.js';

export const categoryById = byIdLoader('category.byId', categories);
export const libraryById = byIdLoader('library.byId', libraries);
export const libraryResourceById = byIdLoader('libraryResource.byId', libraryResources);
