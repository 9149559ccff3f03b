import { beyondSpec, param, pathParam, rows, type Route } from '../../rest/route-table.js';

const show = '/host_credentials/:id';
const ofLibrary = { args: { libraryId: pathParam('library_id') } };

export const libraryRoutes: Route[] = [
  // Beyond the spec: the Edools v1 clients' category routes.
  ...beyondSpec('categories', rows.resource('/categories', '/categories/:id', 'category', 'categories')),
  rows.list('/libraries/:library_id/host_credentials', 'hostCredentials', ofLibrary),
  rows.create('/libraries/:library_id/host_credentials', 'createHostCredential', 'host_credential', show, ofLibrary),
  // The spec lists show at the plural path and update and destroy at the singular one; the twins answer too.
  ...[show, '/host_credential/:id'].flatMap((path) => [
    rows.show(path, 'hostCredential'),
    rows.update(path, 'updateHostCredential', 'host_credential', show),
    rows.destroy(path, 'deleteHostCredential'),
  ]),

  // REST twins of the GraphQL-only libraries, their resources (also under their library) and images.
  ...rows.resource('/libraries', '/libraries/:id', 'library', 'libraries'),
  ...rows.resource('/libraries/:library_id/library_resources', '/library_resources/:id', 'libraryResource', 'libraryResources', ofLibrary),
  rows.list('/library_resources', 'libraryResources', { args: { libraryId: param('library_id') } }),
  // The library from the query or the hash (`library_resource[library_id]`).
  rows.create('/library_resources', 'createLibraryResource', 'library_resource', '/library_resources/:id', {
    args: { libraryId: param('library_id', { within: 'library_resource' }) },
  }),
  ...rows.resource('/images', '/images/:id', 'image', 'images'),
];
