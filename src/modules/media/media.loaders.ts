import { asc, eq } from 'drizzle-orm';
import { inList } from '../../db/columns.js';
import { defineLoader, publicLoader } from '../../graphql/context.js';
import { byIdLoader, childrenLoader, publicByIdLoader } from '../../graphql/loaders.js';
import { images } from '../library/library.table.js';
import { media, videoSlideSyncs } from './media.table.js';

export const mediaById = byIdLoader('media.byId', media);
/** Any school's media, for the public view (it shows only what may be published). */
export const publicMediaById = publicByIdLoader('media.publicById', media);
/** Slides in syncAt order. */
export const slidesOfMedia = childrenLoader('media.slideSyncs', videoSlideSyncs, videoSlideSyncs.mediaId, [videoSlideSyncs.syncAt]);

/**
 * The public view's slides: moment and image URL, in syncAt order, with no school filter whoever
 * asks (the media was found by id, publicly).
 */
export const publicSlidesOfMedia = publicLoader(defineLoader<number, { syncAt: number; imageUrl: string }[]>('media.publicSlides', async (ctx, mediaIds) => {
  const rows = await ctx.db
    .select({ mediaId: videoSlideSyncs.mediaId, syncAt: videoSlideSyncs.syncAt, imageUrl: images.url })
    .from(videoSlideSyncs)
    .innerJoin(images, eq(images.id, videoSlideSyncs.imageId))
    .where(inList(videoSlideSyncs.mediaId, [...mediaIds]))
    .orderBy(asc(videoSlideSyncs.mediaId), asc(videoSlideSyncs.syncAt));
  const byMedia = new Map<number, { syncAt: number; imageUrl: string }[]>();
  for (const { mediaId, ...slide } of rows) byMedia.set(mediaId, [...(byMedia.get(mediaId) ?? []), slide]);
  return mediaIds.map((id) => byMedia.get(id) ?? []);
}));
