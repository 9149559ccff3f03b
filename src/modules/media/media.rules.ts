import { count, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { given, idOrNull } from '../../graphql/ids.js';
import { existingId, existingIds } from '../../graphql/references.js';
import { Checks, isBlank } from '../../graphql/validation.js';
import { images, libraryResources } from '../library/library.table.js';
import type { MediaInput, VideoSlideSyncInput } from './media.input.js';
import { type MediaRow, type media, videoSlideSyncs } from './media.table.js';

const STORAGE_URL = /^(https?|s3|gs):\/\/[^\s/]+\/?\S*$/i;

export interface CheckedMedia {
  values: Partial<typeof media.$inferInsert>;
  /** The slides to store in place of the current ones (sorted by syncAt); undefined: keep them. */
  slides?: { imageId: number; syncAt: number }[];
}

/**
 * Checks a media as it will be after the change (`current` + `input`), so the rules of its type
 * hold on update too, and resolves its references within the school.
 */
export async function checkMedia(tx: Queryable, schoolId: number, input: MediaInput, current?: MediaRow): Promise<CheckedMedia> {
  const checks = new Checks();
  const required = ['title', 'type', 'hostKey', 'libraryResourceId'] as const;
  for (const field of required) current ? checks.notCleared(field, input[field]) : checks.required(field, input[field]);
  const type = input.type ?? current?.type;

  if (current) {
    // The file of a media is fixed when it is created; repeating the stored value is not a change.
    if (input.storageFileUrl !== undefined && (input.storageFileUrl ?? null) !== current.storageFileUrl)
      checks.add('storageFileUrl', 'unpermitted', 'cannot be changed after the media is created: create a new media for a new file');
    else if (type === 'ScormPackage' && !current.storageFileUrl)
      checks.add('storageFileUrl', 'blank', "can't be blank when type is ScormPackage, and only a new media takes a file");
  } else {
    checks.requiredWhen(type === 'ScormPackage', 'storageFileUrl', input.storageFileUrl, 'when type is ScormPackage');
    if (!isBlank(input.storageFileUrl) && !STORAGE_URL.test(input.storageFileUrl!.trim()))
      checks.add('storageFileUrl', 'invalid', 'must be an http(s), s3 or gs URL');
  }

  const videoId = await existingId(tx, checks, 'videoId', images, input.videoId, schoolId);
  const libraryResourceId = await existingId(tx, checks, 'libraryResourceId', libraryResources, input.libraryResourceId, schoolId);
  const isVideoSlide = type === 'VideoSlide';
  checks.requiredWhen(isVideoSlide, 'videoId', input.videoId !== undefined ? input.videoId : current?.videoId, 'when type is VideoSlide');
  const slides = await checkSlides(tx, checks, schoolId, input.videoSlideSyncsAttributes, isVideoSlide, current);
  checks.throwIfAny();

  const { libraryResourceId: _l, videoId: _v, videoSlideSyncsAttributes: _s, storageFileUrl, ...columns } = given(input);
  // Required fields were checked above: none of them is null here.
  const values = { ...columns } as CheckedMedia['values'];
  if (typeof values.title === 'string') values.title = values.title.trim();
  if (input.libraryResourceId !== undefined) values.libraryResourceId = libraryResourceId;
  if (input.videoId !== undefined) values.videoId = videoId;
  if (!current && storageFileUrl) values.storageFileUrl = storageFileUrl.trim();
  // A media that stops being a VideoSlide loses its slides.
  return { values, slides: slides ?? (current?.type === 'VideoSlide' && type !== 'VideoSlide' ? [] : undefined) };
}

/** The slides as they will be stored, or undefined when they stay as they are. */
async function checkSlides(
  tx: Queryable,
  checks: Checks,
  schoolId: number,
  attributes: VideoSlideSyncInput[] | null | undefined,
  isVideoSlide: boolean,
  current?: MediaRow,
): Promise<{ imageId: number; syncAt: number }[] | undefined> {
  const field = 'videoSlideSyncsAttributes';
  if (!isVideoSlide) {
    if (attributes?.length) checks.add(field, 'present', 'only a VideoSlide has slides');
    return undefined;
  }
  if (attributes === undefined && current?.type === 'VideoSlide') {
    const [{ n }] = await tx.select({ n: count() }).from(videoSlideSyncs).where(eq(videoSlideSyncs.mediaId, current.id));
    if (n > 0) return undefined;
  }
  if (!attributes?.length) {
    checks.add(field, 'blank', "can't be blank when type is VideoSlide: give at least one slide (image_id and sync_at)");
    return undefined;
  }
  const seen = new Set<number>();
  attributes.forEach((slide, i) => {
    const item = checks.nested(field, i).required('imageId', slide.imageId).required('syncAt', slide.syncAt).range('syncAt', slide.syncAt, 0);
    if (typeof slide.syncAt === 'number' && seen.has(slide.syncAt)) item.add('syncAt', 'duplicate', 'is the moment of another slide of this list');
    if (typeof slide.syncAt === 'number') seen.add(slide.syncAt);
  });
  const imageIds = attributes.map((s) => s.imageId).filter((id): id is string => !isBlank(id));
  await existingIds(tx, checks.nested(field), 'imageId', images, imageIds, schoolId);
  if (!checks.ok) return undefined;
  return attributes
    .map((s) => ({ imageId: idOrNull(s.imageId)!, syncAt: s.syncAt! }))
    .sort((a, b) => a.syncAt - b.syncAt);
}
