import { AUTHORS, PUBLIC, resource, STAFF_AND_OWN } from '../../auth/role-matrix.js';
import { defineModule } from '../define-module.js';
import { PublicMediaResolver } from './media-public.resolver.js';
import { mediaEventCatalog } from './media.events.js';
import { MediaResolver, VideoSlideSyncResolver } from './media.resolver.js';
import { mediaRoutes } from './media.routes.js';
import { ScormResolver } from './scorm.resolver.js';

export const mediaModule = defineModule({
  name: 'media',
  resolvers: [MediaResolver, VideoSlideSyncResolver, PublicMediaResolver, ScormResolver],
  routes: mediaRoutes,
  rules: {
    operations: {
      content: {
        ...resource('media', 'mediaList', STAFF_AND_OWN, AUTHORS),
        'Mutation.reprocessMedia': AUTHORS,
        // A launch or a preview only reads (GET /media/:id/launch_scorm): a suspended school's students still open their content.
        'Mutation.previewMedia': { ...AUTHORS, gate: 'reads' },
        'Mutation.launchScorm': { ...AUTHORS, student: 'own', gate: 'reads' },
        'Mutation.reportMediaProcessing': { platform: 'allow', app: 'allow' },
        'Query.publicMedia': PUBLIC,
        'Query.scormLaunch': PUBLIC,
      },
    },
  },
  errors: {
    name: 'Media',
    nodes: ['Media', 'ScormLaunch'],
    codes: ['present', 'duplicate', 'unpermitted', 'inactive', 'no_access', 'not_scorm', 'foreign_host'],
  },
  events: mediaEventCatalog,
});
