import { param, rows, type Route } from '../../rest/route-table.js';

const show = '/schools/:id';

export const schoolRoutes: Route[] = [
  rows.list('/schools', 'schools', { args: { email: param('email'), type: param('type'), subdomain: param('subdomain') } }),
  rows.show(show, 'school'),
  rows.create('/schools', 'createSchool', 'school', show),
  rows.create('/schools/wizard', 'schoolWizard', 'school', show),
  // The spec lists update and destroy at the singular path; the plural twins answer too.
  ...['/school/:id', show].flatMap((path) => [rows.update(path, 'updateSchool', 'school', show), rows.destroy(path, 'deleteSchool')]),
];
