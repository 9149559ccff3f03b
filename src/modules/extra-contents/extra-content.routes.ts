import { param, rows, type Route } from '../../rest/route-table.js';

/** The spec's show path (singular); `/extra_contents/:id` is its plural twin. */
const show = '/extra_content/:id';
const filters = { args: { resourceType: param('resource_type'), resourceId: param('resource_id'), mediaId: param('media_id') } };

export const extraContentRoutes: Route[] = [
  rows.list('/extra_contents', 'extraContents', filters),
  rows.create('/extra_contents', 'createExtraContent', 'extra_content', show),
  // The spec lists show, update and destroy at the singular path; the plural twins answer too.
  ...[show, '/extra_contents/:id'].flatMap((path) => [
    rows.show(path, 'extraContent'),
    rows.update(path, 'updateExtraContent', 'extra_content', show),
    rows.destroy(path, 'deleteExtraContent'),
  ]),
];
