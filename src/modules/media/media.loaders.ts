import { byIdLoader, childrenLoader } from '../../graphql/loaders.js';
import { media, videoSlideSyncs } from './media.table.js';

export const mediaById = byIdLoader('media.byId', media);
/** Any school's media, for the public view (it shows only what may be published). */
export const publicMediaById = byIdLoader('media.publicById', media, () => undefined);
/** Slides in syncAt order. The public view reads them too, with no school filter: the media it shows was found by id. */
export const slidesOfMedia = childrenLoader('media.slideSyncs', videoSlideSyncs, videoSlideSyncs.mediaId, [videoSlideSyncs.syncAt]);
