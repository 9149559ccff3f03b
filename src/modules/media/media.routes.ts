import { param, rows, type Route } from '../../rest/route-table.js';

const show = '/media/:id';

/** preview and launch_scorm: the spec gives no method; both GET and POST answer, params from the query or body. */
const launch = { redirectUri: param('redirect_uri') };

export const mediaRoutes: Route[] = [
  ...rows.scopedReads(
    ['/media', '/school_products/:school_product_id/media', '/enrollments/:enrollment_id/media'],
    'mediaList',
    ['/media/:id', '/school_products/:school_product_id/media/:id', '/enrollments/:enrollment_id/media/:id'],
    'media',
  ),
  rows.show('/media/public/:id', 'publicMedia', { public: true }),

  rows.create('/media', 'createMedia', 'media', show),
  // `PUT /media/:id?action=reprocess` is the reprocess action; without it, the update.
  rows.action(['PUT', 'PATCH'], show, 'reprocessMedia', { when: { action: 'reprocess' } }),
  rows.update(show, 'updateMedia', 'media', show),
  rows.destroy(show, 'deleteMedia'),
  rows.action(['PUT', 'PATCH'], '/media/:id/reprocess', 'reprocessMedia'),
  // The processing worker reports (the REST twin of reportMediaProcessing): `status` processing, ready or failed. A path
  // of its own: /media/:id/<action> would be one more path that only the static /media/public/:id tells apart.
  rows.action(['PUT', 'PATCH'], '/media_processing/:id', 'reportMediaProcessing', { args: { status: param('status') } }),

  rows.action(['GET', 'POST'], '/media/:id/preview', 'previewMedia', { args: launch }),
  rows.action(['GET', 'POST'], '/media/:id/launch_scorm', 'launchScorm', { args: { ...launch, enrollmentId: param('enrollment_id') } }),
  // Where a launch URI points: opens it with its token alone.
  { method: 'GET', path: '/scorm/launch', field: 'scormLaunch', args: { token: param('token') }, reply: 'show', public: true },
];
