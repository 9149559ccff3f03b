import { param, pathParam, resource, type Route } from '../../rest/route-table.js';

const show = '/schools/:id';

export const schoolRoutes: Route[] = [
  { method: 'GET', path: '/schools', field: 'schools', args: { email: param('email'), type: param('type') }, reply: 'list' },
  { method: 'GET', path: '/schools/:id', field: 'school', args: { id: pathParam() }, reply: 'show' },
  { method: 'POST', path: '/schools', field: 'createSchool', args: { input: resource('school') }, reply: 'create', location: show },
  { method: 'POST', path: '/schools/wizard', field: 'schoolWizard', args: { input: resource('school') }, reply: 'create', location: show },
  // The spec lists update and destroy at the singular path; the plural twins answer too.
  ...['/school/:id', '/schools/:id'].flatMap((path): Route[] => [
    { method: ['PUT', 'PATCH'], path, field: 'updateSchool', args: { id: pathParam(), input: resource('school') }, reply: 'update', location: show },
    { method: 'DELETE', path, field: 'deleteSchool', args: { id: pathParam() }, reply: 'destroy' },
  ]),
];
