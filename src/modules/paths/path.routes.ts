import { resource, rows, type Route } from '../../rest/route-table.js';

const show = '/paths/:id';

/**
 * add_course / remove_course take the course as `{"path": {"course_id": 1}}` or `{"course_id": 1}`
 * (the spec does not show the body; clients send either). The top-level `course_id` is merged
 * into the optional `path` hash, so a body of either shape (JSON, form or multipart) works.
 */
const withCourse = { args: { input: resource('path', { optional: true, extra: ['course_id'] }) } };

export const pathRoutes: Route[] = [
  ...rows.scopedReads(
    ['/paths', '/school_products/:school_product_id/paths', '/enrollments/:enrollment_id/paths'],
    'paths',
    ['/paths/:id', '/school_products/:school_product_id/paths/:id', '/enrollments/:enrollment_id/paths/:id'],
    'path',
  ),
  rows.create('/paths', 'createPath', 'path', show),
  rows.update(show, 'updatePath', 'path', show),
  rows.action(['PUT', 'PATCH'], '/paths/:id/add_course', 'addCourseToPath', withCourse),
  rows.action(['PUT', 'PATCH'], '/paths/:id/remove_course', 'removeCourseFromPath', withCourse),
  rows.destroy(show, 'deletePath'),
];
