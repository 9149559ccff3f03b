import { PublicMediaResolver } from './media-public.resolver.js';
import { MediaResolver, VideoSlideSyncResolver } from './media.resolver.js';
import { mediaRoutes } from './media.routes.js';
import { ScormResolver } from './scorm.resolver.js';

export const mediaModule = {
  resolvers: [MediaResolver, VideoSlideSyncResolver, PublicMediaResolver, ScormResolver] as Function[],
  routes: mediaRoutes,
};
